/**
 * Using every core and every machine, through the built CLI: worker counts do not change what a
 * `--runs` campaign finds, a CI matrix of shards merges into the unsharded campaign's totals, a
 * worker killed mid-campaign is reported rather than lost, and the JUnit reports CI reads parse.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { KIT_ROOT } from './adapter-loader.js'
import { dshKit } from './child-cli.test-helper.js'
import { EXIT } from './exit-codes.js'

const M39 = 'conformance/mutants/m39-cancel-only-aborts.ts'
const M01 = 'conformance/mutants/m01-setup-after-publish.ts'

/** A campaign report without the fields that say how long it took or where it wrote. */
function comparable(path: string, dir: string): string {
  const report = JSON.parse(readFileSync(path, 'utf8'))
  delete report.durationMs
  return JSON.stringify(report).split(dir).join('<out>')
}

function parseJUnit(xml: string): { testsuites: { testsuite: { testcase: unknown } & Record<string, unknown> } & Record<string, unknown> } {
  const valid = XMLValidator.validate(xml)
  expect(valid, JSON.stringify(valid)).toBe(true)
  return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml)
}

/**
 * Write an adapter module into `dir` whose `body` can use the built kit's `ReferenceFactory`,
 * `factoryAdapter` and `referenceAdapter` (imported by absolute path, as worker threads load it too).
 */
function adapterModule(dir: string, file: string, body: string): string {
  const path = join(dir, file)
  writeFileSync(path, `import { ReferenceFactory } from '${join(KIT_ROOT, 'dist', 'core', 'index.js')}'
import { factoryAdapter, referenceAdapter } from '${join(KIT_ROOT, 'dist', 'conformance', 'index.js')}'
${body}`)
  return path
}

const asArray = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x])

