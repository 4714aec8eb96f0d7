/**
 * One run seed of a campaign, and the report of one failure: the units a campaign is made of (what
 * they share and return is in `context.ts`, re-exported here). Both are pure functions of the
 * campaign's settings and the seed (the same in this thread or a worker thread), so a campaign's
 * findings do not depend on how many workers ran it.
 * @module
 */
import { join } from 'node:path'
import { checkRun, NO_DECLINES } from '../../conformance/checkers/index.js'
import type { Declines, Violation } from '../../conformance/checkers/index.js'
import type { DecisionLog } from '../../sim/trace/decision-log.js'
import type { Program } from '../../sim/program/program.js'
import { runProgram } from '../../sim/run.js'
import type { RunResult } from '../../sim/run.js'
import { toRunFile, writeRunFile } from '../../sim/trace/run-file.js'
import { dfs, DfsNondeterminismError, guidedReplay, random, replay, ReplayDivergenceError } from '../../sim/strategies/index.js'
import { stringText } from '../../sim/trace/bounded-text.js'
import { lostFailure } from './lost-failure.js'
import type { Strategy } from '../../sim/strategies/index.js'
import { ALL_COVERAGE_KEYS, coverageOf } from '../arbitraries/index.js'
import type { CampaignFailure } from './types.js'
import type { Scenario } from '../catalog/scenario.js'
import { measureRun, shrinkRun } from './shrink.js'
import type { RunSize } from './shrink.js'
import { storeProgram } from '../guidance/guided-draw.js'
import type { DrawnProgram } from '../guidance/guided-draw.js'
import { stateTransitionKeys } from '../guidance/state-coverage.js'
import { TransitionTable } from '../guidance/transition-table.js'
import type { Trace } from '../../sim/trace/trace.js'
import { buildTimeline } from '../../sim/trace/timeline.js'
import { renderLanes } from '../../sim/trace/timeline-text.js'
import { inScope, interactionKey, interactionsOf } from '../../conformance/interaction/features.js'
import { interactionRun } from '../interaction/run.js'
import { goalName, interactionIndex } from './context.js'
import { strategyForSeed } from './seed-strategy.js'
import { drawForSeed } from './draw.js'
import { mutantProgram } from '../guidance/mutant.js'
import type { CampaignContext, FailureToReport, SeedResult, SeedRun } from './context.js'

export * from './context.js'








/** The violations of one run, as the campaign counts them (`declines` hears what was judged and declined). */
export function checkCampaignRun(ctx: CampaignContext, program: Program, result: RunResult, declines: Declines = NO_DECLINES): Violation[] {
  const all = checkRun(program, result.trace, result.outcome, declines)
  return ctx.scenario?.expectDeadlock ? all.filter((v) => !v.message.startsWith('deadlock')) : all
}

/** The baseline on a run's program and schedule (guided: its run may diverge from the adapter's). */
export async function onBaseline(ctx: CampaignContext, program: Program, decisions: DecisionLog): Promise<{ keys: Set<string>; followed: number; picks: number } | undefined> {
  if (!ctx.baseline) return undefined
  const strategy = guidedReplay(decisions)
  strategy.beginRun()
  const result = await runProgram(program, strategy, { process: ctx.baseline.processFactory })
  return { keys: new Set(checkCampaignRun(ctx, program, result).map((v) => v.key)), followed: strategy.steps.filter((x) => x.followed).length, picks: strategy.steps.length }
}



/**
 * The program of run seed `r` and the scenario it came from (if any): the one a guided campaign
 * drew for it (`drawn`), else a function of `r` alone.
 */
export function seedProgram(ctx: CampaignContext, r: number, drawn?: DrawnProgram): { program: Program; scenario?: Scenario; interaction?: number } {
  if (ctx.scenario) return { program: ctx.scenario.program, scenario: ctx.scenario }
  if (ctx.settings.interactions === 'only') return { program: interactionRun(r, ctx.settings.arbitrary).entry.program, interaction: r }
  if (drawn?.origin === 'mutant') return { program: mutantProgram(r, drawn, ctx.settings.arbitrary, ctx.loaded) }
  return drawForSeed(r, ctx.settings.arbitrary, ctx.mix)
}

