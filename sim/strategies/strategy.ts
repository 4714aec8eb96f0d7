/**
 * The seam between the scheduler loop and the ways of exploring schedules.
 *
 * The loop never asks which strategy it is running: it hands the pending
 * points to {@link Strategy.pick} and random draws to {@link Strategy.random},
 * and each strategy keeps its own state and budget (after shuttle's
 * `Scheduler` trait and fast-check's `TaskSelector`).
 *
 * @module
 */

/** A scheduling point waiting for the strategy's permission to proceed. */
export interface PendingPoint {
  /** Unique among the points pending at the same time; what a decision log records. */
  readonly label: string
  /** Who is waiting: points of one actor run in the order the actor reached them. */
  readonly actor: string
  /** Creation order within the run, from 0; pending lists are sorted by it. */
  readonly seq: number
}

/**
 * What the loop tells a strategy at each pick. The engine reuses one object
 * for the whole run, so a strategy must read it during the call, not keep it.
 */
export interface PickContext {
  /** Index of this scheduling step (picks and time advances) in the run, from 0. */
  readonly step: number
  /** Actor of the previously picked point, `undefined` before the first pick. */
  readonly lastActor: string | undefined
}

/**
 * A way of choosing schedules, across the runs of one exploration.
 *
 * Lifecycle: `beginRun()`; then, during the run, any number of `pick`,
 * `random` and `advanceTime` calls; then `endRun()`; repeat. Calling `pick` or
 * `random` outside a begun run is a bug in the driver and throws.
 */
export interface Strategy {
  /**
   * Describes the current run, e.g. `"pct d=3 seed=42 run=7"`; recorded in decision logs.
   *
   * NAME_IS_DATA: the kit's strategies keep it as a plain property they update in `beginRun`, not
   * as a getter of an object literal. V8 gives every object literal with a getter a map of its own
   * in old space, which keeps the getter's closure (and what it captured) alive past every
   * young-generation collection until the next full one; a campaign builds a strategy per seed.
   */
  readonly name: string
  /** The seed the strategy was built from, if it has one; recorded in decision logs. */
  readonly seed?: string
  /** Start a new run. Returns `false`, and starts nothing, when exploration is exhausted. */
  beginRun(): boolean
  /**
   * Choose which pending point proceeds.
   * @param pending the pending points, non-empty, sorted by `seq`; valid only during the call.
   * @returns an index into `pending`.
   */
  pick(pending: readonly PendingPoint[], ctx: PickContext): number
  /** A random draw in `[0, n)` the run needs (for example a fault choice); `n` is an integer >= 1. */
  random(n: number): number
  /**
   * Nothing is pending, so the engine is about to advance virtual time to `at`
   * and fire the timer due then. Strategies that follow a log check it here.
   */
  advanceTime?(at: number): void
  /** The run ended. Strategies that follow a log check it was used up. */
  endRun?(): void
}

/** The error a strategy throws when `pick` or `random` is called outside a begun run. */
export function notInRun(strategy: string, method: string): Error {
  return new Error(`${strategy}: ${method}() called outside a run; call beginRun() first (and only use the run until endRun())`)
}