describe('scale: workers, shards and CI reports', () => {
  it('fuzz --runs N finds the same findings and writes the same JSON with 1 or 2 workers, guided or not, recycled or not', async () => {
    for (const guidance of ['on', 'off']) {
      const reports: string[] = []
      // Guided, workers replaced every 7 seeds too: each new worker is sent the corpus programs anew.
      for (const workers of guidance === 'on' ? [['1'], ['2'], ['2', '--recycle-after', '7']] : [['1'], ['2']]) {
        const dir = mkdtempSync(join(tmpdir(), 'dsh-workers-'))
        const result = await dshKit(['fuzz', '--adapter', M01, '--runs', '300', '--seed', '11', '--keep-going', '--guidance', guidance, '--workers', ...workers, '--out', join(dir, 'runs'), '--json', join(dir, 'r.json')])
        expect(result.code, result.stderr).toBe(EXIT.violation)
        reports.push(comparable(join(dir, 'r.json'), dir))
      }
      for (const other of reports.slice(1)) expect(other).toBe(reports[0])
      const report = JSON.parse(reports[0]!)
      expect(report.seeds).toBe(300)
      expect(report.guidance).toBe(guidance)
      expect(report.stateCoverage.transitions).toBeGreaterThan(100)
      // Guided, most seeds past the first GUIDANCE_LAG + 1 ran a corpus mutant, drawn in the main
      // thread from the corpus as the ledger fed it in seed order: the same with any worker count.
      if (guidance === 'on') expect(report.stateCoverage.corpus.mutatedSeeds).toBeGreaterThan(100)
      else expect(report.stateCoverage.corpus).toBeUndefined()
    }
  }, 360_000)

  it('three shards merged give the unsharded campaign: the same runs, outcomes, violation counts, coverage and goals', async () => {
    // Unguided: each run seed's program is its own, so shards split one campaign exactly (a guided
    // shard keeps its own corpus, so its mutants differ from the unsharded campaign's).
    const dir = mkdtempSync(join(tmpdir(), 'dsh-shards-'))
    const shards = await Promise.all([1, 2, 3].map((i) => dshKit(['fuzz', '--adapter', M01, '--runs', '40', '--seed', '5', '--shard', `${i}/3`, '--guidance', 'off', '--keep-going', '--workers', '1', '--out', join(dir, `s${i}`), '--json', join(dir, `s${i}.json`)])))
    for (const s of shards) expect(s.code, s.stderr).toBe(EXIT.violation)
    const merge = await dshKit(['merge', join(dir, 's1.json'), join(dir, 's2.json'), join(dir, 's3.json'), '--json', join(dir, 'merged.json'), '--reporter', `junit=${join(dir, 'merged.xml')}`])
    expect(merge.code, merge.stderr).toBe(EXIT.violation)
    expect(merge.stdout).toMatch(/^merged 3 shard reports \(shards 1\/3, 2\/3, 3\/3; dsh-kit \d+\.\d+\.\d+\S*\)$/m)
    const whole = await dshKit(['fuzz', '--adapter', M01, '--runs', '120', '--seed', '5', '--guidance', 'off', '--keep-going', '--workers', '2', '--out', join(dir, 'whole'), '--json', join(dir, 'whole.json')])
    expect(whole.code).toBe(EXIT.violation)
    const merged = JSON.parse(readFileSync(join(dir, 'merged.json'), 'utf8'))
    const unsharded = JSON.parse(readFileSync(join(dir, 'whole.json'), 'utf8'))
    for (const field of ['runs', 'seeds', 'outcomes', 'violatingRuns', 'violationCounts', 'coverage', 'passed'] as const) expect(merged[field], field).toEqual(unsharded[field])
    const reached = (r: { goals: { reached: Record<string, number | undefined> } }): string[] => Object.entries(r.goals.reached).filter(([, at]) => at !== undefined).map(([g]) => g).sort()
    expect(reached(merged)).toEqual(reached(unsharded))
    // Shards do not list their transitions: the merged state coverage is the largest shard's, a lower bound.
    const shardReports = [1, 2, 3].map((i) => JSON.parse(readFileSync(join(dir, `s${i}.json`), 'utf8')))
    expect(merged.stateCoverage).toEqual({ transitions: Math.max(...shardReports.map((r) => r.stateCoverage.transitions)), growth: [], lowerBound: true })
    expect(merge.stdout).toMatch(/^state coverage: at least \d+ abstract transitions \(the largest shard's\)$/m)
    expect(new Set(merged.failures.map((f: { key: string }) => f.key))).toEqual(new Set(unsharded.failures.map((f: { key: string }) => f.key)))
    const junit = parseJUnit(readFileSync(join(dir, 'merged.xml'), 'utf8'))
    expect(asArray(junit.testsuites.testsuite.testcase)).toHaveLength(merged.failures.length)
    // Shards of different campaigns do not merge.
    const other = await dshKit(['fuzz', '--runs', '3', '--seed', '6', '--guidance', 'off', '--workers', '1', '--out', join(dir, 'o'), '--json', join(dir, 'other.json')])
    expect(other.code).toBe(EXIT.ok)
    const mismatch = await dshKit(['merge', join(dir, 's1.json'), join(dir, 'other.json')])
    expect(mismatch.code).toBe(EXIT.input)
    expect(mismatch.stderr).toMatch(/other\.json is of another campaign: its adapter is "dsh-lifecycle-kit reference"/)
  }, 300_000)

  it('certify --reporter junit writes JUnit XML CI can parse: one testcase per clause, failures and skips marked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-junit-'))
    const xmlFile = join(dir, 'certify.xml')
    const result = await dshKit(['certify', '--adapter', M39, '--reporter', `junit=${xmlFile}`, '--reporter', `json=${join(dir, 'c.json')}`, '--out', join(dir, 'f')])
    expect(result.code).toBe(EXIT.violation)
    const report = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'))
    const junit = parseJUnit(readFileSync(xmlFile, 'utf8'))
    const suite = junit.testsuites.testsuite
    const cases = asArray(suite.testcase) as Array<{ name: string; classname: string; failure?: { message: string }; skipped?: { message: string } }>
    expect(cases).toHaveLength(report.clauses.length)
    expect(Number(suite.tests)).toBe(report.clauses.length)
    expect(cases.filter((c) => c.failure).map((c) => c.name.split(':')[0])).toEqual(report.failing)
    expect(Number(suite.failures)).toBe(report.failing.length)
    expect(cases.filter((c) => c.skipped)).toHaveLength(report.clauses.filter((c: { status: string }) => c.status === 'unchecked').length)
    expect(cases[0]).toMatchObject({ classname: report.clauses[0].group, name: `${report.clauses[0].key}: ${report.clauses[0].title}` })
  }, 120_000)

  it('a campaign that stops at its first failure while another worker still holds seeds exits 1, not with a crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-stop-'))
    // Mutant A6's bug (every run of the example program violates §9 79) in every worker; the worker
    // that creates the first agent (it runs seed 0) is fast, every other one slow, so when seed 0's
    // report is shrunk the slow worker still runs one seed and holds the next: the pool closes on them.
    // (150 ms per create: a longer busy wait, starved of CPU by parallel test files, tripped the 3 s livelock watchdog.)
    const adapter = adapterModule(dir, 'slow-a6.mjs', `
      import { openSync } from 'node:fs'
      let fast
      export default referenceAdapter({ name: 'slow-a6', version: '1' }, class extends ReferenceFactory {
        detachEntries(tx, trigger) {
          try {
            tx.detachAgent?.()
            if (trigger === 'rollback' && tx.detachAgent && tx.agent) this.ctx.events.contained('agent/disposed', tx.agent, { agent: tx.agent })
          } finally { tx.detachSession?.() }
        }
        createAgent(owner, options) {
          if (fast === undefined) { try { openSync('${join(dir, 'first')}', 'wx'); fast = true } catch { fast = false } }
          if (!fast) { const until = performance.now() + 150; while (performance.now() < until); }
          return super.createAgent(owner, options)
        }
      })
    `)
    const result = await dshKit(['run', 'scenarios/examples/owner-unload-in-session-created.mjs', '--adapter', adapter, '--runs', '20', '--workers', '2', '--no-timelines', '--out', join(dir, 'runs')])
    expect(result.code, result.stderr).toBe(EXIT.violation)
    expect(result.stdout).toContain('AGENT-REGISTRY-LIFECYCLE 79 violated:')
    expect(result.stderr).not.toContain('WorkerPool closed')
  }, 120_000)

  it('a worker that is killed mid-campaign is reported against its seed, not lost, and the campaign goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-kill-'))
    // A factory that kills its own worker thread on the 3rd agent it creates (process.exit in a worker ends that thread only).
    const adapter = adapterModule(dir, 'dies.mjs', `
      import { isMainThread } from 'node:worker_threads'
      let created = 0
      export default factoryAdapter({ name: 'dies', version: '1' }, (ctx) => {
        const inner = new ReferenceFactory(ctx)
        return {
          createAgent(owner, options) { if (!isMainThread && ++created === 3) process.exit(9); return inner.createAgent(owner, options) },
          resume: (owner, options) => inner.resume(owner, options),
        }
      })
    `)
    const result = await dshKit(['fuzz', '--adapter', adapter, '--runs', '40', '--keep-going', '--workers', '1', '--out', join(dir, 'runs'), '--json', join(dir, 'r.json')])
    expect(result.code, result.stdout + result.stderr).toBe(EXIT.violation)
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))
    expect(report.runs).toBe(40)
    const lost = report.failures.find((f: { key: string }) => f.key === 'X-RUN 2')
    expect(lost?.message).toMatch(/^the run of seed \d+ never finished: its worker (exited with code 9|crashed)/)
    expect(lost?.rerun).toMatch(/^npx dsh-kit fuzz --adapter .*dies\.mjs --strategy portfolio --seed \d+ --runs 1$/)
  }, 120_000)
})
