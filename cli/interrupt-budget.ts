/**
 * Which V8 interrupt budget (how much bytecode a function runs between tiering checks, so how soon
 * it is optimized) the CLI runs with: a pure policy, applied by `v8-tuning.ts`.
 * @module
 */

/** V8's default interrupt budget (bytes of bytecode executed between tiering checks) in V8 11 (Node 20). */
export const DEFAULT_INTERRUPT_BUDGET = 66 * 1024

/** The budget the CLI sets (see `v8-tuning.ts` for why). */
export const KIT_INTERRUPT_BUDGET = 16 * DEFAULT_INTERRUPT_BUDGET

/**
 * A long campaign's budget. Over thousands of seeds per worker the hot functions meet nearly every
 * shape early, so optimizing them sooner pays for the deoptimizations it adds; over a few hundred
 * (`certify`, a short `fuzz`) it does not. On the 2-core VM, paired CPU against 16 times
 * (fuzz, alternating runs): 1 worker, 3,000 seeds -416 +- 125 ms of 11.3 s and 5,700 seeds
 * -505 +- 412 ms of 19.3 s; 2 workers, 3,000 seeds per worker -986 +- 492 ms of 26.1 s. Shorter:
 * 2 workers, 1,500 seeds per worker +423 +- 157 ms of 13.9 s; 1 worker, 1,500 seeds -6 +- 62 ms;
 * `certify --profile quick` +132 +- 26 ms of 3.6 s. 4 times was no better than 8.
 */
export const LONG_CAMPAIGN_INTERRUPT_BUDGET = 8 * DEFAULT_INTERRUPT_BUDGET

/** Seeds per worker from which a campaign counts as long (see {@link LONG_CAMPAIGN_INTERRUPT_BUDGET}). */
export const LONG_CAMPAIGN_SEEDS_PER_WORKER = 3_000

/**
 * The budget of a longer campaign still: the longer it runs, the sooner optimizing pays for the
 * compiling and deoptimizing it adds (the hot functions have met their shapes), and this budget
 * also reaches the thread feeding the workers, whose functions each run once per seed and so stay
 * longest in unoptimized code. On the 2-core VM (fuzz, alternating runs, against 8 times), 1
 * worker: 7,800 seeds, at 4 times: feeding thread -44 +- 15 ms of 550, CPU -0.6 +- 0.6 s of 20.7,
 * wall -1.5 +- 0.6 s of 17.2; at 2 times against 4 times: feeding thread -27 +- 7 ms, CPU
 * +0.06 +- 0.3 s, wall -0.7 +- 0.2 s; at V8's default against 4 times, CPU +1.2 +- 0.3 s. Shorter
 * runs pay for the compiling: 1 worker, 3,900 seeds, 2 times against 8: CPU +0.52 +- 0.06 s of 10.0
 * (wall -0.8 s); 2 workers, 3,900 seeds each, 4 times against 8: CPU +0.5 +- 0.2 s of 20.5.
 */
export const LONGER_CAMPAIGN_INTERRUPT_BUDGET = 2 * DEFAULT_INTERRUPT_BUDGET

/** Seeds per worker from which a campaign counts as longer (see {@link LONGER_CAMPAIGN_INTERRUPT_BUDGET}). */
export const LONGER_CAMPAIGN_SEEDS_PER_WORKER = 6_000

/**
 * The interrupt budget for a campaign of `seedsPerWorker` seeds per worker thread (`Infinity` when
 * it runs until stopped).
 */
export function campaignInterruptBudget(seedsPerWorker: number): number {
  if (seedsPerWorker >= LONGER_CAMPAIGN_SEEDS_PER_WORKER) return LONGER_CAMPAIGN_INTERRUPT_BUDGET
  return seedsPerWorker >= LONG_CAMPAIGN_SEEDS_PER_WORKER ? LONG_CAMPAIGN_INTERRUPT_BUDGET : KIT_INTERRUPT_BUDGET
}

/**
 * A `--time` budget from which a campaign counts as long: a minute runs at least
 * {@link LONG_CAMPAIGN_SEEDS_PER_WORKER} seeds per worker at 20 ms a run (the upstream loop's).
 */
export const LONG_CAMPAIGN_TIME_MS = 60_000

/**
 * The seeds per worker a `fuzz` campaign plans, for {@link campaignInterruptBudget}: its `--runs`
 * shared among its workers; a long `--time` budget counts as unbounded, a short one or none as 0.
 */
export function plannedSeedsPerWorker(o: { readonly runs: number | undefined; readonly workers: number; readonly timeMs: number | undefined }): number {
  if (o.runs !== undefined) return o.runs / o.workers
  return o.timeMs !== undefined && o.timeMs >= LONG_CAMPAIGN_TIME_MS ? Number.POSITIVE_INFINITY : 0
}
