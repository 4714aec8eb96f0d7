import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { normalizeAdapter } from '../conformance/adapters/adapter.js'
import { checkRun } from '../conformance/checkers/index.js'
import m01 from '../conformance/mutants/m01-setup-after-publish.js'
import m25 from '../conformance/mutants/m25-owner-unload-unregisters-early.js'
import { readRunFile } from '../sim/trace/run-file.js'
import { runProgram } from '../sim/run.js'
import { replay } from '../sim/strategies/index.js'
import { REFERENCE_ADAPTER } from '../conformance/adapters/adapter.js'
import { ALL_COVERAGE_KEYS, coverageOf, missingCoverage } from '../scenarios/arbitraries/index.js'
import { campaignContext, coverageToReport } from '../scenarios/campaign/seed.js'
import { CampaignError, runCampaign, scenarioMix } from '../scenarios/campaign/campaign.js'
import { drawForSeed } from '../scenarios/campaign/draw.js'
import { GUIDANCE_LAG } from '../scenarios/guidance/guided-draw.js'
import type { CampaignProgress } from '../scenarios/campaign/campaign.js'
import { formatCampaign, formatStateCoverage } from './campaign-text.js'
import { defineScenario, findScenario, goal } from '../scenarios/index.js'

describe('campaign', () => {
  it('finds a mutant, shrinks the failure, saves a run file that replays strictly to the same violation', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dsh-campaign-'))
    const report = await runCampaign({ adapter: m01, adapterModule: 'conformance/mutants/m01-setup-after-publish.ts', runs: 20, outDir: out })
    expect(report.passed).toBe(false)
    expect(report.stoppedBy).toBe('failure')
    expect(report.failures).toHaveLength(1)
    const f = report.failures[0]!
    expect(f.key).toBe('AGENT-SETUP-CONTRACT 36')
    expect(f.shrink?.reproduced).toBe(true)
    expect(f.after.operations).toBeLessThan(f.before.operations)
    expect(f.replayVerified).toBe(true)
    expect(f.baseline?.violates).not.toContain(f.key)
    expect(f.rerun).toBe(`npx dsh-kit fuzz --adapter conformance/mutants/m01-setup-after-publish.ts --strategy portfolio --seed ${f.runSeed} --runs 1`)
    expect(f.replay).toBe(`npx dsh-kit replay ${f.runFile} --adapter conformance/mutants/m01-setup-after-publish.ts`)

    const file = readRunFile(f.runFile!)
    expect(file.adapter).toBe('conformance/mutants/m01-setup-after-publish.ts')
    expect(file.violations?.map((v) => v.clause)).toContain(f.key)
    const strategy = replay(file.decisions)
    strategy.beginRun()
    const again = await runProgram(file.program, strategy, { install: normalizeAdapter(m01).installFactory })
    expect(again.hash).toBe(file.hash)
    expect(checkRun(file.program, again.trace, again.outcome).map((v) => v.key)).toContain(f.key)

    const text = formatCampaign(report)
    expect(text).toContain('AGENT-SETUP-CONTRACT 36 violated:')
    expect(text).toContain(`replay:  npx dsh-kit replay ${f.runFile}`)
    expect(text).toMatch(/shrunk in \d+ runs: operations \d+ → 1/)
    expect(text).toMatch(/^FAILED: \d+ clause\(s\) violated in 1 of \d+ runs \(AGENT-SETUP-CONTRACT 36 in 1 run/m)
  })

  it('is deterministic: the same options give the same runs, failures and shrunk run', async () => {
    const a = await runCampaign({ adapter: m01, runs: 10, seed: 5 })
    const b = await runCampaign({ adapter: m01, runs: 10, seed: 5 })
    expect(a.failures.map((f) => [f.key, f.runSeed, f.hash])).toEqual(b.failures.map((f) => [f.key, f.runSeed, f.hash]))
    expect(a.runs).toBe(b.runs)
  })

  it('run seed r reruns alone: --seed r --runs 1 finds the same failure', async () => {
    const first = await runCampaign({ adapter: m01, runs: 20, seed: 3, shrink: false })
    const f = first.failures[0]!
    const alone = await runCampaign({ adapter: m01, runs: 1, seed: f.runSeed, shrink: false })
    expect(alone.failures[0]?.hash).toBe(f.hash)
  })

  it('shards split the seed range: shard i/n runs seeds S+i-1, S+i-1+n, ... with no overlap', async () => {
    const seeds = async (shard?: { index: number; count: number }, runs = 3): Promise<number[]> => {
      const out: number[] = []
      await runCampaign({ runs, seed: 10, ...(shard ? { shard } : {}), onProgress: (p) => { if (p.runSeed !== undefined) out.push(p.runSeed) } })
      return out
    }
    const one = await seeds({ index: 1, count: 2 })
    const two = await seeds({ index: 2, count: 2 })
    expect(one).toEqual([10, 12, 14])
    expect(two).toEqual([11, 13, 15])
    expect([...one, ...two].sort((a, b) => a - b)).toEqual(await seeds(undefined, 6))
  })

  it('reports coverage keys never exercised, and passes on the reference factory', async () => {
    const progress: CampaignProgress[] = []
    const report = await runCampaign({ runs: 12, onProgress: (p) => progress.push(p) })
    expect(report.passed).toBe(true)
    expect(report.seeds).toBe(12)
    // Seed 5 runs the interaction suite's first program, under each of its bounded schedules.
    expect(report.runs).toBeGreaterThan(12)
    expect(report.coverage!.total).toBe(ALL_COVERAGE_KEYS.length)
    expect(report.coverage!.exercised + report.coverage!.missing.length).toBe(ALL_COVERAGE_KEYS.length)
    expect(report.coverage!.missing.length).toBeGreaterThan(0)
    expect(progress.at(-1)).toMatchObject({ phase: 'running', runs: report.runs, seeds: 12, plannedSeeds: 12, failures: 0 })
    expect(formatCampaign(report)).toMatch(/^coverage: \d+\/\d+ program coverage keys exercised; never exercised: /m)
  })

  it('coverage is the union of the programs\' keys, though a thread ships a key only for the lowest seed it ran with it', async () => {
    // Unguided: every seed's program is drawForSeed's (a guided campaign runs corpus mutants past seed 33).
    const report = await runCampaign({ runs: 40, guidance: false })
    const union: Record<string, number> = {}
    for (let r = 0; r < 40; r++) for (const k of Object.keys(coverageOf(drawForSeed(r).program))) union[k] = 1
    expect(report.coverage!.missing).toEqual(missingCoverage(union))

    const ctx = campaignContext({ strategy: 'portfolio', seed: 0, arbitrary: {}, dfsSchedules: 8, shrink: false, baseline: false, differential: false, guidance: false, mixScenarios: true, interactions: 'mix' }, REFERENCE_ADAPTER, undefined)
    const program = drawForSeed(1).program
    const keys = Object.keys(coverageOf(program))
    expect(coverageToReport(ctx, 9, program)).toEqual(keys)
    expect(coverageToReport(ctx, 12, program)).toEqual([])
    // A lower seed run later on this thread (a lost worker's seed, run again) ships its keys again:
    // the ledger may stop before seed 9.
    expect(coverageToReport(ctx, 5, program)).toEqual(keys)
    expect(coverageToReport(ctx, 9, program)).toEqual([])
    // Once every key was reported below a seed, that seed reports nothing (its coverage is not computed).
    let r = 10
    while (ctx.coverage.allBelow === Number.POSITIVE_INFINITY && r < 3_000) coverageToReport(ctx, r, drawForSeed(r++).program)
    expect(ctx.coverage.allBelow).toBeLessThan(r)
    expect(coverageToReport(ctx, r, drawForSeed(r).program)).toEqual([])
    expect(coverageToReport(ctx, 4, program)).toEqual(keys)
  })

  it('explores a named scenario and lists the goals it never reached', async () => {
    const scenario = findScenario('same-id-two-creates')
    const report = await runCampaign({ scenario, runs: 2 })
    expect(report.mode).toBe('scenario')
    expect(report.runs).toBe(2)
    expect(Object.keys(report.goals!.reached)).toEqual(scenario.goals.map((g) => g.name))
    expect(report.goals!.missed.length).toBeGreaterThan(0)
    expect(formatCampaign(report)).toMatch(/^goals never reached: /m)
    const longer = await runCampaign({ scenario, runs: 30 })
    expect(longer.goals!.missed.length).toBeLessThan(report.goals!.missed.length)
  })

  it('dfs over a scenario stops when the tree is exhausted and refuses to be sharded', async () => {
    const tiny = defineScenario({
      name: 'tiny-two-creates', title: 'two creates of different ids', groups: ['AGENT-ATOMIC-TEST'],
      program: { v: 1, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }] }, { id: 'a2', ops: [{ op: 'create', session: 's2' }] }] },
      goals: [goal('a2-first', (t) => t.entries.find((e) => e.k === 'invoke')?.actor === 'a2')],
    })
    const report = await runCampaign({ scenario: tiny, strategy: 'dfs', runs: 1000 })
    expect(report.stoppedBy).toBe('exhausted')
    expect(report.runs).toBeGreaterThan(1)
    expect(report.runs).toBeLessThan(1000)
    expect(report.goals!.missed).toEqual([])
    // A failing schedule of the tree reruns by exploring the tree up to it.
    const withSetup = defineScenario({ ...tiny, program: { v: 1, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 1 } }] }] } })
    const failing = await runCampaign({ adapter: m01, adapterModule: 'm01.js', scenario: withSetup, strategy: 'dfs', shrink: false })
    expect(failing.failures[0]!.rerun).toBe('npx dsh-kit fuzz --adapter m01.js --scenario tiny-two-creates --strategy dfs --seed 0 --runs 1')
    await expect(runCampaign({ scenario: findScenario('same-id-two-creates'), strategy: 'dfs', shard: { index: 1, count: 2 } })).rejects.toThrow(CampaignError)
    // Recycling replaces worker threads: a campaign in this thread has none.
    await expect(runCampaign({ runs: 1, recycleAfter: 10 })).rejects.toThrow(/recycleAfter replaces worker threads: give workers too/)
    await expect(runCampaign({ runs: 1, workers: 1, recycleAfter: -1 })).rejects.toThrow(/recycleAfter must be an integer >= 0 \(0: never\), got -1/)
  })

  it('mixes named scenarios and swarm programs into random programs by seed block, and reports the mixed-in goals', async () => {
    const mix = scenarioMix()
    expect(mix.length).toBeGreaterThan(30)
    expect(mix.some((s) => s.expectDeadlock)).toBe(false)
    // Seeds 12..15 form block 3, the first scenario block: the first scenario of the mix, under four strategies.
    expect(drawForSeed(12).scenario).toBe(mix[0])
    expect(drawForSeed(8).program.name).toBe('swarm 8')
    expect(drawForSeed(4).program.name).toBe('random 4')
    expect(drawForSeed(28).scenario).toBe(mix[1])
    // No resume: no scenario that resumes or restarts.
    expect(scenarioMix({ operations: ['create', 'followup'] }).every((s) => !JSON.stringify(s.program).includes('"op":"resume"'))).toBe(true)
    const report = await runCampaign({ seed: 12, runs: 4 })
    const names = Object.keys(report.goals!.reached)
    expect(names).toContain(`${mix[0]!.name}: ${mix[0]!.goals[0]!.name}`)
    expect(names.length).toBe(mix.reduce((n, s) => n + s.goals.length, 0))
    expect(Object.entries(report.goals!.reached).filter(([, r]) => r !== undefined).every(([n]) => n.startsWith(`${mix[0]!.name}: `))).toBe(true)
    expect(Object.values(report.goals!.reached).some((r) => r !== undefined)).toBe(true)
    expect(formatCampaign(report)).toMatch(/^goals of the scenarios mixed in: \d+\/\d+ reached$/m)
  })

  it('guided: the first GUIDANCE_LAG + 1 seeds are the unguided campaign\'s, later seeds mostly run corpus mutants, and state coverage is reported with its growth', async () => {
    const first = GUIDANCE_LAG + 1
    // Guidance alone (the interaction suite's runs beside one seed in 16 cost many runs each).
    const guided = await runCampaign({ runs: first, seed: 40, interactions: 'off' })
    const unguided = await runCampaign({ runs: first, seed: 40, guidance: false, interactions: 'off' })
    expect(guided.guidance).toBe('on')
    expect(unguided.guidance).toBe('off')
    expect(guided.stateCoverage!.corpus!.mutatedSeeds).toBe(0)
    expect(guided.stateCoverage!.transitions).toBe(unguided.stateCoverage!.transitions)
    expect(guided.outcomes).toEqual(unguided.outcomes)
    expect(unguided.stateCoverage!.corpus).toBeUndefined()

    const longer = await runCampaign({ runs: 100, seed: 40, interactions: 'off' })
    const c = longer.stateCoverage!
    expect(c.corpus!.mutatedSeeds).toBeGreaterThan(30)
    expect(c.corpus!.entries).toBeGreaterThan(first / 2)
    expect(c.growth.map((g) => [g.share, g.runs])).toEqual([[0.1, 10], [0.5, 50], [1, 100]])
    expect(c.growth[0]!.transitions).toBeLessThanOrEqual(c.growth[1]!.transitions)
    expect(c.growth[1]!.transitions).toBeLessThan(c.growth[2]!.transitions)
    expect(c.growth[2]!.transitions).toBe(c.transitions)
    expect(formatCampaign(longer)).toMatch(/^state coverage: \d+ abstract transitions \(\d+ at 10%, \d+ at 50%, \d+ at 100% of the runs\); corpus \d+ programs, \d+ seeds ran a mutant of one$/m)
    // The table of transitions has room: the report says nothing of it, until it fills.
    expect(c.fullSince).toBeUndefined()
    expect(formatStateCoverage({ ...c, fullSince: 42 })).toMatch(/; the table of transitions filled at run 42 \(its bound on memory\): transitions first reached after it are not counted$/)
    const again = await runCampaign({ runs: 100, seed: 40, interactions: 'off' })
    expect(again.stateCoverage).toEqual(c)
  })

  it('guided: a failure found by a corpus mutant reruns with the campaign up to it, not from its seed alone', async () => {
    const module = 'conformance/mutants/m25-owner-unload-unregisters-early.ts'
    // Without the interaction mix: its seeds feed the corpus too, and this test follows one corpus's history.
    const report = await runCampaign({ adapter: m25, adapterModule: module, seed: 2, runs: 60, shrink: false, baseline: false, interactions: 'off' })
    const f = report.failures[0]!
    // Seed 36, past GUIDANCE_LAG + 1, runs a mutant of the corpus of the earlier seeds (seed 3's
    // program). (Until programs had to name only what they define, m15 at seed 2 was found this way;
    // its resolved random programs now find it first, at seed 51.)
    expect(f.runSeed).toBeGreaterThan(2 + GUIDANCE_LAG)
    expect(f.originalProgram.name).toBe(`guided ${f.runSeed} from 3`)
    const runs = f.runSeed - 2 + 1
    expect(f.rerun).toBe(`npx dsh-kit fuzz --adapter ${module} --strategy portfolio --seed 2 --runs ${runs} --no-interaction-mix`)
    const prefix = await runCampaign({ adapter: m25, seed: 2, runs, shrink: false, baseline: false, interactions: 'off' })
    expect(prefix.failures[0]?.hash).toBe(f.hash)
    const alone = await runCampaign({ adapter: m25, seed: f.runSeed, runs: 1, shrink: false, baseline: false, interactions: 'off' })
    expect(alone.failures[0]?.hash).not.toBe(f.hash)
  })

  it('without the scenario mix, no named scenario runs and no goal is reported', async () => {
    // Seeds 12..15 are the first scenario block: with the mix they run a named scenario (see above).
    const report = await runCampaign({ seed: 12, runs: 4, mixScenarios: false })
    expect(report.goals!.reached).toEqual({})
    expect(formatCampaign(report)).toMatch(/random programs \(full mix, swarm by seed block, guided by state coverage: mostly mutants of a corpus, and the interaction suite beside one seed in 16\)/)
  })

  it('stops when shouldStop says so (the CLI time budget), and refuses bad options', async () => {
    let calls = 0
    const report = await runCampaign({ shouldStop: () => ++calls > 4 })
    expect(report.runs).toBe(4)
    expect(report.stoppedBy).toBe('time')
    await expect(runCampaign({ shard: { index: 3, count: 2 } })).rejects.toThrow(/shard must be i\/n with 1 <= i <= n, got 3\/2/)
    await expect(runCampaign({ seed: -1 })).rejects.toThrow(/seed must be a non-negative integer/)
  })
})
