/**
 * Hostile adapters (`conformance/testing/hostile/`, not shipped) through the built CLI, as child
 * processes: adapters that do what real libraries do (flush-then-exit, signal handlers, fake timers
 * at load, stray intervals, Buffers, throwing getters) and CI faults (a missing shard, a full disk).
 * Each asserts the exit code, the clause or reason printed, a wall-time bound and a memory bound:
 * no attack on a failing factory exits 0, an unloadable adapter is 78, bad input 65, an interrupt
 * 130 or 143 with the partial summary. Deadlines are small (`--case-timeout`) to keep `npm test` short.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KIT_ROOT } from './adapter-loader.js'
import { dshKit } from './child-cli.test-helper.js'
import type { CliOptions, CliRun } from './child-cli.test-helper.js'
import { EXIT } from './exit-codes.js'

const HOSTILE = 'conformance/testing/hostile'
/** A clause key named in a verdict line (`AGENT-TEARDOWN-TEST 97 violated: …`). */
const CLAUSE_VIOLATED = /^([A-Z]+(?:-[A-Z]+)* \d+) violated: /m
/** The bound on every attack: 150 s and 2 GB. */
const WALL_MS = 150_000
const PEAK_MB = 2048

/** At most two CLI children at once (the machine has two cores; each child runs one worker). */
let slots = 2
const waiting: (() => void)[] = []
async function cli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  while (slots === 0) await new Promise<void>((resolve) => waiting.push(resolve))
  slots--
  try {
    return await dshKit(args, { timeoutMs: WALL_MS + 10_000, ...options })
  } finally {
    slots++
    waiting.shift()?.()
  }
}

function out(): string {
  return mkdtempSync(join(tmpdir(), 'dsh-hostile-'))
}

/** Certify a hostile adapter with one worker and small deadlines. */
function certify(adapter: string, extra: readonly string[] = [], options: CliOptions = {}): Promise<CliRun> {
  return cli(['certify', '--adapter', `${HOSTILE}/${adapter}.mjs`, '--workers', '1', '--case-timeout', '3s', '--out', out(), ...extra], options)
}

/** The bounds every attack must meet, and no kill by the test's own timeout. */
function bounded(result: CliRun, wallMs = WALL_MS): void {
  expect(result.signal, `killed after ${result.ms} ms: ${result.stderr.slice(-1500)}`).toBeNull()
  expect(result.ms).toBeLessThan(wallMs)
  expect(result.peakMb, result.stderr.slice(-500)).toBeDefined()
  expect(result.peakMb!).toBeLessThan(PEAK_MB)
}

function failsAClause(result: CliRun): void {
  expect(result.code, result.stdout.slice(-2000) + result.stderr.slice(-2000)).toBe(EXIT.violation)
  expect(result.stdout).toMatch(CLAUSE_VIOLATED)
  expect(result.stdout).toMatch(/^FAILED/m)
}

function adapterError(result: CliRun, reason: RegExp): void {
  expect(result.code, result.stdout.slice(-1000) + result.stderr.slice(-2000)).toBe(EXIT.adapter)
  const lines = result.stderr.trim().split('\n').filter((l) => l.startsWith('dsh-kit: ') && !l.includes('peak rss'))
  expect(lines, result.stderr).toHaveLength(1)
  expect(lines[0]).toMatch(reason)
}

