/**
 * The fuzz campaign (design.md concept 7): random programs, or one named scenario, under many
 * schedules, every run checked by every checker. A failing run is shrunk (`shrink.ts`), saved as
 * a run file and reported with its timeline, a replay command and a command that reruns it.
 *
 * Everything a run does is a function of its **run seed** `r`, and in a guided campaign of the
 * seeds before it:
 * - the program (random-program mode), unguided, is a function of `r` alone ({@link programForSeed}):
 *   one drawn by fast-check's generator seeded by `r` (from every feature, or through a swarm
 *   configuration), or every fourth seed a named scenario, so run `r` does not depend on earlier runs.
 *   Guided (the default, `guidance/`), most seeds instead run a mutant of a program of the corpus
 *   (programs that reached abstract transitions no earlier run had reached), drawn in this thread
 *   from the corpus as it stood `GUIDANCE_LAG` seeds earlier (`guidance/guided-draw.ts`) and made
 *   by the thread that runs the seed;
 * - the schedule comes from a fresh strategy seeded with `r`: `random`, `pct` with depth
 *   `1 + r mod 3`, or `portfolio` (`r mod 4`: random, pct d=1, d=2, d=3);
 * - under `dfs`, each random program is explored by a bounded DFS (preemption bound 2, a few
 *   schedules), and a scenario by one DFS over its whole tree (which cannot be sharded).
 *
 * Run seeds run in this thread or in watched worker threads (`workers`); their results are taken in
 * seed order by the ledger (`campaign-ledger.ts`), so the findings, the counts and the report of a
 * `runs` budget are the same whatever the number of workers.
 *
 * So `dsh-kit fuzz --seed r --runs 1` reruns run `r` exactly, unless its program was a corpus mutant:
 * then `--seed S --runs j+1` (the campaign up to it) does. Shard `i/n` (1-based, as vitest and
 * playwright number shards) runs the seeds `S+i-1, S+i-1+n, S+i-1+2n, …`, so `n` CI jobs split
 * one seed range with no overlap. The library never reads a clock: a time budget is the caller's
 * `shouldStop()` (the CLI's wall clock), checked between runs.
 * @module
 */

import { normalizeAdapter, REFERENCE_ADAPTER } from '../../conformance/adapters/adapter.js'
import type { NormalizedAdapter } from '../../conformance/adapters/adapter.js'
import { compiledModuleUrl, WorkerPool } from '../../sim/pool/worker-pool.js'
import type { ArbitraryOptions } from '../arbitraries/index.js'
import { containsOperation } from '../../sim/program/contains-operation.js'
import { SCENARIOS } from '../catalog/catalog.js'
import { CampaignLedger, lostFailure } from './ledger.js'
import { stringText } from '../../sim/trace/bounded-text.js'
import { campaignContext, interactionIndex, operationsFor } from './context.js'
import type { CampaignContext, CampaignSettings, FailureToReport, SeedResult } from './context.js'
import { CAMPAIGN_STRATEGIES, DEFAULT_GUIDANCE, DEFAULT_RUNS, DEFAULT_SCENARIO_RUNS } from './types.js'
import type { CampaignCheckpoint, CampaignFailure, CampaignOptions, CampaignProgress, CampaignReport, CampaignStrategy } from './types.js'
import type { CampaignUnit, CampaignWorkerInit } from './worker.js'
import { GuidedDraw } from '../guidance/guided-draw.js'
import { campaignWindow, resultBatch, workerShare } from './window.js'
import type { DrawnProgram } from '../guidance/guided-draw.js'
import { ProgramShipping } from '../guidance/program-shipping.js'
import { INTERACTION_PASSES, suiteFor } from '../interaction/seeds.js'

export * from './types.js'
// drawForSeed and programForSeed (draw.ts) are not re-exported here: they load the generators
// (fast-check), which the thread feeding a campaign's workers does not need. scenarios/index.ts has them.
export { scenarioMix } from './scenario-seeds.js'
export { campaignWindow, SEEDS_PER_WORKER } from './window.js'

