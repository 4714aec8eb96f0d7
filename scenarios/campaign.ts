/**
 * The fuzz campaign (design.md concept 7): random programs, or one named scenario, under many
 * schedules, every run checked by every checker. A failing run is shrunk (`shrink.ts`), saved as
 * a run file and reported with its timeline, a replay command and a command that reruns it.
 *
 * Everything a run does is a function of its **run seed** `r`:
 * - the program (random-program mode) is a function of `r` alone ({@link programForSeed}): one
 *   drawn by fast-check's generator seeded by `r` (from every feature, or through a swarm
 *   configuration), or every fourth seed a named scenario, so run `r` does not depend on earlier runs;
 * - the schedule comes from a fresh strategy seeded with `r`: `random`, `pct` with depth
 *   `1 + r mod 3`, or `portfolio` (`r mod 4`: random, pct d=1, d=2, d=3);
 * - under `dfs`, each random program is explored by a bounded DFS (preemption bound 2, a few
 *   schedules), and a scenario by one DFS over its whole tree (which cannot be sharded).
 *
 * So `dsh-kit fuzz --seed r --runs 1` reruns run `r` exactly. Shard `i/n` (1-based, as vitest and
 * playwright number shards) runs the seeds `S+i-1, S+i-1+n, S+i-1+2n, …`, so `n` CI jobs split
 * one seed range with no overlap. The library never reads a clock: a time budget is the caller's
 * `shouldStop()` (the CLI's wall clock), checked between runs.
 * @module
 */
import { join } from 'node:path'
import fc from 'fast-check'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../conformance/adapter.js'
import type { Adapter, NormalizedAdapter } from '../conformance/adapter.js'
import { checkRun } from '../conformance/checkers/index.js'
import type { Violation } from '../conformance/checkers/index.js'
import type { DecisionLog } from '../sim/decision-log.js'
import type { RunOutcome } from '../sim/engine/index.js'
import type { Program } from '../sim/program.js'
import { OPERATION_KINDS } from '../sim/program.js'
import { runProgram } from '../sim/run.js'
import type { RunResult } from '../sim/run.js'
import { toRunFile, writeRunFile } from '../sim/run-file.js'
import { dfs, guidedReplay, pct, random, replay } from '../sim/strategies/index.js'
import type { Strategy } from '../sim/strategies/index.js'
import { ALL_COVERAGE_KEYS, coverageOf, mergeCoverage, missingCoverage, programArbitrary } from './arbitraries/index.js'
import type { ArbitraryOptions } from './arbitraries/index.js'
import { swarmOptionsArbitrary } from './arbitraries/swarm.js'
import { SCENARIOS } from './catalog.js'
import type { Scenario } from './scenario.js'
import { measureRun, shrinkRun } from './shrink.js'
import type { RunSize } from './shrink.js'
import { buildTimeline, renderLanes } from './timeline/index.js'

/** The schedule strategies a campaign can use. */
export const CAMPAIGN_STRATEGIES = ['random', 'pct', 'dfs', 'portfolio'] as const
export type CampaignStrategy = (typeof CAMPAIGN_STRATEGIES)[number]

/** Run seeds a random-program campaign uses when given neither `runs` nor `shouldStop`. */
export const DEFAULT_RUNS = 100

/**
 * Runs a scenario campaign uses when given neither `runs` nor `shouldStop`: enough for the
 * portfolio's schedules to reach every goal of every named scenario (the slowest need about 300).
 */
export const DEFAULT_SCENARIO_RUNS = 500

/** A shard of the seed range: `index` of `count`, 1-based. */
export interface Shard {
  readonly index: number
  readonly count: number
}

