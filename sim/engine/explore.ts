/**
 * Driving a strategy across runs.
 * @module
 */
import type { Strategy } from '../strategies/strategy.js'
import type { RunOutcome } from './outcome.js'
import { Scheduler, type RunOptions } from './scheduler.js'

/** Options of {@link explore}. */
export interface ExploreOptions extends RunOptions {
  /** Stop after this many runs; unbounded by default (dfs and replay stop on their own). */
  readonly maxRuns?: number
}

/**
 * Run `program` once per run the strategy grants, each time in a fresh
 * {@link Scheduler}, and yield each outcome as it comes. Stop iterating (`break`)
 * to stop exploring, for example at the first failure.
 *
 * @param program builds and runs one execution against the scheduler it is given;
 *   it must build everything it uses afresh (nothing may leak between runs).
 */
export async function* explore(
  strategy: Strategy,
  program: (scheduler: Scheduler) => void | Promise<void>,
  options: ExploreOptions = {},
): AsyncGenerator<RunOutcome, void, undefined> {
  const maxRuns = options.maxRuns ?? Number.POSITIVE_INFINITY
  for (let run = 0; run < maxRuns && strategy.beginRun(); run++) {
    const scheduler = new Scheduler(strategy)
    yield await scheduler.run(() => program(scheduler), options)
  }
}