/**
 * Run seed `r`: its program (`drawn` by a guided campaign, else its own) under its schedule(s), each
 * run checked. In a mixed campaign, an interaction seed then also runs its program of the interaction
 * suite under the mode's schedules: beside the seed's own program, not instead of it, so every seed
 * runs what it ran without the mix. Those runs count toward the interaction coverage, not toward the
 * state coverage and the corpus (which then evolve as without the mix).
 */
export async function runSeed(ctx: CampaignContext, r: number, drawn?: DrawnProgram): Promise<SeedResult> {
  const { program, scenario: drawnFrom } = seedProgram(ctx, r, drawn)
  const kind = ctx.settings.strategy
  const only = ctx.settings.interactions === 'only'
  const runs: SeedRun[] = []
  const traces: Trace[] = []
  const interactions = new Set<string>()
  // A random-program campaign's own programs are valid by construction (generated, mutated or a
  // catalog scenario, each validated by its own tests or at its making): not validated per run.
  const validated = ctx.scenario === undefined && !only
  const runAll = async (p: Program, strategies: Iterable<Strategy>, begun: boolean, guides: boolean, from: Scenario | undefined): Promise<void> => {
    for (const strategy of strategies) {
      if (!begun && !strategy.beginRun()) break
      const name = strategy.name
      let result: RunResult
      try {
        result = await runProgram(p, strategy, { process: ctx.adapter.processFactory, validated: validated && p === program })
      } catch (error) {
        // A factory keeping state across runs offers other choices on the same prefix: the bounded
        // DFS cannot go on with this program (its runs so far are kept; the strict replay of a
        // failing run is what reports the nondeterminism).
        if (error instanceof DfsNondeterminismError) break
        throw error
      }
      if (guides) traces.push(result.trace)
      for (const i of interactionsOf(result.trace)) if (inScope(i)) interactions.add(interactionKey(i))
      runs.push(await seedRun(ctx, p, result, name, from))
    }
  }
  if (only) await runAll(program, interactionRun(r, ctx.settings.arbitrary).schedules(), true, true, undefined)
  else {
    await runAll(program, kind === 'dfs' ? dfsSchedules(ctx.settings.dfsSchedules) : [strategyForSeed(kind, r)], kind === 'dfs', true, drawnFrom)
    const k = interactionIndex(ctx, r)
    if (k !== undefined) {
      const extra = interactionRun(k, ctx.settings.arbitrary)
      await runAll(extra.entry.program, extra.schedules(), true, false, undefined)
    }
  }
  const keys = stateTransitionKeys(traces)
  const fresh = interactionsToReport(ctx, r, interactions)
  return {
    r, coverage: ctx.scenario ? NONE : orNone(coverageToReport(ctx, r, program)), transitions: keys, runs,
    ...(fresh.length > 0 ? { interactions: fresh } : {}),
    ...(drawn?.origin === 'mutant' ? { fromCorpus: true as const } : {}),
    ...(ctx.settings.guidance && !ctx.scenario && newHere(ctx.seen, keys) ? { program: storeProgram(ctx.loaded.keep(r, program)) } : {}),
  }
}

/** Whether `keys` holds a transition `seen` did not; all of them are seen afterwards. */
function newHere(seen: TransitionTable, keys: ArrayLike<number>): boolean {
  let fresh = false
  for (let i = 0; i < keys.length; i++) if (seen.hit(keys[i]!) === 0) fresh = true
  return fresh
}

/**
 * The interactions run seed `r` reports: those its thread has not already reported for a lower
 * seed (the ledger unions them in seed order, so leaving those out changes no report; see
 * {@link coverageToReport}).
 */
export function interactionsToReport(ctx: CampaignContext, r: number, keys: Iterable<string>): string[] {
  const out: string[] = []
  for (const k of keys) {
    const at = ctx.interactions.get(k)
    if (at !== undefined && at < r) continue
    ctx.interactions.set(k, r)
    out.push(k)
  }
  return out
}