/** Options of {@link runCampaign}. */
export interface CampaignOptions {
  /** The factory under test; the reference factory by default. */
  readonly adapter?: Adapter
  /** The adapter's module path as the user named it: recorded in run files and commands. */
  readonly adapterModule?: string
  /** Explore this scenario instead of random programs (`dsh-kit run` passes a user's program as one, with no goals). */
  readonly scenario?: Scenario
  /**
   * How a rerun command starts, instead of `npx dsh-kit fuzz [--scenario NAME]`: `dsh-kit run`
   * passes `npx dsh-kit run <program file>`; `--adapter`, `--strategy` and the seeds follow.
   */
  readonly rerunAs?: string
  /** Default `portfolio`. */
  readonly strategy?: CampaignStrategy
  /** Base seed, a non-negative integer (default 0). */
  readonly seed?: number
  /**
   * Run seeds to use at most: default {@link DEFAULT_RUNS} for random programs and
   * {@link DEFAULT_SCENARIO_RUNS} for a scenario, unbounded when `shouldStop` is given.
   */
  readonly runs?: number
  /** Default 1/1. */
  readonly shard?: Shard
  /**
   * Checked before each run: `true` or `'time'` ends the campaign as out of time (the CLI's time
   * budget), `'interrupted'` as interrupted (a signal); the report says which.
   */
  readonly shouldStop?: () => boolean | 'time' | 'interrupted'
  /** Where failing runs are written as run files; nothing is written when absent. */
  readonly outDir?: string
  /** Keep going after the first failing run, shrinking the first run of each new clause (default false). */
  readonly keepGoing?: boolean
  /** Shrink failures before reporting them (default true). */
  readonly shrink?: boolean
  /** Runs a shrink may spend (default: the shrinker's). */
  readonly shrinkBudget?: number
  /** Schedules per random program under `dfs` (default 8). */
  readonly dfsSchedules?: number
  /** Options of the program generator (random-program mode). */
  readonly arbitrary?: ArbitraryOptions
  /**
   * The factory every violation is cross-checked against: the violating run is replayed on it
   * (guided, since its run may diverge) to see whether it shows the same clause too. Default the
   * reference factory; `false`, or an adapter that is the baseline itself, turns the check off.
   */
  readonly baseline?: Adapter | false
  /**
   * Violations the baseline shows too under the same schedule do not count against the adapter:
   * they are listed under `shared` (likely checker false positives or contract ambiguities), do
   * not stop the campaign and do not fail it. Default false: every violation counts.
   */
  readonly differential?: boolean
  readonly onProgress?: (progress: CampaignProgress) => void
}

/** Progress while a campaign runs. */
export interface CampaignProgress {
  readonly phase: 'running' | 'shrinking'
  /** Runs (program executions) so far. */
  readonly runs: number
  readonly violatingRuns: number
  /** Distinct violated clauses so far. */
  readonly failures: number
  /** Scenario goals not reached yet (scenario mode). */
  readonly unreachedGoals?: number
  /** The clause being shrunk. */
  readonly key?: string
  /** The run seed of the run just done. */
  readonly runSeed?: number
}

/** A violated clause, as first found and then shrunk. */
export interface CampaignFailure {
  readonly key: string
  /** The violation's message in the reported (shrunk) run. */
  readonly message: string
  /**
   * The run seed that found it (for a DFS over a scenario: the schedule's index in the tree), and
   * the campaign's run count then (0-based).
   */
  readonly runSeed: number
  readonly run: number
  /** The strategy of the run that found it. */
  readonly strategy: string
  /** Other clauses the same original run violated. */
  readonly alsoViolated: readonly string[]
  /** The reported run: the shrunk one (or the original when shrinking was off or did not reproduce). */
  readonly program: Program
  readonly decisions: DecisionLog
  readonly violations: readonly Violation[]
  readonly hash: string
  readonly outcome: RunOutcome['kind']
  readonly before: RunSize
  readonly after: RunSize
  readonly shrink?: { readonly runs: number; readonly reproduced: boolean }
  /** A strict replay of the saved log reproduced the same trace hash. */
  readonly replayVerified: boolean
  readonly originalProgram: Program
  readonly runFile?: string
  readonly replay?: string
  /** The dsh-kit command that reruns the original run from its seed. */
  readonly rerun: string
  /** The reported run's swim-lane timeline, as text. */
  readonly timeline: string
  /**
   * The baseline (reference) factory on the reported run, replayed guided: the clauses it
   * violates too (so `key` among them means the checker flags the reference as well), and how
   * many of the run's picks it could follow.
   */
  readonly baseline?: { readonly name: string; readonly violates: readonly string[]; readonly followed: number; readonly picks: number }
}

