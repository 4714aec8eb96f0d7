/**
 * The scheduler as the simulated world sees it: where the world waits, it asks the scheduler.
 * @module
 */
import type { OpHandle, RunOutcome } from '../engine/index.js'

/** What the world needs from the scheduler of its run. */
export interface SchedulerPort {
  /** A scheduling point: resolves when the strategy lets `actor` proceed past `label`. */
  point(label: string, actor: string): Promise<void>
  /** `actor` is blocked forever on `label`; never settles. */
  block(label: string, actor: string): Promise<never>
  /** An operation the run must finish (else it deadlocks). */
  beginOp(actor: string, description: string): OpHandle
  /** A logged random draw in `[0, n)`. */
  random(n: number): number
  /** Decisions taken so far. */
  readonly decisionCount: number
  /**
   * Call `probe` at every quiescent point of the run: each time the process has settled, before the
   * next decision (the last call, flagged, sees the run's end state). The probe may return a promise
   * that awaits microtasks and, with `turn`, one more real macrotask turn; it must take no decision
   * and create no scheduling point.
   * Optional: a scheduler without it runs no probes.
   */
  onSettled?(probe: QuiescenceProbe): void
}

/**
 * A quiescence probe (see {@link SchedulerPort.onSettled}); `turn` lets the process settle once
 * more; `last` says the run ends here (nothing is pending and no timer waits).
 */
export type QuiescenceProbe = (turn: () => Promise<void>, last: boolean) => Promise<void> | undefined

/**
 * What drives one run: the port the world waits on, plus the loop that runs `main` to an outcome.
 * The kit's `Scheduler` is one; another scheduler behind the same port (a baseline to compare
 * against, for instance) can run the same world through `runProgramWith`.
 */
export interface RunDriver extends SchedulerPort {
  /** Run `main` (which starts the actors) to the end; called once. The outcome is returned, never thrown. */
  run(main: () => Promise<void>, options?: { readonly budget?: number; readonly runaway?: () => string | undefined }): Promise<RunOutcome>
}

/** The actor a label belongs to: everything before its last `:` segment (`factory:s1:setup` → `factory:s1`). */
export function actorOfLabel(label: string): string {
  const i = label.lastIndexOf(':')
  return i > 0 ? label.slice(0, i) : label
}
