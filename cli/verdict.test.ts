/**
 * The verdict CI relies on, tested the way CI gets it: the built CLI in a fresh child process.
 * Exit 0 only when the whole requested work ran and passed; a broken factory (hanging, livelocking,
 * throwing anything, of the wrong shape) gets its documented non-zero code naming a clause, in
 * bounded time and memory; every printed replay command reproduces what it claims; and no exit
 * code escapes the documented table.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MUTANTS } from '../conformance/mutants/index.js'
import { KIT_ROOT } from './adapter-loader.js'
import { dshKit, outsideProject } from './child-cli.test-helper.js'
import type { CliRun } from './child-cli.test-helper.js'
import { EXIT, EXIT_MEANINGS } from './exit-codes.js'

/** Every exit code any test here observed; checked against the documented table at the end. */
const observed = new Set<number | null>()
async function run(args: readonly string[], options: Parameters<typeof dshKit>[1] = {}): Promise<CliRun> {
  const result = await dshKit(args, options)
  observed.add(result.code)
  return result
}

/** A clause key named in a verdict line (`AGENT-TEARDOWN-TEST 97 violated: …`). */
const CLAUSE_VIOLATED = /^([A-Z]+(?:-[A-Z]+)* \d+) violated: /m

/** Split a printed command (`npx dsh-kit certify --only "X 1"`) into its dsh-kit arguments. */
function argsOf(command: string): string[] {
  const words = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!)
  expect(words.slice(0, 2)).toEqual(['npx', 'dsh-kit'])
  return words.slice(2)
}

const ADVERSARIAL: ReadonlyArray<{ name: string; code: number; boundMs: number; source: string; expect: RegExp }> = [
  {
    name: 'create-never-settles', code: EXIT.violation, boundMs: 90_000, expect: /never settled: the event loop went idle/,
    source: `import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
export default factoryAdapter({ name: 'never-settles', version: '1' }, () => ({ createAgent: () => new Promise(() => {}), resume: () => new Promise(() => {}) }))`,
  },
  {
    name: 'dispose-never-settles', code: EXIT.violation, boundMs: 120_000, expect: /never settled|deadlock/,
    source: `import { ReferenceFactory } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
export default factoryAdapter({ name: 'dispose-never-settles', version: '1' }, (ctx) => {
  const inner = new ReferenceFactory(ctx)
  const wrap = (h) => ({ agent: h.agent, dispose: () => new Promise(() => {}) })
  return { createAgent: async (o, opts) => wrap(await inner.createAgent(o, opts)), resume: async (o, opts) => wrap(await inner.resume(o, opts)) }
})`,
  },
  {
    // The probe install before the cases used to await this unload unwatched: exit 2, naming nothing.
    name: 'unload-never-settles', code: EXIT.violation, boundMs: 90_000, expect: /never settled|deadlock/,
    source: `import { REFERENCE_ADAPTER } from 'dsh-lifecycle-kit/conformance'
export default { name: 'unload-never-settles', version: '1', install(world) { REFERENCE_ADAPTER.install(world); return { unload: () => new Promise(() => {}) } } }`,
  },
  {
    // A plain value where the unload's promise is due (mutation run, mutant 716): the watchdog called .then on it, exit 70.
    name: 'unload-returns-nothing', code: EXIT.violation, boundMs: 90_000, expect: /violated: .*[Ff]actory unload/,
    source: `import { REFERENCE_ADAPTER } from 'dsh-lifecycle-kit/conformance'
export default { name: 'unload-returns-nothing', version: '1', install(world) { REFERENCE_ADAPTER.install(world); return { unload: () => undefined } } }`,
  },
  {
    name: 'livelocking-driver', code: EXIT.violation, boundMs: 120_000, expect: /never returned to its event loop for \d+ ms \(a synchronous or microtask livelock\)/,
    source: `import { ReferenceFactory, ReferenceAgent } from 'dsh-lifecycle-kit'
import { referenceAdapter } from 'dsh-lifecycle-kit/conformance'
class Spinning extends ReferenceAgent {
  send(message, target, wakeup) {
    const result = super.send(message, target, wakeup)
    if (wakeup) (async () => { for (;;) await null })()
    return result
  }
}
class Factory extends ReferenceFactory { construct(_tx, session, options) { return new Spinning(session, options, this.ctx) } }
export default referenceAdapter({ name: 'livelock', version: '1' }, Factory)`,
  },
  {
    name: 'throws-a-string', code: EXIT.violation, boundMs: 90_000, expect: /non-Error value: "nope"/,
    source: `import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
export default factoryAdapter({ name: 'throws-string', version: '1' }, () => ({ createAgent() { throw 'nope' }, resume() { throw 'nope' } }))`,
  },
  {
    name: 'rejects-where-a-throw-is-expected', code: EXIT.violation, boundMs: 90_000, expect: /left a promise rejection unhandled/,
    source: `import { ReferenceFactory, ReferenceAgent } from 'dsh-lifecycle-kit'
import { referenceAdapter } from 'dsh-lifecycle-kit/conformance'
class Rejecting extends ReferenceAgent {
  runMaintenance(task) { try { return super.runMaintenance(task) } catch (error) { return Promise.reject(error) } }
}
class Factory extends ReferenceFactory { construct(_tx, session, options) { return new Rejecting(session, options, this.ctx) } }
export default referenceAdapter({ name: 'rejects-for-throw', version: '1' }, Factory)`,
  },
  {
    name: 'wrong-shape', code: EXIT.adapter, boundMs: 30_000, expect: /setFactory\(factory\): expected an AgentFactory .* got number 42/,
    source: `import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
export default factoryAdapter({ name: 'wrong-shape', version: '1' }, () => 42)`,
  },
]