describe.concurrent('hostile adapters through the built CLI: the verdict is the kit\'s', () => {
  // The kit owns the exit code: nothing an adapter does at load or later turns a failing verdict into 0.
  for (const name of ['before-exit-zero', 'timer-exit-zero', 'interval-at-load', 'exit-in-create'] as const) {
    it(`${name}: a failing factory is exit 1 naming a clause`, async () => {
      const result = await certify(name, ['--fail-fast', '--no-shrink'])
      failsAClause(result)
      bounded(result, 60_000)
    }, WALL_MS + 20_000)
  }

  // Formatting never throws and output is bounded, whatever the code under test rejects with.
  for (const [name, shown] of [
    ['proxy-throw', /violated/],
    ['message-getter-throws', /an Error whose message cannot be read|message getter|non-Error/],
    ['null-prototype', /non-Error value: \{\}/],
    ['cyclic-value', /\[Circular\]|<throws>/],
  ] as const) {
    it(`${name}: exit 1 naming a clause, the value printed without crashing the kit`, async () => {
      const result = await certify(name, ['--no-shrink'])
      failsAClause(result)
      expect(result.stdout + result.stderr).toMatch(shown)
      expect(result.stderr).not.toMatch(/internal error/)
      bounded(result, 90_000)
    }, WALL_MS + 20_000)
  }

  it('huge-message: every create rejecting with 3 MB is exit 1, its messages cut saying so, run files and stdout small', async () => {
    const dir = out()
    const result = await cli(['certify', '--adapter', `${HOSTILE}/huge-message.mjs`, '--workers', '1', '--case-timeout', '3s', '--no-shrink', '--out', dir])
    failsAClause(result)
    expect(result.stdout).toMatch(/more characters cut by dsh-kit/)
    expect(result.stdout.length).toBeLessThan(5 * 2 ** 20)
    const bytes = (d: string): number => readdirSync(d, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? bytes(join(d, e.name)) : statSync(join(d, e.name)).size), 0)
    expect(bytes(dir)).toBeLessThan(50 * 2 ** 20)
    bounded(result, 90_000)
  }, WALL_MS + 20_000)

  it('buffer-bomb: Buffers outside the heap are counted; the run holding them is lost to memory and charged to a clause', async () => {
    const result = await certify('buffer-bomb', ['--no-shrink'])
    failsAClause(result)
    expect(result.stdout).toMatch(/ran out of memory/)
    bounded(result)
  }, WALL_MS + 20_000)

  // Adapter code runs only in watched workers: an adapter that cannot load or probe is 78, once.
  for (const [name, reason] of [
    ['install-heap-bomb', /install-heap-bomb\.mjs: the capability probe .* never finished: it (never returned to its event loop|ran out of memory)/],
    ['spin-at-load', /cannot load adapter module ".*spin-at-load\.mjs": .*never returned to its event loop for \d+ ms while loading/],
    ['worker-only-spin', /cannot load adapter module ".*worker-only-spin\.mjs": .*never returned to its event loop for \d+ ms while loading/],
    ['worker-only-exit', /cannot load adapter module ".*worker-only-exit\.mjs": .*ended its worker thread while loading \(exit code 0\)/],
    ['worker-only-await', /cannot load adapter module ".*worker-only-await\.mjs": .*ended its worker thread while loading/],
    ['process-never-settles', /process-never-settles\.mjs: the capability probe .* (never settled|did not settle within \d+ ms)/],
  ] as const) {
    it(`${name}: exit 78 with the reason, in one line, never respawned`, async () => {
      const result = await certify(name)
      adapterError(result, reason)
      bounded(result, 60_000)
    }, WALL_MS + 20_000)
  }

  // A correct factory whose module replaces the timer globals at load: the kit puts them back, and it passes.
  for (const name of ['fake-timers-at-load', 'noop-timers-at-load'] as const) {
    it(`${name}: the correct factory passes (exit 0), with a warning naming what it replaced`, async () => {
      const result = await certify(name, ['--only', 'AGENT-CREATE-RESUME 53'])
      expect(result.code, result.stdout.slice(-1000) + result.stderr.slice(-1500)).toBe(EXIT.ok)
      expect(result.stdout).toMatch(/^PASSED/m)
      expect(result.stderr).toMatch(/warning: adapter module .* replaced setTimeout.* when it loaded; the kit put the real ones back/)
      bounded(result, 60_000)
    }, WALL_MS + 20_000)
  }

  it('main-thread-livelock: certify --html replays the failures in a watched worker: exit 1 and the page written', async () => {
    const html = join(out(), 'certificate.html')
    const result = await certify('main-thread-livelock', ['--fail-fast', '--html', html])
    failsAClause(result)
    expect(readFileSync(html, 'utf8')).toMatch(/FAILED/)
    bounded(result, 90_000)
  }, WALL_MS + 20_000)

  for (const [signal, code, word] of [['SIGINT', EXIT.interrupted, 'interrupted by SIGINT'], ['SIGTERM', EXIT.terminated, 'interrupted by SIGTERM']] as const) {
    it(`sigint-handler: the adapter's own ${signal} handler cannot take the signal: ${code}, the partial summary and --json`, async () => {
      const dir = out()
      const json = join(dir, 'report.json')
      const result = await cli(['certify', '--adapter', `${HOSTILE}/sigint-handler.mjs`, '--profile', 'thorough', '--workers', '1', '--out', dir, '--json', json], { signal: { name: signal, afterMs: 3_000, afterStderr: /^certifying /m } })
      expect(result.code, result.stdout.slice(-1000) + result.stderr.slice(-1500)).toBe(code)
      expect(result.stdout).toMatch(new RegExp(`^FAILED \\(and incomplete: ${word}`, 'm'))
      expect(result.stdout).toMatch(CLAUSE_VIOLATED)
      expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ complete: false, passed: false })
      expect(result.stderr).not.toMatch(/adapter: SIG/)
      bounded(result, 60_000)
    }, WALL_MS + 20_000)
  }

  it('stateful: fuzz --keep-going of a factory keeping state across runs reports the nondeterminism (clause, seed, first differing decision) and goes on', async () => {
    const dir = out()
    const result = await cli(['fuzz', '--adapter', `${HOSTILE}/stateful.mjs`, '--keep-going', '--runs', '200', '--workers', '1', '--out', dir, '--json', join(dir, 'report.json')])
    failsAClause(result)
    expect(result.stdout).toMatch(/violated by run seed \d+ .*a strict replay of the failing run diverged at decision \d+ .*nondeterministic/)
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toMatchObject({ seeds: 200, passed: false })
    bounded(result, 90_000)
  }, WALL_MS + 20_000)

  it('--json /dev/full: the --html beside it is still written, and the exit code (73) names the output that failed', async () => {
    const html = join(out(), 'certificate.html')
    const result = await certify('reject-all', ['--fail-fast', '--no-shrink', '--json', '/dev/full', '--html', html])
    expect(result.code, result.stderr).toBe(EXIT.output)
    expect(result.stdout).toMatch(CLAUSE_VIOLATED)
    expect(result.stderr).toMatch(/^dsh-kit: --reporter json \/dev\/full: could not write \(ENOSPC/m)
    expect(existsSync(html)).toBe(true)
    bounded(result, 60_000)
  }, WALL_MS + 20_000)
})