/** A campaign option was out of range; the message names it. */
export class CampaignError extends Error {
  override readonly name = 'CampaignError'
}

/** Default wall-clock budget of one run seed (or one failure's shrink) in a worker. */
export const DEFAULT_SEED_TIMEOUT_MS = 30_000

/** An interaction seed's budget, in seed budgets (it runs its program under up to 128 schedules). */
const INTERACTION_SEED_TIMEOUTS = 4

/** Run a campaign; returns what it found (it throws only for bad options). */
export async function runCampaign(options: CampaignOptions = {}): Promise<CampaignReport> {
  const adapterInput = options.adapter ?? REFERENCE_ADAPTER
  const adapter: NormalizedAdapter = normalizeAdapter(adapterInput, options.adapterModule ?? 'adapter')
  const kind = options.strategy ?? 'portfolio'
  if (!(CAMPAIGN_STRATEGIES as readonly string[]).includes(kind)) throw new CampaignError(`strategy must be one of ${CAMPAIGN_STRATEGIES.join(', ')}, got ${JSON.stringify(kind)}`)
  const seed = options.seed ?? 0
  if (!Number.isSafeInteger(seed) || seed < 0) throw new CampaignError(`seed must be a non-negative integer, got ${seed}`)
  const shard = options.shard ?? { index: 1, count: 1 }
  if (!Number.isSafeInteger(shard.count) || shard.count < 1 || !Number.isSafeInteger(shard.index) || shard.index < 1 || shard.index > shard.count) {
    throw new CampaignError(`shard must be i/n with 1 <= i <= n, got ${shard.index}/${shard.count}`)
  }
  const interactions = options.interactions ?? 'mix'
  if (!['mix', 'only', 'off'].includes(interactions)) throw new CampaignError(`interactions must be mix, only or off, got ${JSON.stringify(interactions)}`)
  if (interactions === 'only' && options.scenario) throw new CampaignError('an interaction campaign runs the interaction suite, not a scenario')
  const arbitraryFor: ArbitraryOptions = { ...operationsFor(adapter), ...options.arbitrary }
  // An interaction campaign runs its stream's bounded passes, unless told to run more or fewer seeds.
  const streamEnd = interactions === 'only' ? suiteFor(arbitraryFor).entries.length * INTERACTION_PASSES : undefined
  const maxSeeds = options.runs ?? (streamEnd !== undefined ? Math.max(1, streamEnd - (options.seed ?? 0))
    : options.shouldStop ? Number.POSITIVE_INFINITY : options.scenario ? DEFAULT_SCENARIO_RUNS : DEFAULT_RUNS)
  if (!(maxSeeds >= 1) || (Number.isFinite(maxSeeds) && !Number.isSafeInteger(maxSeeds))) throw new CampaignError(`runs must be an integer >= 1, got ${maxSeeds}`)
  const workers = options.workers
  if (workers !== undefined && (!Number.isSafeInteger(workers) || workers < 1)) throw new CampaignError(`workers must be an integer >= 1, got ${workers}`)
  if (options.recycleAfter !== undefined && (!Number.isSafeInteger(options.recycleAfter) || options.recycleAfter < 0)) throw new CampaignError(`recycleAfter must be an integer >= 0 (0: never), got ${options.recycleAfter}`)
  if (options.recycleAfter !== undefined && options.recycleAfter > 0 && workers === undefined) throw new CampaignError('recycleAfter replaces worker threads: give workers too (a campaign without them runs in this thread)')
  // The adapter's own hint applies unless the caller says otherwise (0: never).
  const recycleAfter = (options.recycleAfter ?? adapter.recycleAfter) || undefined
  const scenario = options.scenario
  if (scenario && kind === 'dfs' && shard.count > 1) throw new CampaignError('a dfs over a scenario explores one tree in order and cannot be sharded; shard random, pct or portfolio instead')
  if (scenario && !adapter.supports.resume && (containsOperation(scenario.program, 'resume') || containsOperation(scenario.program, 'restart'))) {
    throw new CampaignError(`scenario "${scenario.name}" resumes sessions, and adapter ${adapter.name} does not support resume`)
  }
  if (workers !== undefined && options.adapterModule === undefined && adapterInput !== REFERENCE_ADAPTER) {
    throw new CampaignError('workers need adapterModule: the module path each worker thread imports the adapter from')
  }
  const arbitrary: ArbitraryOptions = arbitraryFor
  const baselineInput = options.baseline === false ? undefined : options.baseline ?? REFERENCE_ADAPTER
  // A scenario that is not the catalog's crosses into workers as its program; only goal-less ones can.
  const foreignScenario = scenario !== undefined && !SCENARIOS.includes(scenario)
  const settings: CampaignSettings = {
    ...(options.adapterModule ? { adapterModule: options.adapterModule } : {}),
    ...(scenario ? { scenario: scenario.name } : {}),
    ...(foreignScenario ? { scenarioProgram: { program: scenario.program, ...(scenario.expectDeadlock ? { expectDeadlock: true } : {}) } } : {}),
    strategy: kind, seed, arbitrary, dfsSchedules: options.dfsSchedules ?? 8, shrink: options.shrink ?? true,
    ...(options.shrinkBudget === undefined ? {} : { shrinkBudget: options.shrinkBudget }),
    baseline: baselineInput !== undefined && baselineInput !== adapterInput, differential: options.differential === true,
    ...(options.outDir === undefined ? {} : { outDir: options.outDir }),
    guidance: scenario === undefined && interactions !== 'only' && (options.guidance ?? DEFAULT_GUIDANCE), mixScenarios: options.mixScenarios ?? true,
    interactions: scenario ? 'off' : interactions,
  }
  if (workers !== undefined && foreignScenario && scenario.goals.length > 0) {
    throw new CampaignError(`workers run the catalog's named scenarios and goal-less programs; "${scenario.name}" has goals of its own (run it without workers)`)
  }
  const ctx = campaignContext(settings, adapterInput, baselineInput, scenario)

  // A DFS over a scenario reaches schedule r again by exploring the same tree up to it.
  const dfsTree = scenario !== undefined && kind === 'dfs'
  // A corpus mutant reruns only with the seeds before it: the campaign up to it (its shard's).
  const rerun = (r: number, j: number, fromCorpus: boolean): string => [
    options.rerunAs ?? 'npx dsh-kit fuzz', ...(options.adapterModule ? [`--adapter ${options.adapterModule}`] : []),
    ...(scenario && options.rerunAs === undefined ? [`--scenario ${scenario.name}`] : []), `--strategy ${kind}`,
    ...(dfsTree ? [`--seed ${seed}`, `--runs ${r + 1}`]
      : fromCorpus ? [`--seed ${seed}`, ...(shard.count > 1 ? [`--shard ${shard.index}/${shard.count}`] : []), `--runs ${j + 1}`]
        : [`--seed ${r}`, '--runs 1']),
    ...(settings.guidance === DEFAULT_GUIDANCE || scenario || interactions === 'only' ? [] : [`--guidance ${settings.guidance ? 'on' : 'off'}`]),
    ...(settings.mixScenarios || scenario || interactions === 'only' ? [] : ['--no-scenario-mix']),
    ...(interactions === 'only' ? ['--interaction'] : interactions === 'off' && !scenario ? ['--no-interaction-mix'] : []),
    ...(options.differential ? ['--differential'] : []),
  ].join(' ')
  const ledger = new CampaignLedger(ctx, options.keepGoing === true, rerun, options.known)
  let stoppedBy: CampaignReport['stoppedBy'] = 'runs'
  const stop = (): boolean => {
    const stopped = options.shouldStop?.()
    if (stopped) {
      stoppedBy = stopped === 'interrupted' ? 'interrupted' : 'time'
      return true
    }
    return false
  }
  // Called once per seed taken: the optional fields are set one by one, not spread in (spreading
  // makes objects for nothing in the thread that feeds the workers).
  const progress = (phase: 'running' | 'shrinking', key?: string, runSeed?: number): void => {
    if (options.onProgress === undefined) return
    const p: { -readonly [K in keyof CampaignProgress]: CampaignProgress[K] } = { phase, runs: ledger.runs, violatingRuns: ledger.violatingRuns, failures: ledger.failures.length, seeds: ledger.seeds }
    if (Number.isFinite(maxSeeds)) p.plannedSeeds = maxSeeds
    if (scenario) p.unreachedGoals = ledger.unreachedGoals
    if (key) p.key = key
    if (runSeed !== undefined) p.runSeed = runSeed
    options.onProgress(p)
  }
  const seedAt = (j: number): number => seed + (shard.index - 1) + j * shard.count
  const guided = settings.guidance ? new GuidedDraw(ledger.corpus, ctx.mix, seedAt, maxSeeds) : undefined
  const saving = checkpointing(options, settings, shard, ledger)
  const first = saving?.first ?? 0
  for (const { slot, failure } of saving?.unreported ?? []) {
    progress('shrinking', failure.key)
    ledger.fill(slot, await (await inThisThread()).reportFailure(ctx, failure))
    saving!.filled(slot)
  }

  if (saving?.stopped) {
    stoppedBy = 'failure'
  } else if (dfsTree) {
    stoppedBy = await exploreTree(ctx, ledger, maxSeeds, stop, progress, workers !== undefined) ?? stoppedBy
  } else if (workers === undefined) {
    const { runSeed, reportFailure } = await inThisThread()
    for (let j = first; j < maxSeeds; j++) {
      if (stop()) break
      const r = seedAt(j)
      const drawn = guided?.programFor(j)
      const result = await runSeed(ctx, r, drawn)
      const taken = ledger.add(result)
      saving?.taken(result)
      guided?.taken(j)
      const { reports, stop: mustStop } = taken
      for (const { slot, failure } of reports) {
        progress('shrinking', failure.key)
        ledger.fill(slot, await reportFailure(ctx, failure))
        saving?.filled(slot)
      }
      progress('running', undefined, r)
      if (mustStop) {
        stoppedBy = 'failure'
        break
      }
    }
  } else {
    stoppedBy = await runInWorkers(ctx, ledger, {
      workers, first, maxSeeds, seedAt, stop, progress, ...(guided ? { guided } : {}), ...(saving ? { saving } : {}), ...(options.adapterModule ? { adapterModule: options.adapterModule } : {}),
      ...(recycleAfter === undefined ? {} : { recycleAfter }),
    }) ?? stoppedBy
  }
  // An interaction campaign that ran its whole stream (no --runs given) explored everything it had.
  if (stoppedBy === 'runs' && options.runs === undefined && streamEnd !== undefined) stoppedBy = 'exhausted'
  progress('running')
  return ledger.report({ adapter: adapter.name, seed, shard, stoppedBy })
}

