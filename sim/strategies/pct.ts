/**
 * PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi,
 * Nagarakatte, "A Randomized Scheduler with Probabilistic Guarantees of
 * Finding Bugs", ASPLOS 2010).
 *
 * Each actor gets a random priority when it first shows up; the scheduler
 * always runs the highest-priority actor that has a pending point, and at
 * `depth - 1` random steps it demotes the actor that just ran below everyone.
 * A bug that needs `d` ordering constraints among `n` actors in a run of `k`
 * steps is then found with probability at least `1 / (n * k^(d-1))` per run.
 *
 * @module
 */
import { createRng, type Rng } from '../streams.js'
import { notInRun, type PendingPoint, type Strategy } from './strategy.js'

/**
 * Length estimate `k` for a first run when `maxSteps` is not given. Later
 * runs use the length of the previous run, which is exact for a program whose
 * length does not depend on the schedule.
 */
export const DEFAULT_STEP_ESTIMATE = 100

/** Options of {@link pct}. */
export interface PctOptions {
  readonly seed: string | number
  /** Bug depth `d` >= 1 to aim at: `d - 1` priority change points per run. */
  readonly depth: number
  /**
   * Run length estimate `k`: change points are drawn uniformly in `[1, k]`.
   * When omitted, `k` is the previous run's number of picks
   * ({@link DEFAULT_STEP_ESTIMATE} for the first run). Too small a `k` crowds
   * the change points early; too large a one wastes some past the end.
   */
  readonly maxSteps?: number
}

/**
 * The PCT strategy, forever (bound the number of runs in the driver). Steps
 * are the picks of a run, counted from 1; time advances are not steps.
 *
 * Priorities: an actor's initial priority is `depth + u` with `u` a fresh
 * uniform draw in `[0, 1)`, so every initial priority exceeds every demoted one
 * (`1 .. depth-1`) and the initial order is a uniformly random permutation
 * (ties, at odds of 2^-32, go to the actor seen first). After the pick of
 * step `k_i` (the i-th change point), the picked actor's priority becomes `i`.
 */
export function pct(options: PctOptions): Strategy {
  const { depth, maxSteps } = options
  if (!Number.isInteger(depth) || depth < 1) throw new RangeError(`pct: depth must be an integer >= 1, got depth=${String(depth)}`)
  if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || maxSteps < 1)) {
    throw new RangeError(`pct: maxSteps must be an integer >= 1 when given, got maxSteps=${String(maxSteps)}`)
  }
  const seed = String(options.seed)
  const label = `pct d=${depth} seed=${seed}`
  const master = createRng(seed, `pct d=${depth}`)
  const priorities = new Map<string, number>()
  // changeAt[i - 1] is the step after whose pick the running actor drops to priority i.
  const changeAt = new Array<number>(depth - 1).fill(0)
  let run = -1
  let k = maxSteps ?? DEFAULT_STEP_ESTIMATE
  let steps = 0
  let lastRunSteps: number | undefined
  let schedule: Rng | undefined
  let data: Rng | undefined

  // `name` is a plain property updated per run: see NAME_IS_DATA in strategy.ts.
  const strategy = {
    name: label,
    seed,
    beginRun() {
      run++
      schedule = master.split()
      data = master.split()
      priorities.clear()
      k = Math.max(maxSteps ?? lastRunSteps ?? DEFAULT_STEP_ESTIMATE, 1)
      for (let i = 0; i < changeAt.length; i++) changeAt[i] = 1 + schedule.int(k)
      steps = 0
      // k is part of the name because it decides the change points: with the
      // seed and run index it reproduces the run.
      strategy.name = `${label} run=${run} k=${k}`
      return true
    },
    pick(pending: readonly PendingPoint[]) {
      const rng = schedule
      if (rng === undefined) throw notInRun('pct', 'pick')
      steps++
      // Pending is sorted by seq, so the first point seen of the best actor is
      // that actor's earliest: the one it reached first.
      let best = 0
      let bestPriority = -1
      for (let i = 0; i < pending.length; i++) {
        const actor = pending[i]!.actor
        let priority = priorities.get(actor)
        if (priority === undefined) {
          priority = depth + rng.nextU32() / 0x1_0000_0000
          priorities.set(actor, priority)
        }
        if (priority > bestPriority) {
          best = i
          bestPriority = priority
        }
      }
      for (let i = 0; i < changeAt.length; i++) {
        if (changeAt[i] === steps) priorities.set(pending[best]!.actor, i + 1)
      }
      return best
    },
    random(n: number) {
      if (data === undefined) throw notInRun('pct', 'random')
      return data.int(n)
    },
    endRun() {
      lastRunSteps = steps
      schedule = undefined
      data = undefined
    },
  }
  return strategy
}