/** A clause the baseline violates as well under the same schedules (differential mode). */
export interface SharedViolation {
  readonly key: string
  readonly message: string
  /** Runs where both the adapter and the baseline violated it. */
  readonly runs: number
  readonly firstRunSeed: number
}

/** What a campaign found. */
export interface CampaignReport {
  readonly mode: 'programs' | 'scenario'
  readonly scenario?: string
  readonly adapter: string
  readonly strategy: CampaignStrategy
  readonly seed: number
  readonly shard: Shard
  /** Program executions. */
  readonly runs: number
  /** Run seeds used (random programs drawn, or scenario runs). */
  readonly seeds: number
  readonly stoppedBy: 'runs' | 'time' | 'failure' | 'exhausted' | 'interrupted'
  readonly outcomes: Record<RunOutcome['kind'], number>
  readonly violatingRuns: number
  /** Violating runs per clause. */
  readonly violationCounts: Record<string, number>
  readonly failures: readonly CampaignFailure[]
  /** Differential mode: violations the baseline shows too, not counted against the adapter. */
  readonly shared: readonly SharedViolation[]
  /**
   * Each goal's first run (0-based), and the goals never reached: the scenario's, or in random-program
   * mode those of every scenario mixed in, named `<scenario>: <goal>`.
   */
  readonly goals?: { readonly reached: Record<string, number | undefined>; readonly missed: readonly string[] }
  /** Random-program mode: coverage keys the drawn programs exercised, and the ones never exercised. */
  readonly coverage?: { readonly exercised: number; readonly total: number; readonly missing: readonly string[] }
  readonly passed: boolean
}

/** A campaign option was out of range; the message names it. */
export class CampaignError extends Error {
  override readonly name = 'CampaignError'
}

/** The schedule strategy of run seed `r` (one run), for random, pct and portfolio. */
export function strategyForSeed(kind: Exclude<CampaignStrategy, 'dfs'>, r: number): Strategy {
  switch (kind) {
    case 'random': return random({ seed: r })
    case 'pct': return pct({ seed: r, depth: 1 + (r % 3) })
    case 'portfolio': return r % 4 === 0 ? random({ seed: r }) : pct({ seed: r, depth: r % 4 })
  }
}

/**
 * The named scenarios a random-program campaign mixes in: those whose operations `options`
 * allows and that do not expect a deadlock of their own.
 */
export function scenarioMix(options: ArbitraryOptions = {}): readonly Scenario[] {
  const allowed = new Set<string>(options.operations ?? OPERATION_KINDS)
  const banned = OPERATION_KINDS.filter((k) => !allowed.has(k))
  return SCENARIOS.filter((s) => !s.expectDeadlock && !banned.some((k) => uses(s.program, k)))
}

/**
 * The program of run seed `r` in random-program mode, a function of `r` alone. Seeds come in
 * blocks of four (`⌊r/4⌋`), so the four schedule strategies of a portfolio (`r mod 4`) each meet
 * every kind of program; block `b` draws, by `b mod 4`:
 * - 0, 1: a program drawn from every feature at once;
 * - 2: a swarm configuration first (a few operation kinds on one or two sessions), then a program
 *   from it, so features that crowd each other out in the full mix still meet;
 * - 3: a named scenario (the `⌊b/4⌋`-th of {@link scenarioMix}, cyclically), a hand-built race
 *   random programs reach only rarely.
 */
export function programForSeed(r: number, options: ArbitraryOptions = {}, mix: readonly Scenario[] = scenarioMix(options)): Program {
  return drawForSeed(r, options, mix).program
}

