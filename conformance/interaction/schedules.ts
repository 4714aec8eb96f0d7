/**
 * The schedules each interaction program runs under: a bounded DFS over its schedule tree (every
 * schedule with at most {@link PREEMPTION_BOUND} preemptions, Musuvathi and Qadeer's iterative
 * context bounding), cut at {@link MAX_SCHEDULES}. A program of the mode has one or two actors
 * beside the model, its loads and listener tails, and a few scheduling points each: most trees are
 * exhausted before the cut (the `dispose` from a `turn/end` observer with a followup pending has 9
 * schedules with 2 preemptions, 8 with 1, 3 with none; of a sample of 204 programs of the suite, 164
 * have at most 16 schedules and 199 at most 32).
 * @module
 */
import { dfs } from '../../sim/strategies/dfs.js'
import type { Strategy } from '../../sim/strategies/strategy.js'

/** Preemptions a schedule of the mode may have. */
export const PREEMPTION_BOUND = 2

/** Schedules per program at most (the DFS stops there if its tree is larger). */
export const MAX_SCHEDULES = 32

/** How far a program's schedules are explored. */
export interface ScheduleBound {
  readonly preemptionBound: number
  readonly maxSchedules: number
}

/** The mode's bound. */
export const MODE_SCHEDULES: ScheduleBound = { preemptionBound: PREEMPTION_BOUND, maxSchedules: MAX_SCHEDULES }

/** The strategy once per schedule (begun), for one program. */
export function* interactionSchedules(bound: ScheduleBound = MODE_SCHEDULES): Generator<Strategy> {
  const strategy = dfs({ preemptionBound: bound.preemptionBound, maxRuns: bound.maxSchedules })
  while (strategy.beginRun()) yield strategy
}
