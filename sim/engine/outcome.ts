/**
 * The result of one run, as data. Formatting it for humans is another layer's job.
 * @module
 */
import type { DecisionLog } from '../trace/decision-log.js'

/** An operation still open when nothing could run any more. */
export interface BlockedOperation {
  readonly actor: string
  /** The operation's description, as given to `beginOp`. */
  readonly op: string
  /**
   * What it waits on: the label it declared itself blocked on, else the label
   * of the last scheduling point it reached (it never got past what followed),
   * else `"(no scheduling point reached)"`.
   */
  readonly waitingOn: string
}

/** Where a crash came from. */
export type CrashSource = 'main' | 'timer' | 'unhandled-rejection' | 'uncaught-exception'

interface OutcomeBase {
  /** Scheduling steps taken: picks plus time advances (random draws are not steps). */
  readonly steps: number
  /** Every decision of the run, replayable with the `replay` strategy. */
  readonly decisions: DecisionLog
}

/** Nothing was left to run and no operation was open. */
export interface OkOutcome extends OutcomeBase {
  readonly kind: 'ok'
}
/** Nothing could run (no pending point, no timer) but operations were still open. */
export interface DeadlockOutcome extends OutcomeBase {
  readonly kind: 'deadlock'
  readonly blocked: readonly BlockedOperation[]
}
/** The run was still going after `budget` steps. */
export interface LivelockOutcome extends OutcomeBase {
  readonly kind: 'livelock'
  readonly budget: number
  /** Set when a resource cap ended the run (a trace or decision log that outgrew its cap), not the step budget. */
  readonly reason?: string
}
/** Code under test started async work the scheduler does not control (a real timer, real I/O). */
export interface UncontrolledOutcome extends OutcomeBase {
  readonly kind: 'uncontrolled'
  /** What was seen and where, e.g. `real Timeout created at decision 12 (at leak (file.ts:40:5))`. */
  readonly seen: string
}
/** `main` threw or rejected, a virtual timer's callback threw, or an error went unhandled. */
export interface CrashOutcome extends OutcomeBase {
  readonly kind: 'crash'
  readonly error: unknown
  readonly source: CrashSource
}

/** How a run ended. Returned, never thrown. */
export type RunOutcome = OkOutcome | DeadlockOutcome | LivelockOutcome | UncontrolledOutcome | CrashOutcome
