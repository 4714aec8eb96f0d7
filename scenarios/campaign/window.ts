/**
 * How a campaign with worker threads keeps them fed: how many seeds are in flight past the next one
 * the ledger takes, how many each worker holds, and how many results it posts at once. None of it
 * changes what a campaign runs or reports, only how busy its threads are.
 * @module
 */
import { GUIDANCE_LAG } from '../guidance/guided-draw.js'

/**
 * Seeds dispatched per worker ahead of the next one the ledger takes. Run times are heavy-tailed
 * (median about 1 ms, 1 in 100 over 30 ms, a few near 200 ms on the reference): with a
 * short window a slow seed at its head leaves the other workers idle once they have run the rest of
 * it (a simulation over measured run times: 4 per worker keeps 2 workers 92-94% busy, 16 per worker
 * 99%; `bench/window-sim.ts` for more workers). The cost is the seeds still run after a stop: a time
 * budget overshoots by up to this many seeds' time per worker.
 */
export const SEEDS_PER_WORKER = 32

/**
 * Seeds in flight over all of a campaign's workers: {@link SEEDS_PER_WORKER} each, and for a guided
 * campaign at most `GUIDANCE_LAG + 1` in all, since seed j's program is drawn from the corpus as it
 * stood GUIDANCE_LAG seeds earlier. On many cores that bound, not the feeding thread, is what holds
 * a guided campaign back (`bench/window-sim.ts`).
 */
export function campaignWindow(workers: number, guided: boolean): number {
  return Math.min(workers * SEEDS_PER_WORKER, guided ? GUIDANCE_LAG + 1 : Number.POSITIVE_INFINITY)
}

/** The seeds each of `workers` workers holds (one running, the rest waiting in it) of a `window`. */
export function workerShare(window: number, workers: number): number {
  return Math.ceil(window / workers)
}

/**
 * Results a worker holding `share` seeds posts at once, keeping enough seeds in hand that it never
 * idles while the feeding thread takes them and posts the next ones. The two threads then wake each
 * other once per batch instead of twice per seed. The feeding thread's CPU per seed bounds the
 * workers it can feed, and its wake-ups are much of it: about 0.5 ms each on the 2-core VM, from
 * cold caches and unoptimized code, against 0.06 ms in a synthetic pool whose worker only spins.
 * Measured on reference campaigns:
 * - 4,000 seeds: batches of 8 instead of 4 took it from about 1.35 to 1.0 s;
 * - one worker, 8,000 seeds: batches of 16 instead of 8 took it from about 1.4 to 1.1 s;
 * - one worker, 8,000 runs: batches of 24 instead of 16 took it from 0.98 to 0.74 s (1/29 to 1/32 of
 *   the worker's), with no longer wall time;
 * - one worker, 7,800 seeds: batches of 8, 24 and 31 read about 720, 530 and 490 ms (3 runs each).
 *
 * How many to keep in hand:
 * - One worker's results arrive in seed order and are taken as they come, so it only needs a round
 *   trip's work in hand. It keeps a twelfth of its share: 3 of 33 seeds, about 5-9 ms of reference
 *   runs, against about 1 ms for the feeding thread to take 30 results and post 30 seeds.
 * - Several workers' results interleave in seed order, so one worker's batch may wait for another's
 *   before it is taken. Each keeps half its share in hand.
 */
export function resultBatch(share: number, workers: number): number {
  return workers === 1 ? Math.max(1, share - Math.ceil(share / 12)) : Math.max(1, Math.floor(share / 2))
}