/** {@link programForSeed}, and the named scenario it came from (if it did). */
export function drawForSeed(r: number, options: ArbitraryOptions = {}, mix: readonly Scenario[] = scenarioMix(options)): { program: Program; scenario?: Scenario } {
  const block = Math.floor(r / 4)
  if (block % 4 === 3 && mix.length > 0) {
    const scenario = mix[Math.floor(block / 4) % mix.length]!
    return { program: { ...scenario.program, name: `scenario ${scenario.name} ${r}` }, scenario }
  }
  const swarm = block % 4 === 2
  const arbitrary = swarm ? swarmOptionsArbitrary(options).chain((o) => programArbitrary(o)) : programArbitrary(options)
  const [program] = fc.sample(arbitrary, { seed: r, numRuns: 1 })
  return { program: { ...program!, name: `${swarm ? 'swarm' : 'random'} ${r}` } }
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

function uses(program: Program, op: string): boolean {
  return JSON.stringify(program).includes(`"op":"${op}"`)
}

/** Run a campaign; returns what it found (it throws only for bad options). */
export async function runCampaign(options: CampaignOptions = {}): Promise<CampaignReport> {
  const adapter: NormalizedAdapter = normalizeAdapter(options.adapter ?? REFERENCE_ADAPTER, options.adapterModule ?? 'adapter')
  const kind = options.strategy ?? 'portfolio'
  if (!(CAMPAIGN_STRATEGIES as readonly string[]).includes(kind)) throw new CampaignError(`strategy must be one of ${CAMPAIGN_STRATEGIES.join(', ')}, got ${JSON.stringify(kind)}`)
  const seed = options.seed ?? 0
  if (!Number.isSafeInteger(seed) || seed < 0) throw new CampaignError(`seed must be a non-negative integer, got ${seed}`)
  const shard = options.shard ?? { index: 1, count: 1 }
  if (!Number.isSafeInteger(shard.count) || shard.count < 1 || !Number.isSafeInteger(shard.index) || shard.index < 1 || shard.index > shard.count) {
    throw new CampaignError(`shard must be i/n with 1 <= i <= n, got ${shard.index}/${shard.count}`)
  }
  const maxSeeds = options.runs ?? (options.shouldStop ? Number.POSITIVE_INFINITY : options.scenario ? DEFAULT_SCENARIO_RUNS : DEFAULT_RUNS)
  if (!(maxSeeds >= 1)) throw new CampaignError(`runs must be an integer >= 1, got ${maxSeeds}`)
  const scenario = options.scenario
  if (scenario && kind === 'dfs' && shard.count > 1) throw new CampaignError('a dfs over a scenario explores one tree in order and cannot be sharded; shard random, pct or portfolio instead')
  if (scenario && !adapter.supports.resume && (uses(scenario.program, 'resume') || uses(scenario.program, 'restart'))) {
    throw new CampaignError(`scenario "${scenario.name}" resumes sessions, and adapter ${adapter.name} does not support resume`)
  }
  const arbitrary: ArbitraryOptions = {
    ...(adapter.supports.resume ? {} : { operations: OPERATION_KINDS.filter((k) => k !== 'resume' && k !== 'restart') }),
    ...options.arbitrary,
  }
  const mix = scenarioMix(arbitrary)
  const install = adapter.installFactory
  const baselineAdapter = options.baseline === false || (options.adapter ?? REFERENCE_ADAPTER) === (options.baseline ?? REFERENCE_ADAPTER)
    ? undefined
    : normalizeAdapter(options.baseline ?? REFERENCE_ADAPTER, 'baseline')
  /** The baseline on a run's program and schedule (guided: its run may diverge from the adapter's). */
  const onBaseline = async (program: Program, decisions: DecisionLog): Promise<{ keys: Set<string>; followed: number; picks: number } | undefined> => {
    if (!baselineAdapter) return undefined
    const strategy = guidedReplay(decisions)
    strategy.beginRun()
    const result = await runProgram(program, strategy, { install: baselineAdapter.installFactory })
    return { keys: new Set(check(program, result).map((v) => v.key)), followed: strategy.steps.filter((x) => x.followed).length, picks: strategy.steps.length }
  }
  const check = (program: Program, result: RunResult): Violation[] => {
    const all = checkRun(program, result.trace, result.outcome)
    return scenario?.expectDeadlock ? all.filter((v) => !v.message.startsWith('deadlock')) : all
  }

  const outcomes: Record<RunOutcome['kind'], number> = { ok: 0, deadlock: 0, livelock: 0, uncontrolled: 0, crash: 0 }
  const violationCounts: Record<string, number> = {}
  const failures: CampaignFailure[] = []
  const shared = new Map<string, SharedViolation>()
  // Goals by name: the scenario's own, or (random programs) `<scenario>: <goal>` of every scenario mixed in.
  const goalName = (of: Scenario, goal: string): string => (scenario ? goal : `${of.name}: ${goal}`)
  const reached: Record<string, number | undefined> = Object.fromEntries((scenario ? [scenario] : mix).flatMap((sc) => sc.goals.map((g) => [goalName(sc, g.name), undefined])))
  const coverage: Record<string, number> = {}
  let runs = 0
  let seeds = 0
  let violatingRuns = 0
  let stoppedBy: CampaignReport['stoppedBy'] = 'runs'
  const progress = (phase: CampaignProgress['phase'], key?: string, runSeed?: number): void => options.onProgress?.({
    phase, runs, violatingRuns, failures: failures.length,
    ...(scenario ? { unreachedGoals: Object.values(reached).filter((r) => r === undefined).length } : {}),
    ...(key ? { key } : {}),
    ...(runSeed === undefined ? {} : { runSeed }),
  })

  // A DFS over a scenario reaches schedule r again by exploring the same tree up to it.
  const dfsTree = scenario !== undefined && kind === 'dfs'
  const rerunCommand = (r: number): string => [
    options.rerunAs ?? 'npx dsh-kit fuzz', ...(options.adapterModule ? [`--adapter ${options.adapterModule}`] : []),
    ...(scenario && options.rerunAs === undefined ? [`--scenario ${scenario.name}`] : []), `--strategy ${kind}`,
    ...(dfsTree ? [`--seed ${seed}`, `--runs ${r + 1}`] : [`--seed ${r}`, '--runs 1']),
    ...(options.differential ? ['--differential'] : []),
  ].join(' ')

  /** Check one run; on a new clause, shrink and save it. Returns true when the campaign must stop. */
  const afterRun = async (program: Program, result: RunResult, strategyName: string, r: number, drawnFrom: Scenario | undefined): Promise<boolean> => {
    runs++
    outcomes[result.outcome.kind]++
    for (const g of drawnFrom?.goals ?? []) {
      const name = goalName(drawnFrom!, g.name)
      if (reached[name] === undefined && g.reached(result.trace)) reached[name] = runs - 1
    }
    let violations = check(program, result)
    if (violations.length === 0) return false
    if (options.differential && baselineAdapter) {
      const base = (await onBaseline(program, result.decisions))!
      for (const v of violations) {
        if (!base.keys.has(v.key)) continue
        const before = shared.get(v.key)
        shared.set(v.key, before ? { ...before, runs: before.runs + 1 } : { key: v.key, message: v.message, runs: 1, firstRunSeed: r })
      }
      violations = violations.filter((v) => !base.keys.has(v.key))
      if (violations.length === 0) return false
    }
    violatingRuns++
    const keys = [...new Set(violations.map((v) => v.key))]
    for (const k of keys) violationCounts[k] = (violationCounts[k] ?? 0) + 1
    const fresh = violations.find((v) => !failures.some((f) => f.key === v.key))
    if (fresh) failures.push(await report(program, result, fresh, keys, strategyName, r))
    return !options.keepGoing
  }

  const report = async (program: Program, result: RunResult, first: Violation, keys: string[], strategyName: string, r: number): Promise<CampaignFailure> => {
    progress('shrinking', first.key)
    let shown = { program, result, violations: check(program, result) as readonly Violation[] }
    let before: RunSize
    let after: RunSize
    let shrink: CampaignFailure['shrink']
    if (options.shrink ?? true) {
      const shrunk = await shrinkRun({
        program, decisions: result.decisions, key: first.key, install, check,
        ...(options.shrinkBudget === undefined ? {} : { budget: options.shrinkBudget }),
      })
      before = shrunk.before
      after = shrunk.after
      shrink = { runs: shrunk.runs, reproduced: shrunk.reproduced }
      if (shrunk.reproduced) shown = { program: shrunk.program, result: shrunk.result, violations: shrunk.violations }
    } else {
      before = after = await measureRun(program, result.decisions, install)
    }
    // The saved log must replay strictly to the same trace: check it once.
    const strict = replay(shown.result.decisions)
    strict.beginRun()
    let replayVerified = false
    try {
      replayVerified = (await runProgram(shown.program, strict, { install })).hash === shown.result.hash
    } catch {
      replayVerified = false
    }
    const kept = shown.violations.find((v) => v.key === first.key) ?? first
    let runFile: string | undefined
    if (options.outDir !== undefined) {
      const name = `${slug(first.key)}-${scenario ? slug(scenario.name) : 'random'}-${r}.json`
      runFile = join(options.outDir, slug(adapter.name), name)
      const saved = [...new Map(shown.violations.map((v) => [v.key, { clause: v.key, message: v.message }])).values()]
      writeRunFile(runFile, toRunFile(shown.program, shown.result, { ...(options.adapterModule ? { adapter: options.adapterModule } : {}), violations: saved }))
    }
    const timeline = renderLanes(buildTimeline(shown.program, shown.result.trace, shown.result.decisions.decisions, shown.violations))
    const base = await onBaseline(shown.program, shown.result.decisions)
    return {
      key: first.key, message: kept.message, runSeed: r, run: runs - 1, strategy: strategyName, alsoViolated: keys.filter((k) => k !== first.key),
      program: shown.program, decisions: shown.result.decisions, violations: shown.violations, hash: shown.result.hash, outcome: shown.result.outcome.kind,
      before, after, ...(shrink ? { shrink } : {}), replayVerified, originalProgram: program,
      ...(runFile ? { runFile, replay: `npx dsh-kit replay ${runFile}${options.adapterModule ? ` --adapter ${options.adapterModule}` : ''}` } : {}), rerun: rerunCommand(r), timeline,
      ...(base ? { baseline: { name: baselineAdapter!.name, violates: [...base.keys], followed: base.followed, picks: base.picks } } : {}),
    }
  }

  const seedAt = (j: number): number => seed + (shard.index - 1) + j * shard.count
  const stop = (): boolean => {
    const stopped = options.shouldStop?.()
    if (stopped) {
      stoppedBy = stopped === 'interrupted' ? 'interrupted' : 'time'
      return true
    }
    return false
  }

  if (scenario && kind === 'dfs') {
    const strategy = dfs({ preemptionBound: 2 })
    for (let j = 0; j < maxSeeds; j++) {
      if (stop()) break
      if (!strategy.beginRun()) {
        stoppedBy = 'exhausted'
        break
      }
      seeds++
      const name = strategy.name
      const result = await runProgram(scenario.program, strategy, { install })
      if (await afterRun(scenario.program, result, name, j, scenario)) {
        stoppedBy = 'failure'
        break
      }
      progress('running')
    }
  } else {
    outer: for (let j = 0; j < maxSeeds; j++) {
      if (stop()) break
      const r = seedAt(j)
      seeds++
      const drawn = scenario ? { program: scenario.program, scenario } : drawForSeed(r, arbitrary, mix)
      const { program } = drawn
      const drawnFrom = drawn.scenario
      if (!scenario) mergeCoverage(coverage, coverageOf(program))
      const strategies: Iterable<Strategy> = kind === 'dfs' ? dfsSchedules(options.dfsSchedules ?? 8) : [strategyForSeed(kind, r)]
      for (const strategy of strategies) {
        if (kind !== 'dfs' && !strategy.beginRun()) break
        const name = strategy.name
        const result = await runProgram(program, strategy, { install })
        if (await afterRun(program, result, name, r, drawnFrom)) {
          stoppedBy = 'failure'
          break outer
        }
        progress('running', undefined, r)
      }
    }
  }
  progress('running')

  const missed = Object.entries(reached).filter(([, r]) => r === undefined).map(([g]) => g)
  const missing = missingCoverage(coverage)
  return {
    mode: scenario ? 'scenario' : 'programs',
    ...(scenario ? { scenario: scenario.name } : {}),
    adapter: adapter.name, strategy: kind, seed, shard, runs, seeds, stoppedBy, outcomes, violatingRuns, violationCounts, failures, shared: [...shared.values()],
    goals: { reached, missed },
    ...(scenario ? {} : { coverage: { exercised: ALL_COVERAGE_KEYS.length - missing.length, total: ALL_COVERAGE_KEYS.length, missing } }),
    passed: violatingRuns === 0,
  }
}

/** A bounded DFS over one program's schedules, yielding the strategy once per begun run. */
function* dfsSchedules(max: number): Generator<Strategy> {
  const strategy = dfs({ preemptionBound: 2, maxRuns: max })
  while (strategy.beginRun()) yield strategy
}