describe('merge verifies its shards', () => {
  it('a missing shard, a duplicated one or mixed kit versions is exit 65 naming it; a passed flag beside a failure is not believed; a shard with 0 runs is said', async () => {
    const dir = out()
    for (const i of [1, 2, 3, 4]) {
      const shard = await cli(['fuzz', '--shard', `${i}/4`, '--runs', '2', '--workers', '1', '--out', join(dir, 'runs'), '--json', join(dir, `shard-${i}.json`)])
      expect(shard.code, shard.stderr).toBe(EXIT.ok)
    }
    const shards = (...n: number[]): string[] => n.map((i) => join(dir, `shard-${i}.json`))
    const all = await cli(['merge', ...shards(1, 2, 3, 4)])
    expect(all.code, all.stderr).toBe(EXIT.ok)
    const missing = await cli(['merge', ...shards(2, 3, 4)])
    expect(missing.code).toBe(EXIT.input)
    expect(missing.stderr).toMatch(/^dsh-kit: shard 1\/4 of the 4-shard campaign is missing/m)
    const twice = await cli(['merge', ...shards(1, 2, 2, 3, 4)])
    expect(twice.code).toBe(EXIT.input)
    expect(twice.stderr).toMatch(/shard 2\/4 is given twice/)
    const edit = (i: number, name: string, change: (r: Record<string, unknown>) => void): string => {
      const report = JSON.parse(readFileSync(join(dir, `shard-${i}.json`), 'utf8'))
      change(report)
      writeFileSync(join(dir, name), JSON.stringify(report))
      return join(dir, name)
    }
    const old = await cli(['merge', edit(1, 'old.json', (r) => { r.kitVersion = '0.0.1' }), ...shards(2, 3, 4)])
    expect(old.code).toBe(EXIT.input)
    expect(old.stderr).toMatch(/is of another campaign: its kitVersion is "\d/)
    const unversioned = await cli(['merge', edit(1, 'unversioned.json', (r) => { delete r.kitVersion }), ...shards(2, 3, 4)])
    expect(unversioned.code).toBe(EXIT.input)
    expect(unversioned.stderr).toMatch(/unversioned\.json records no kit version/)
    const failing = await cli(['fuzz', '--adapter', 'conformance/mutants/m01-setup-after-publish.ts', '--runs', '20', '--workers', '1', '--no-shrink', '--out', join(dir, 'm01'), '--json', join(dir, 'm01.json')])
    expect(failing.code).toBe(EXIT.violation)
    const report = JSON.parse(readFileSync(join(dir, 'm01.json'), 'utf8'))
    writeFileSync(join(dir, 'lies.json'), JSON.stringify({ ...report, passed: true }))
    const lies = await cli(['merge', join(dir, 'lies.json')])
    expect(lies.code).toBe(EXIT.violation)
    expect(lies.stdout).toMatch(/^FAILED/m)
    const empty = await cli(['merge', edit(1, 'empty.json', (r) => { r.runs = 0; r.seeds = 0 }), ...shards(2, 3, 4)])
    expect(empty.code).toBe(EXIT.incomplete)
    expect(empty.stdout).toMatch(/^shard 1\/4 completed 0 runs: its seeds were never tried/m)
    for (const result of [all, missing, twice, old, unversioned, lies, empty]) bounded(result, 30_000)
  }, 300_000)
})

it('the attack adapters are not shipped', () => {
  const pkg = JSON.parse(readFileSync(join(KIT_ROOT, 'package.json'), 'utf8')) as { files: string[] }
  expect(pkg.files).toContain('!conformance/testing')
  expect(existsSync(join(KIT_ROOT, HOSTILE, 'reject-all.mjs'))).toBe(true)
})