/**
 * One DFS over a scenario's whole tree, schedule by schedule (it cannot be split): in this thread,
 * or, given `workers`, in one watched worker that holds the DFS (failures are reported in another).
 * A schedule its worker loses ends the exploration, charged to a clause like any lost run.
 */
async function exploreTree(
  ctx: CampaignContext, ledger: CampaignLedger, maxSeeds: number, stop: () => boolean, progress: (phase: 'running' | 'shrinking', key?: string) => void,
  workers: boolean,
): Promise<CampaignReport['stoppedBy'] | undefined> {
  const pools = workers ? [0, 1].map(() => campaignPool(ctx, 1)) : undefined
  // In this thread only: with workers, the worker holding the tree holds its DFS.
  const strategy = pools === undefined ? (await import('../../sim/strategies/dfs.js')).dfs({ preemptionBound: 2 }) : undefined
  try {
    for (let j = 0; j < maxSeeds; j++) {
      if (stop()) return undefined
      let seedResult: SeedResult | 'exhausted'
      let lost = false
      if (pools === undefined) seedResult = await (await inThisThread()).treeStep(ctx, strategy!, j)
      else {
        const outcome = await pools[0]!.run({ kind: 'tree', j })
        if (outcome.kind === 'error') throw outcome.error
        lost = outcome.kind === 'lost'
        seedResult = outcome.kind === 'done' ? outcome.result as SeedResult | 'exhausted' : await lostSeed(ctx, j, outcome.detail)
      }
      if (seedResult === 'exhausted') return 'exhausted'
      const found = await takeTreeResult(ctx, ledger, seedResult, progress, pools?.[1])
      if (found || lost) return 'failure'
    }
  } finally {
    for (const pool of pools ?? []) await pool.close()
  }
  return undefined
}