/**
 * The coverage keys run seed `r` reports: those of its program this thread has not already reported
 * for a lower seed. The ledger takes seeds in order and only unions their keys, so a key reported
 * for a lower seed is in every prefix of the seed order that contains `r`: leaving it out changes no
 * report, whatever thread ran which seed. Once every key has been reported below `r` (early in any
 * campaign), the program's coverage is not even computed. Cuts the per-seed cost of computing and
 * shipping coverage to almost nothing.
 */
export function coverageToReport(ctx: CampaignContext, r: number, program: Program): string[] {
  const coverage = ctx.coverage
  if (coverage.allBelow < r) return []
  const keys: string[] = []
  for (const k of Object.keys(coverageOf(program))) {
    const at = coverage.reported.get(k)
    if (at !== undefined && at < r) continue
    coverage.reported.set(k, r)
    keys.push(k)
  }
  if (keys.length > 0 && coverage.reported.size >= ALL_COVERAGE_KEYS.length) {
    coverage.allBelow = Math.max(...ALL_COVERAGE_KEYS.map((k) => coverage.reported.get(k) ?? Number.POSITIVE_INFINITY))
  }
  return keys
}

/** One run's record: goals, violations (differential mode filtered), and the failing run if any. */
export async function seedRun(ctx: CampaignContext, program: Program, result: RunResult, strategy: string, drawnFrom: Scenario | undefined): Promise<SeedRun> {
  const goals = (drawnFrom?.goals ?? []).filter((g) => g.reached(result.trace)).map((g) => goalName(ctx, drawnFrom!, g.name))
  let violations = checkCampaignRun(ctx, program, result, ctx.tally).map((v) => ({ key: v.key, message: v.message }))
  const declines = ctx.tally.takeRun()
  let shared: { key: string; message: string }[] = []
  if (violations.length > 0 && ctx.settings.differential && ctx.baseline) {
    const base = (await onBaseline(ctx, program, result.decisions))!
    shared = violations.filter((v) => base.keys.has(v.key))
    violations = violations.filter((v) => !base.keys.has(v.key))
  }
  return {
    strategy: violations.length > 0 ? strategy : '', outcome: result.outcome.kind, violations: orNone(violations), shared: orNone(shared), goals: orNone(goals), declines,
    ...(violations.length > 0 ? { failing: { program, decisions: result.decisions } } : {}),
  }
}

/**
 * The one empty list a thread's results use for every empty field: the results of a worker's batch
 * cross in one message, where one object referenced many times is cloned once, and most of a
 * result's lists are empty. Frozen, since every result shares it.
 */
const NONE: readonly never[] = Object.freeze([])

/** `xs`, or {@link NONE} when it is empty. */
function orNone<T>(xs: readonly T[]): readonly T[] {
  return xs.length === 0 ? NONE : xs
}

/** Schedule `j` of a DFS over the scenario's whole tree (`strategy` holds the DFS), or `'exhausted'`. */
export async function treeStep(ctx: CampaignContext, strategy: Strategy, j: number): Promise<SeedResult | 'exhausted'> {
  if (!strategy.beginRun()) return 'exhausted'
  const program = ctx.scenario!.program
  const name = strategy.name
  const result = await runProgram(program, strategy, { process: ctx.adapter.processFactory })
  const interactions = interactionsToReport(ctx, j, interactionsOf(result.trace).filter(inScope).map(interactionKey))
  return {
    r: j, coverage: [], transitions: stateTransitionKeys([result.trace]), runs: [await seedRun(ctx, program, result, name, ctx.scenario)],
    ...(interactions.length > 0 ? { interactions } : {}),
  }
}

/** A bounded DFS over one program's schedules, yielding the strategy once per begun run. */
function* dfsSchedules(max: number): Generator<Strategy> {
  const strategy = dfs({ preemptionBound: 2, maxRuns: max })
  while (strategy.beginRun()) yield strategy
}


function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

/**
 * Shrink, verify, save and describe one failure. It never throws: a failing run whose strict replay
 * diverges is reported as what it is, nondeterminism of the code under test (the clause, the seed,
 * the first decision that differs), and any other failure of the reporting keeps the finding with
 * the reason, so a finding is never lost and a campaign under `--keep-going` goes on.
 */