describe('the verdict: exit 0 only for complete, passing work', () => {
  for (const adapter of ADVERSARIAL) {
    it(`certify of a factory that is ${adapter.name}: exit ${adapter.code}, a clause named, within ${adapter.boundMs / 1000} s and 1.5 GB`, async () => {
      const dir = outsideProject('dsh-verdict-')
      writeFileSync(join(dir, `${adapter.name}.mjs`), adapter.source)
      const result = await run(['certify', '--adapter', `./${adapter.name}.mjs`, '--workers', '1', '--out', join(dir, 'out')], { cwd: dir, timeoutMs: adapter.boundMs })
      expect(result.signal, `killed after ${result.ms} ms: ${result.stderr.slice(-2000)}`).toBeNull()
      expect(result.code, result.stdout.slice(-3000) + result.stderr.slice(-2000)).toBe(adapter.code)
      expect(result.stdout + result.stderr).toMatch(adapter.expect)
      if (adapter.code === EXIT.violation) {
        expect(result.stdout).toMatch(CLAUSE_VIOLATED)
        expect(result.stdout).toMatch(/^FAILED/m)
      } else {
        expect(result.stderr.trim().split('\n').filter((l) => l.startsWith('dsh-kit: ') && !l.includes('peak rss'))).toHaveLength(1)
      }
      expect(result.ms).toBeLessThan(adapter.boundMs)
      expect(result.peakMb).toBeLessThan(1536)
    }, 180_000)
  }

  it('certify of every gallery mutant exits 1 naming the clause that caught it; none exits 0, none crashes', async () => {
    const results: { file: string; result: CliRun }[] = []
    const queue = [...MUTANTS]
    await Promise.all([0, 1].map(async () => {
      for (let m = queue.shift(); m !== undefined; m = queue.shift()) {
        const result = await run(['certify', '--adapter', `conformance/mutants/${m.file}`, '--fail-fast', '--workers', '1', '--out', mkdtempSync(join(tmpdir(), 'dsh-mutant-'))], { timeoutMs: 120_000 })
        results.push({ file: m.file, result })
      }
    }))
    const wrong = results.filter(({ result }) => result.code !== EXIT.violation || !CLAUSE_VIOLATED.test(result.stdout))
    expect(wrong.map(({ file, result }) => `${file}: exit ${result.code} ${result.signal ?? ''} ${result.stderr.slice(-300)}`)).toEqual([])
    expect(results).toHaveLength(MUTANTS.length)
  }, 900_000)

  it('the reference is not failed by its own campaign: fuzz --seed 5339 --runs 1 (a register failing inside session/created) exits 0', async () => {
    const result = await run(['fuzz', '--seed', '5339', '--runs', '1', '--out', mkdtempSync(join(tmpdir(), 'dsh-fuzz-'))])
    expect(result.code, result.stdout).toBe(EXIT.ok)
    expect(result.stdout).toMatch(/^PASSED: no violation in 1 runs$/m)
  })

  it('requests that cannot be met are usage errors in one line, not a pass: unknown clause, zero budgets, bad profile, unknown option', async () => {
    for (const [args, message] of [
      [['certify', '--only', 'NOPE 999'], /--only: unknown clause "NOPE 999"/],
      [['certify', '--only', '999'], /--only: unknown clause "999"/],
      [['certify', '--profile', 'slow'], /--profile must be quick or thorough, got "slow"/],
      [['certify', '--workers', '0'], /--workers must be an integer >= 1, got "0"/],
      [['certify', '--timeout', '0s'], /--timeout must be positive, got "0s"/],
      [['certify', '--frobnicate'], /certify: Unknown option '--frobnicate'/],
      [['fuzz', '--runs', '0'], /--runs must be an integer >= 1, got "0"/],
      [['fuzz', '--time', '0s'], /--time must be positive, got "0s"/],
      [['fuzz', '--runs', '5', '--time', '5s'], /give --runs or --time, not both/],
      [['replay'], /replay needs a run file/],
      [['frobnicate'], /unknown command "frobnicate"/],
    ] as const) {
      const result = await run(args)
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(EXIT.usage)
      const lines = result.stderr.trim().split('\n').filter((l) => !l.includes('peak rss'))
      expect(lines, args.join(' ')).toHaveLength(1)
      expect(lines[0]).toMatch(message)
    }
    const version = await run(['--version'])
    expect(version.code).toBe(EXIT.ok)
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(KIT_ROOT, 'package.json'), 'utf8')).version)
    const help = await run(['certify', '--help'])
    expect(help.code).toBe(EXIT.ok)
    expect(help.stdout).toMatch(/^dsh-kit certify \[--adapter <module>\]/)
  }, 120_000)

  it('work that cannot complete is never a pass: nothing checked, or a --timeout, exits 2 with the reason', async () => {
    // Only capability-gated cases check §9 59: a runtime without the capability leaves it unchecked.
    const nothing = await run(['certify', '--adapter', 'conformance/testing/no-minting-adapter.ts', '--only', 'AGENT-PREPARE-PUBLISH 59'])
    expect(nothing.code, nothing.stdout).toBe(EXIT.incomplete)
    expect(nothing.stdout).toMatch(/^INCOMPLETE \(nothing was checked\)/m)
    expect(nothing.stdout).toMatch(/59 .*needs capability scopeMinting/)
    const timeout = await run(['certify', '--profile', 'thorough', '--timeout', '1s', '--workers', '1'])
    expect(timeout.code, timeout.stdout).toBe(EXIT.incomplete)
    expect(timeout.stdout).toMatch(/^INCOMPLETE \(--timeout 1s expired; \d+ of \d+ units ran\)/m)
  }, 120_000)

  it("an exception the adapter's module leaves uncaught, outside any run, is caught in its watched worker and charged to a clause (1), not a crash of the kit (70)", async () => {
    const dir = outsideProject('dsh-stray-')
    writeFileSync(join(dir, 'stray.mjs'), `import { REFERENCE_ADAPTER } from 'dsh-lifecycle-kit/conformance'
setTimeout(() => Promise.reject(new Error('stray rejection of the adapter module')), 0)
export default REFERENCE_ADAPTER
`)
    const result = await run(['fuzz', '--adapter', 'stray.mjs', '--runs', '50', '--workers', '1'], { cwd: dir })
    expect(result.code, result.stderr).toBe(EXIT.violation)
    expect(result.stdout).toMatch(CLAUSE_VIOLATED)
    expect(result.stdout).toContain('stray rejection of the adapter module')
    expect(result.stderr).not.toContain('crashed on an uncaught exception')
    expect(result.stderr).not.toContain('went idle')
  }, 60_000)

  it('an unwritable output is refused before any work starts (73), and a finding is printed before any output is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-out-'))
    const file = join(dir, 'a-file')
    writeFileSync(file, '')
    for (const args of [
      ['certify', '--out', join(file, 'sub')],
      ['certify', '--json', dir],
      ['fuzz', '--runs', '1', '--out', file],
      ['fuzz', '--runs', '1', '--json', join(file, 'report.json')],
    ]) {
      const result = await run(args)
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(EXIT.output)
      expect(result.stderr).toMatch(/^dsh-kit: --(out|json) .*: cannot write there \((E[A-Z]+: |it is a directory|it exists and is not a directory)/m)
      expect(result.stdout).toBe('')
    }
  }, 120_000)

  it('SIGINT during a fuzz campaign prints the partial summary, writes --json, keeps its run files and exits 130', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-sigint-'))
    const json = join(dir, 'report.json')
    const result = await run(['fuzz', '--adapter', 'conformance/mutants/m39-cancel-only-aborts.ts', '--time', '120s', '--keep-going', '--no-shrink', '--workers', '1', '--out', join(dir, 'runs'), '--json', json], {
      signal: { name: 'SIGINT', afterMs: 6_000 }, timeoutMs: 60_000,
    })
    expect(result.code, result.stderr).toBe(EXIT.interrupted)
    expect(result.stdout).toMatch(/^INTERRUPTED after \d+ runs: \d+ clause\(s\) violated/m)
    const report = JSON.parse(readFileSync(json, 'utf8'))
    expect(report).toMatchObject({ stoppedBy: 'interrupted', passed: false })
    expect(report.failures.length).toBeGreaterThan(0)
    expect(readdirSync(join(dir, 'runs', 'mutant-m39-cancel-only-aborts')).length).toBe(report.failures.length)
  }, 90_000)

  it("a certify failure's printed replay and rerun commands, run as printed for an external adapter, reproduce the same violation", async () => {
    const dir = outsideProject('dsh-replay-')
    // A factory whose teardown forgets the session (catalog M24-like): orphan sessions.
    writeFileSync(join(dir, 'leaky.mjs'), `
      import { ReferenceFactory } from 'dsh-lifecycle-kit'
      import { referenceAdapter } from 'dsh-lifecycle-kit/conformance'
      class Leaky extends ReferenceFactory {
        async runTeardown(tx, trigger) { tx.detachSession = undefined; return super.runTeardown(tx, trigger) }
      }
      export default referenceAdapter({ name: 'leaky', version: '0' }, Leaky)
    `)
    const certify = await run(['certify', '--adapter', './leaky.mjs', '--out', 'failures'], { cwd: dir })
    expect(certify.code).toBe(EXIT.violation)
    const blocks = certify.stdout.split(/\n(?=\S+ \d+ violated:)/).filter((b) => CLAUSE_VIOLATED.test(b))
    const simulated = blocks.find((b) => /replay: npx dsh-kit replay /.test(b))
    const directed = blocks.find((b) => /rerun: npx dsh-kit certify /.test(b))
    expect(simulated, certify.stdout).toBeDefined()
    expect(directed, certify.stdout).toBeDefined()
    for (const block of [simulated!, directed!]) {
      const clause = CLAUSE_VIOLATED.exec(block)![1]!
      const command = /(?:replay|rerun): (npx dsh-kit .*)$/m.exec(block)![1]!
      expect(command).toContain('--adapter ./leaky.mjs')
      const again = await run(argsOf(command), { cwd: dir })
      expect(again.code, again.stdout + again.stderr).toBe(EXIT.violation)
      expect(again.stdout).toContain(clause)
      if (block === simulated) expect(again.stdout).toContain(`reproduced: ${clause}`)
    }
    // The run file names its adapter: a replay without --adapter uses it, one naming another is refused.
    const file = /replay: npx dsh-kit replay (\S+)/.exec(simulated!)![1]!
    expect(JSON.parse(readFileSync(resolve(dir, file), 'utf8'))).toMatchObject({ adapter: './leaky.mjs', adapterName: 'leaky@0' })
    const bare = await run(['replay', file], { cwd: dir })
    expect(bare.code).toBe(EXIT.violation)
    expect(bare.stdout).toContain('against leaky')
    const other = await run(['replay', file, '--adapter', join(KIT_ROOT, 'conformance/mutants/m01-setup-after-publish.ts')], { cwd: dir })
    expect(other.code).toBe(EXIT.usage)
    expect(other.stderr).toMatch(/was recorded against \.\/leaky\.mjs \(leaky@0\), not --adapter .*m01-setup-after-publish\.ts .*add --force/)
  }, 180_000)

  it('a run file that no longer fits its adapter is one line and exit 3; a file that is not a run file is exit 65', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-diverge-'))
    const fuzz = await run(['fuzz', '--adapter', 'conformance/mutants/m01-setup-after-publish.ts', '--runs', '20', '--out', dir])
    expect(fuzz.code).toBe(EXIT.violation)
    const file = /replay: {2}npx dsh-kit replay (\S+)/.exec(fuzz.stdout)![1]!
    const saved = JSON.parse(readFileSync(file, 'utf8'))
    saved.decisions.decisions = saved.decisions.decisions.map((d: { kind: string; label?: string }) => (d.kind === 'pick' ? { ...d, label: `${d.label}-edited` } : d))
    const edited = join(dir, 'edited.json')
    writeFileSync(edited, JSON.stringify(saved))
    const diverged = await run(['replay', edited])
    expect(diverged.code, diverged.stdout + diverged.stderr).toBe(EXIT.diverged)
    expect(diverged.stdout).toMatch(/^dsh-kit replay: .*edited\.json did not replay against .*: replay diverged at decision 0/m)
    writeFileSync(join(dir, 'junk.json'), '{"kind":"something else"}')
    const junk = await run(['replay', join(dir, 'junk.json')])
    expect(junk.code).toBe(EXIT.input)
    expect(junk.stderr).toMatch(/junk\.json: \.kind must be "dsh-kit-run"/)
    expect(existsSync(file)).toBe(true)
  }, 120_000)

  it('explain is a viewer: it exits 0 once it drew the timeline of a violating run, printing the violation; replay of the same file exits 1; --help and the README say so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-explain-'))
    const fuzz = await run(['fuzz', '--adapter', 'conformance/mutants/m01-setup-after-publish.ts', '--runs', '20', '--out', dir])
    expect(fuzz.code).toBe(EXIT.violation)
    const file = /replay: {2}npx dsh-kit replay (\S+)/.exec(fuzz.stdout)![1]!
    const explain = await run(['explain', file])
    expect(explain.code, explain.stderr).toBe(EXIT.ok)
    expect(explain.stdout).toMatch(/^AGENT-SETUP-CONTRACT 36 violated at entry #\d+/m)
    const page = await run(['explain', file, '--html', join(dir, 'timeline.html')])
    expect(page.code, page.stderr).toBe(EXIT.ok)
    const replay = await run(['replay', file])
    expect(replay.code).toBe(EXIT.violation)
    const help = await run(['explain', '--help'])
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/exits 0 once it drew the timeline, even of a violating run; gate on replay/)
    const overview = await run(['--help'])
    expect(overview.stdout).toMatch(/^ {4}0 {2}.*explain exits 0 once it drew the timeline, even of a violating run/m)
    const readme = readFileSync(join(KIT_ROOT, 'README.md'), 'utf8')
    expect(readme).toMatch(/^\| 0 \| .*explain exits 0 once it drew the timeline, even of a violating run/m)
  }, 120_000)

  it('the README documents every exit code of the table, and no other code escaped any test above', () => {
    const readme = readFileSync(join(KIT_ROOT, 'README.md'), 'utf8')
    const rows = [...readme.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => [Number(m[1]), m[2]] as const)
    expect(rows).toEqual(EXIT_MEANINGS.map(([code, meaning]) => [code, meaning]))
    const documented = new Set<number | null>(Object.values(EXIT))
    expect([...observed].filter((c) => !documented.has(c))).toEqual([])
    expect(observed.size).toBeGreaterThan(5)
  })
})