/** Take one schedule of the tree into the ledger and report its failures; whether the campaign must stop. */
async function takeTreeResult(
  ctx: CampaignContext, ledger: CampaignLedger, seedResult: SeedResult, progress: (phase: 'running' | 'shrinking', key?: string) => void,
  pool: WorkerPool<CampaignUnit, SeedResult | CampaignFailure> | undefined,
): Promise<boolean> {
  {
    const { reports, stop: mustStop } = ledger.add(seedResult)
    for (const { slot, failure } of reports) {
      progress('shrinking', failure.key)
      ledger.fill(slot, pool === undefined ? await (await inThisThread()).reportFailure(ctx, failure) : await reportUnit(pool, failure))
    }
    progress('running')
    return mustStop
  }
}

/**
 * The seed runner (`seed.ts`: the simulator and the checkers), loaded when a campaign runs seeds or
 * reports in this thread: a campaign with workers leaves them to the workers, and its thread does
 * not load them (they were a good share of its start-up).
 */
const inThisThread = (): Promise<typeof import('./seed.js')> => import('./seed.js')

/** A pool of watched campaign workers. */
function campaignPool(ctx: CampaignContext, size: number, tuning: { prefetch?: number; batch?: number; recycleAfter?: number; perWorker?: (unit: unknown, worker: object) => unknown } = {}): WorkerPool<CampaignUnit, SeedResult | CampaignFailure> {
  const init: CampaignWorkerInit = { settings: ctx.settings }
  return new WorkerPool<CampaignUnit, SeedResult | CampaignFailure>({
    size, executor: compiledModuleUrl(new URL(`./worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href), init,
    unitTimeoutMs: DEFAULT_SEED_TIMEOUT_MS, ...tuning,
  })
}

/**
 * The result of a seed (or tree schedule) whose worker was lost: its run charged as a livelock
 * (X-RUN 2), with its program (made here, by the seed runner, which this thread then loads).
 */
async function lostSeed(ctx: CampaignContext, r: number, detail: string, drawn?: DrawnProgram): Promise<SeedResult> {
  const { program } = (await inThisThread()).seedProgram(ctx, r, drawn)
  return {
    r, coverage: [], transitions: [], ...(drawn?.origin === 'mutant' ? { fromCorpus: true as const } : {}),
    runs: [{ strategy: `seed ${r}`, outcome: 'livelock', violations: [{ key: 'X-RUN 2', message: `the run of seed ${r} never finished: ${detail}` }], shared: [], goals: [], lost: { program } }],
  }
}

/**
 * Run seeds in a pool of watched worker threads, several in flight per worker, feeding the ledger
 * in seed order. A seed the watchdog stops is reported as a livelock of its run; a report whose
 * shrink never finishes falls back to the unshrunk failure. A guided campaign's programs are drawn
 * here and sent with their seeds; a seed is dispatched once its program is drawn (at most
 * `GUIDANCE_LAG + 1` seeds past the last one taken).
 */
async function runInWorkers(
  ctx: CampaignContext, ledger: CampaignLedger,
  o: {
    workers: number; first: number; maxSeeds: number; seedAt: (j: number) => number; stop: () => boolean
    progress: (phase: 'running' | 'shrinking', key?: string, runSeed?: number) => void; adapterModule?: string; guided?: GuidedDraw
    saving?: Checkpointing; recycleAfter?: number
  },
): Promise<CampaignReport['stoppedBy'] | undefined> {
  // How many seeds are in flight, how many each worker holds and how many results it posts at once: window.ts.
  const inFlight = campaignWindow(o.workers, o.guided !== undefined)
  const share = workerShare(inFlight, o.workers)
  const shipping = new ProgramShipping()
  const pool = campaignPool(ctx, o.workers, {
    prefetch: share - 1,
    batch: resultBatch(share, o.workers),
    // A worker's own state only spares its results what it already reported (coverage, transitions)
    // or loaded (corpus programs): the ledger takes the same report from a fresh one, as it does from
    // any number of workers (CampaignOptions.recycleAfter).
    ...(o.recycleAfter === undefined ? {} : { recycleAfter: o.recycleAfter }),
    // A mutant's parent and donors go to each worker once, then by seed (program-shipping.ts). Units
    // are made here with the whole draw; only the message to a worker carries the shipped one.
    perWorker: (unit, worker) => {
      const u = unit as CampaignUnit
      return u.kind === 'seed' && u.drawn?.origin === 'mutant' ? { kind: 'seed', r: u.r, drawn: shipping.ship(u.drawn as DrawnProgram, worker) } : u
    },
  })
  const reports: Promise<void>[] = []
  // Seeds are taken in seed order from the outcomes as they arrive, in the pool's callbacks: no
  // promise, async frame or microtask per seed (this thread's CPU per seed bounds the workers it
  // can feed, and it runs mostly in V8's baseline code, where each of those costs).
  const arrived = new Map<number, SeedResult | Error>()
  let next = o.first
  let j = o.first
  let halted = false
  let stoppedBy: CampaignReport['stoppedBy'] | undefined
  try {
    await new Promise<void>((resolve, reject) => {
      let settled = false
      const finish = (error?: unknown): void => {
        if (settled) return
        settled = true
        if (error === undefined) resolve()
        else reject(error)
      }
      // Dispatch seeds up to the window past the next one to take. The caller's stop (a deadline, a
      // signal) only ends dispatching: the seeds in flight are still taken, so the report covers a
      // prefix of the seed order.
      const dispatch = (): void => {
        while (!halted && next < o.maxSeeds && next < j + inFlight) {
          if (o.stop()) {
            halted = true
            break
          }
          const k = next++
          const r = o.seedAt(k)
          const drawn = o.guided?.programFor(k)
          const unit: CampaignUnit = drawn ? { kind: 'seed', r, drawn } : { kind: 'seed', r }
          // An interaction seed makes up to 128 runs (its schedules), not one: its budget is wider.
          pool.submit(unit, interactionIndex(ctx, r) === undefined ? undefined : INTERACTION_SEED_TIMEOUTS * DEFAULT_SEED_TIMEOUT_MS, (outcome) => {
            if (outcome.kind === 'lost') void lostSeed(ctx, r, outcome.detail, drawn).then((result) => arrive(k, result), finish)
            else arrive(k, outcome.kind === 'done' ? outcome.result as SeedResult : outcome.error)
          }, finish)
        }
      }
      // Seed k's result (or the error that ends the campaign) is here: take it, and the seeds after
      // it that came first, when it is the next in seed order.
      const arrive = (k: number, result: SeedResult | Error): void => {
        if (settled) return
        try {
          arrived.set(k, result)
          if (k === j) take()
        } catch (error) {
          finish(error)
        }
      }
      // Take every seed that has arrived in order, refilling the window after each.
      const take = (): void => {
        for (let result = arrived.get(j); result !== undefined && !settled; result = arrived.get(j)) {
          arrived.delete(j)
          if (result instanceof Error) throw result
          const { reports: found, stop: mustStop } = ledger.add(result)
          o.saving?.taken(result)
          o.guided?.taken(j)
          j++
          for (const { slot, failure } of found) {
            o.progress('shrinking', failure.key)
            reports.push(reportUnit(pool, failure).then((f) => { ledger.fill(slot, f); o.saving?.filled(slot) }))
          }
          o.progress('running', undefined, result.r)
          if (mustStop) {
            stoppedBy = 'failure'
            return finish()
          }
          dispatch()
        }
        if (j === next && (halted || next >= o.maxSeeds)) finish()
      }
      try {
        dispatch()
        if (j === next) finish()
      } catch (error) {
        finish(error)
      }
    })
    await Promise.all(reports)
  } finally {
    // Seeds still in flight after a stop are not taken: closing the pool drops them. A report
    // nobody awaits any more must not reject unhandled (that would crash the process).
    for (const report of reports) report.catch(() => undefined)
    await pool.close()
  }
  return stoppedBy
}

/** What a campaign does with its checkpoint: where it starts, and what it saves as it goes. */
interface Checkpointing {
  /** The first seed index to run (the seeds before it were restored). */
  readonly first: number
  /** The restored campaign had already stopped at a failure. */
  readonly stopped: boolean
  /** Failures the restored seeds found whose report was not saved (the campaign was stopped while shrinking them). */
  readonly unreported: readonly { readonly slot: number; readonly failure: FailureToReport }[]
  taken(result: SeedResult): void
  filled(slot: number): void
}

/**
 * Restore the ledger from the options' checkpoint (replaying the seed results it holds, and filling
 * in the failure reports it saved instead of shrinking them again), and return the hooks that keep
 * the checkpoint current. Undefined when the campaign has no checkpoint.
 */
function checkpointing(options: CampaignOptions, settings: CampaignSettings, shard: { index: number; count: number }, ledger: CampaignLedger): Checkpointing | undefined {
  const checkpoint = options.checkpoint
  if (checkpoint === undefined) return undefined
  if (settings.guidance) throw new CampaignError('a checkpoint needs a campaign whose programs are functions of their seeds: an interaction campaign, or --guidance off (a guided campaign\'s corpus is not saved)')
  if (settings.scenario !== undefined) throw new CampaignError('a checkpoint applies to random-program and interaction campaigns, not to a scenario')
  const key = JSON.stringify({
    adapter: settings.adapterModule ?? null, seed: settings.seed, shard, strategy: settings.strategy, interactions: settings.interactions,
    mixScenarios: settings.mixScenarios, arbitrary: settings.arbitrary, differential: settings.differential, keepGoing: options.keepGoing === true,
  })
  const state: CampaignCheckpoint = { v: 1, key, results: [], failures: [] }
  let stopped = false
  const unreported: { slot: number; failure: FailureToReport }[] = []
  const restore = checkpoint.restore
  if (restore !== undefined) {
    if (restore.v !== 1 || restore.key !== key) throw new CampaignError(`the checkpoint is of another campaign (it was saved for ${restore.key}; this one is ${key}): give another --checkpoint file, or the options it was saved with`)
    for (const result of restore.results as SeedResult[]) {
      if (stopped) break
      const { reports, stop } = ledger.add(result)
      state.results.push({ ...result, transitions: Array.from(result.transitions) })
      for (const { slot, failure } of reports) {
        const saved = restore.failures[slot]
        if (saved) ledger.fill(slot, saved)
        else unreported.push({ slot, failure })
        state.failures[slot] = saved ?? null
      }
      stopped = stop
    }
  }
  return {
    first: state.results.length, stopped, unreported,
    // Transitions come as a typed array, which JSON would write as an object: saved as a plain one.
    taken: (result) => { state.results.push({ ...result, transitions: Array.from(result.transitions) }); checkpoint.save(state) },
    filled: (slot) => { state.failures[slot] = ledger.failures[slot] ?? null; checkpoint.save(state) },
  }
}

async function reportUnit(pool: WorkerPool<CampaignUnit, SeedResult | CampaignFailure>, failure: FailureToReport): Promise<CampaignFailure> {
  // Never rejects: a report that cannot finish keeps the finding, with the reason.
  let outcome
  try {
    outcome = await pool.run({ kind: 'report', failure })
  } catch (error) {
    outcome = { kind: 'lost' as const, detail: stringText(error) }
  }
  if (outcome.kind === 'done') return outcome.result as CampaignFailure
  const detail = outcome.kind === 'error' ? `it failed: ${outcome.error.message}` : outcome.detail
  const lost = lostFailure(failure.key, `${failure.key} was violated, but reporting it never finished (${detail}); rerun it`, failure.program, failure.r, failure.run, failure.strategy, failure.rerun)
  return { ...lost, alsoViolated: failure.keys.filter((k) => k !== failure.key) }
}

export type { CampaignStrategy, CampaignFailure }