export async function reportFailure(ctx: CampaignContext, f: FailureToReport): Promise<CampaignFailure> {
  try {
    return await describeFailure(ctx, f)
  } catch (error) {
    const why = error instanceof ReplayDivergenceError
      ? `a strict replay of the failing run diverged at decision ${error.index} (the log has ${error.expected ?? 'no more decisions'}; the run did ${error.actual}): the code under test is nondeterministic (it keeps state across runs, or reads real time or randomness), so the failure cannot be replayed or shrunk`
      : `reporting it failed (${stringText(error)})`
    const failure = lostFailure(f.key, `${f.key} was violated by run seed ${f.r} (${f.strategy})${f.message === undefined ? '' : `: ${f.message}`}; but ${why}; rerun it`, f.program, f.r, f.run, f.strategy, f.rerun)
    return { ...failure, alsoViolated: f.keys.filter((k) => k !== f.key), decisions: f.decisions, timeline: '(no timeline: the failing run does not replay)' }
  }
}

async function describeFailure(ctx: CampaignContext, f: FailureToReport): Promise<CampaignFailure> {
  const install = ctx.adapter.installFactory
  const check = (program: Program, result: RunResult): Violation[] => checkCampaignRun(ctx, program, result)
  // The failing run again, strictly replayed (cheaper to ship a log between threads than a trace).
  const again = replay(f.decisions)
  again.beginRun()
  const original = await runProgram(f.program, again, { install })
  let shown = { program: f.program, result: original, violations: check(f.program, original) as readonly Violation[] }
  const first = shown.violations.find((v) => v.key === f.key) ?? { key: f.key, message: '(the violation did not recur on a strict replay: the factory is nondeterministic)' } as Violation
  let before: RunSize
  let after: RunSize
  let shrink: CampaignFailure['shrink']
  if (ctx.settings.shrink) {
    const shrunk = await shrinkRun({
      program: f.program, decisions: f.decisions, key: f.key, install, check,
      ...(ctx.settings.shrinkBudget === undefined ? {} : { budget: ctx.settings.shrinkBudget }),
    })
    before = shrunk.before
    after = shrunk.after
    shrink = { runs: shrunk.runs, reproduced: shrunk.reproduced }
    if (shrunk.reproduced) shown = { program: shrunk.program, result: shrunk.result, violations: shrunk.violations }
  } else {
    before = after = await measureRun(f.program, f.decisions, install)
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
  const kept = shown.violations.find((v) => v.key === f.key) ?? first
  let runFile: string | undefined
  const adapterArg = ctx.settings.adapterModule ? ` --adapter ${ctx.settings.adapterModule}` : ''
  if (ctx.settings.outDir !== undefined) {
    const name = `${slug(f.key)}-${ctx.scenario ? slug(ctx.scenario.name) : 'random'}-${f.r}.json`
    runFile = join(ctx.settings.outDir, slug(ctx.adapter.name), name)
    const saved = [...new Map(shown.violations.map((v) => [v.key, { clause: v.key, message: v.message }])).values()]
    writeRunFile(runFile, toRunFile(shown.program, shown.result, {
      ...(ctx.settings.adapterModule ? { adapter: ctx.settings.adapterModule } : {}), adapterName: `${ctx.adapter.name}@${ctx.adapter.version}`, violations: saved,
    }))
  }
  const timeline = renderLanes(buildTimeline(shown.program, shown.result.trace, shown.result.decisions.decisions, shown.violations))
  const base = await onBaseline(ctx, shown.program, shown.result.decisions)
  return {
    key: f.key, message: kept.message, runSeed: f.r, run: f.run, strategy: f.strategy, alsoViolated: f.keys.filter((k) => k !== f.key),
    program: shown.program, decisions: shown.result.decisions, violations: shown.violations, hash: shown.result.hash, outcome: shown.result.outcome.kind,
    before, after, ...(shrink ? { shrink } : {}), replayVerified, originalProgram: f.program,
    ...(runFile ? { runFile, replay: `npx dsh-kit replay ${runFile}${adapterArg}` } : {}), rerun: f.rerun, timeline,
    ...(base ? { baseline: { name: ctx.baseline!.name, violates: [...base.keys], followed: base.followed, picks: base.picks } } : {}),
  }
}


