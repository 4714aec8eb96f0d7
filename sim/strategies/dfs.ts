/**
 * Bounded exhaustive exploration: depth-first over every schedule, with an
 * optional preemption bound (Musuvathi and Qadeer's iterative context bounding:
 * most concurrency bugs need few preemptions, and the number of schedules grows
 * polynomially rather than exponentially in the run length for a fixed bound).
 *
 * Stateless, like shuttle's `DfsScheduler`: the strategy keeps only a stack of
 * levels (the option taken and the number of options at each choice of the
 * last run) and reproduces a run by replaying that prefix, then advancing the
 * deepest level that still has options.
 *
 * @module
 */
import { notInRun, type PendingPoint, type PickContext, type Strategy } from './strategy.js'

/** Options of {@link dfs}. */
export interface DfsOptions {
  /**
   * Maximum preemptions per run; unbounded when omitted. A preemption is picking
   * a point of an actor other than the last one while the last one still has
   * a pending point; switching away from an actor with nothing pending is free.
   */
  readonly preemptionBound?: number
  /** Stop after this many runs even if schedules remain. */
  readonly maxRuns?: number
}

/**
 * A run that was not a replay of the previous run's prefix: the program or the code under test is
 * not deterministic (a factory keeping state across runs), so the exhaustive search cannot go on.
 */
export class DfsNondeterminismError extends Error {
  override readonly name = 'DfsNondeterminismError'
}

/**
 * Enumerate every schedule (within the preemption bound) once, then report
 * exhaustion from `beginRun()`.
 *
 * Random draws are choice levels too: a draw in `[0, n)` is explored with every
 * value `0 .. n-1`, so faults chosen through `random` are enumerated along with
 * the interleavings.
 *
 * @throws DfsNondeterminismError from `pick`/`random` when a run is not a replay of the previous
 *   run's prefix (a different number of options at the same level): the
 *   program is not deterministic, and exhaustive search would be meaningless.
 */
export function dfs(options: DfsOptions = {}): Strategy {
  const bound = options.preemptionBound ?? Number.POSITIVE_INFINITY
  const maxRuns = options.maxRuns ?? Number.POSITIVE_INFINITY
  if (!(bound >= 0) || (bound !== Number.POSITIVE_INFINITY && !Number.isInteger(bound))) {
    throw new RangeError(`dfs: preemptionBound must be an integer >= 0 when given, got preemptionBound=${String(options.preemptionBound)}`)
  }
  if (!(maxRuns >= 1) || (maxRuns !== Number.POSITIVE_INFINITY && !Number.isInteger(maxRuns))) {
    throw new RangeError(`dfs: maxRuns must be an integer >= 1 when given, got maxRuns=${String(options.maxRuns)}`)
  }
  const label = bound === Number.POSITIVE_INFINITY ? 'dfs' : `dfs preemptionBound=${bound}`
  // The stack of levels of the last run: choices[i] of counts[i] options.
  const choices: number[] = []
  const counts: number[] = []
  let depth = 0 // levels used so far in the current run
  let runs = 0
  let active = false
  let exhausted = false
  let preemptions = 0

  const choose = (count: number, what: string): number => {
    if (depth < choices.length) {
      if (counts[depth] !== count) {
        throw new DfsNondeterminismError(
          `dfs: nondeterministic program: choice ${depth} (${what}) had ${counts[depth]} options in the previous run and ${count} now; exhaustive search needs a deterministic program`,
        )
      }
      return choices[depth++]!
    }
    choices.push(0)
    counts.push(count)
    depth++
    return 0
  }

  // `name` is a plain property updated per run: see NAME_IS_DATA in strategy.ts.
  const strategy = {
    name: label,
    beginRun() {
      if (exhausted || runs >= maxRuns) return false
      if (runs > 0) {
        // Levels past the last run's depth belong to nothing (a shorter run
        // ends the branch); then backtrack to the deepest level with options left.
        choices.length = depth
        counts.length = depth
        while (choices.length > 0 && choices[choices.length - 1]! + 1 >= counts[counts.length - 1]!) {
          choices.pop()
          counts.pop()
        }
        if (choices.length === 0) {
          exhausted = true
          return false
        }
        choices[choices.length - 1]!++
      }
      runs++
      strategy.name = `${label} run=${runs - 1}`
      depth = 0
      preemptions = 0
      active = true
      return true
    },
    pick(pending: readonly PendingPoint[], ctx: PickContext) {
      if (!active) throw notInRun('dfs', 'pick')
      const last = ctx.lastActor
      let lastPending = 0
      if (last !== undefined) for (const p of pending) if (p.actor === last) lastPending++
      if (lastPending === 0 || preemptions < bound) {
        const index = choose(pending.length, 'pick')
        if (lastPending > 0 && pending[index]!.actor !== last) preemptions++
        return index
      }
      // Bound reached and the last actor can continue: only its points are options.
      // Map option `nth` to the index of the last actor's nth pending point.
      let nth = choose(lastPending, 'pick')
      let i = -1
      do i++
      while (pending[i]!.actor !== last || nth-- > 0)
      return i
    },
    random(n: number) {
      if (!active) throw notInRun('dfs', 'random')
      return choose(n, `random(${n})`)
    },
    endRun() {
      active = false
    },
  }
  return strategy
}
