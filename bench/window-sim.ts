/**
 * How busy a campaign's workers could be on more cores than this machine has, by simulation. The
 * feeding thread's CPU is not the only bound on many cores: results are taken in seed order, a
 * campaign keeps only a window of seeds in flight past the next one it takes, and each worker runs
 * the seeds it holds one after another. A slow seed then holds up the seeds queued behind it on its
 * worker, the window cannot move past it, and the other workers run dry.
 *
 * This measures the run time of each seed of a reference campaign in this thread (unguided,
 * portfolio schedules; the first `--skip` seeds, the JIT's warm-up, are left out), then replays those
 * times through the rules `runInWorkers` (`scenarios/campaign/campaign.ts`) dispatches by:
 * - at most {@link campaignWindow} seeds in flight past the next seed the ledger takes;
 * - each worker holds at most its {@link workerShare} of them (or `--per`), and runs them in order;
 * - a seed goes to the worker holding the fewest, as soon as both allow.
 * Nothing is charged for the feeding thread, messages or the machine's other threads, so each
 * figure is an upper bound on what that many cores would give.
 *
 * Run alone: `npm run build --silent && node dist/bench/window-sim.js [--seeds 3000] [--skip 300] [--per N]`
 * @module
 */
import { campaignWindow, SEEDS_PER_WORKER, workerShare } from '../scenarios/campaign/window.js'
import { campaignContext, runSeed } from '../scenarios/campaign/seed.js'
import { operationsFor } from '../scenarios/campaign/context.js'
import type { CampaignSettings } from '../scenarios/campaign/context.js'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../conformance/adapters/adapter.js'
import { arg, fmt, isMain, table } from './common.js'

/** Wall milliseconds of each of `seeds` run seeds of an unguided reference campaign, in this thread. */
export async function seedTimes(seeds: number): Promise<number[]> {
  const settings: CampaignSettings = {
    strategy: 'portfolio', seed: 0, arbitrary: operationsFor(normalizeAdapter(REFERENCE_ADAPTER, 'reference')), dfsSchedules: 8, shrink: false,
    baseline: false, differential: false, guidance: false, mixScenarios: true, interactions: 'mix',
  }
  const ctx = campaignContext(settings, REFERENCE_ADAPTER, undefined)
  const times: number[] = []
  for (let r = 0; r < seeds; r++) {
    const t = process.hrtime.bigint()
    await runSeed(ctx, r, undefined)
    times.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return times
}

/**
 * The share of `workers` workers' time spent running seeds whose run times are `times`, in seed
 * order, when at most `window` seeds are in flight past the next one taken and each worker holds at
 * most `per`. 1 means every worker is always busy.
 */
export function utilization(times: readonly number[], workers: number, window: number, per: number): number {
  if (!(workers >= 1 && window >= 1 && per >= 1)) throw new RangeError(`utilization: workers, window and per must be at least 1, got ${workers}, ${window}, ${per}`)
  // Each worker's held seeds as their finish times, in the order it runs them (so ascending).
  const held: number[][] = Array.from({ length: workers }, () => [])
  const finish = new Float64Array(times.length).fill(Number.POSITIVE_INFINITY)
  let next = 0
  let taken = 0
  let now = 0
  while (taken < times.length) {
    while (taken < times.length && finish[taken]! <= now) taken++
    for (const queue of held) while (queue.length > 0 && queue[0]! <= now) queue.shift()
    while (next < times.length && next < taken + window) {
      let to = -1
      for (let w = 0; w < workers; w++) if (held[w]!.length < per && (to < 0 || held[w]!.length < held[to]!.length)) to = w
      if (to < 0) break
      const queue = held[to]!
      const end = Math.max(now, queue.at(-1) ?? now) + times[next]!
      queue.push(end)
      finish[next++] = end
    }
    let soonest = Number.POSITIVE_INFINITY
    for (const queue of held) if (queue.length > 0 && queue[0]! < soonest) soonest = queue[0]!
    if (soonest === Number.POSITIVE_INFINITY) break
    now = soonest
  }
  const work = times.reduce((a, b) => a + b, 0)
  return work / (workers * Math.max(...finish))
}

/** One row: a worker count, guided and unguided. */
export interface WindowRow {
  readonly workers: number
  readonly guided: number
  readonly unguided: number
}

/** Simulate each worker count over `times` repeated to `seeds` seeds (`per` overrides each worker's share). */
export function simulate(times: readonly number[], workerCounts: readonly number[], seeds: number, per?: number): WindowRow[] {
  const run = Array.from({ length: seeds }, (_, i) => times[i % times.length]!)
  return workerCounts.map((workers) => {
    const at = (guided: boolean): number => {
      const window = campaignWindow(workers, guided)
      return utilization(run, workers, window, per ?? workerShare(window, workers))
    }
    return { workers, guided: at(true), unguided: at(false) }
  })
}

async function main(): Promise<void> {
  const seeds = Number(arg('seeds') ?? 3000)
  const skip = Number(arg('skip') ?? 300)
  const per = arg('per') === undefined ? undefined : Number(arg('per'))
  if (!(Number.isSafeInteger(seeds) && Number.isSafeInteger(skip) && seeds > skip && skip >= 0)) throw new Error(`--seeds must be an integer above --skip (a non-negative integer), got ${seeds} and ${skip}`)
  if (per !== undefined && !(Number.isSafeInteger(per) && per >= 1)) throw new Error(`--per must be an integer >= 1, got ${arg('per')}`)
  const times = (await seedTimes(seeds)).slice(skip)
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  console.log(`Seed run times (reference, unguided, in this thread, seeds ${skip}-${seeds - 1}): median ${fmt(at(0.5), 2)} ms, p99 ${fmt(at(0.99), 1)} ms, max ${fmt(sorted.at(-1)!, 1)} ms.`)
  console.log(`Replayed over 20,000 seeds; each worker holds ${per === undefined ? 'its share of the window' : `at most ${per}`}; no cost for the feeding thread or messages (upper bounds).\n`)
  const rows = simulate(times, [1, 2, 4, 8, 16, 32], 20_000, per)
  const cell = (u: number, workers: number): string => `${fmt(u * 100, 0)}% busy, ${fmt(u * workers, 1)}×`
  console.log(table(['workers', `guided (${campaignWindow(32, true)} seeds in flight in all)`, `unguided (${SEEDS_PER_WORKER} per worker in flight)`], rows.map((r) => [r.workers, cell(r.guided, r.workers), cell(r.unguided, r.workers)])))
}

if (isMain(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
