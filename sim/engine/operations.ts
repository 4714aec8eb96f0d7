/**
 * Operation tracking: which operations are open and what each waits on, so a
 * deadlock can say who is stuck where.
 * @module
 */
import type { BlockedOperation } from './outcome.js'

/** How an operation ended, for the record. */
export type OpOutcome = 'ok' | 'fail' | 'info'

/** An open operation of an actor, from `beginOp` to `end`. */
export interface OpHandle {
  readonly actor: string
  readonly description: string
  /** Whether `end` was called. */
  readonly ended: boolean
  /** How it ended, once ended. */
  readonly outcome: OpOutcome | undefined
  /** Say what the operation waits on now (overrides the last point reached). */
  waitingOn(label: string): void
  /**
   * Close the operation.
   * @throws Error when it was already ended: a double end hides a bookkeeping bug.
   */
  end(outcome?: OpOutcome): void
}

const NO_POINT = '(no scheduling point reached)'

class Operation implements OpHandle {
  waiting: string | undefined
  blockedOn: string | undefined
  ended = false
  outcome: OpOutcome | undefined

  constructor(
    readonly actor: string,
    readonly description: string,
    private readonly tracker: OperationTracker,
  ) {}

  waitingOn(label: string): void {
    this.waiting = label
  }

  end(outcome: OpOutcome = 'ok'): void {
    if (this.ended) {
      throw new Error(`operation "${this.description}" of actor "${this.actor}" ended twice (first ${String(this.outcome)}, then ${outcome})`)
    }
    this.ended = true
    this.outcome = outcome
    this.tracker.close(this)
  }
}

/** The open operations of one run. */
export class OperationTracker {
  readonly #open: Operation[] = []

  /** Number of operations not yet ended. */
  get openCount(): number {
    return this.#open.length
  }

  /** Open an operation of `actor`. */
  begin(actor: string, description: string): OpHandle {
    const op = new Operation(actor, description, this)
    this.#open.push(op)
    return op
  }

  /** @internal called by `OpHandle.end`. */
  close(op: Operation): void {
    const i = this.#open.lastIndexOf(op)
    if (i >= 0) this.#open.splice(i, 1)
  }

  /**
   * `actor` reached the point `label`: it is now what the actor's innermost
   * open operation (the most recently begun) waits on.
   */
  reached(actor: string, label: string): void {
    const op = this.#innermost(actor)
    if (op !== undefined) op.waiting = label
  }

  /** `actor` is blocked forever on `label`: its innermost open operation will never finish. */
  blocked(actor: string, label: string): void {
    const op = this.#innermost(actor)
    if (op !== undefined) op.blockedOn = label
  }

  /** The open operations but `except`, oldest first, with what each waits on. */
  report(except?: OpHandle): BlockedOperation[] {
    const report: BlockedOperation[] = []
    for (const op of this.#open) {
      if (op !== except) report.push({ actor: op.actor, op: op.description, waitingOn: op.blockedOn ?? op.waiting ?? NO_POINT })
    }
    return report
  }

  #innermost(actor: string): Operation | undefined {
    for (let i = this.#open.length - 1; i >= 0; i--) if (this.#open[i]!.actor === actor) return this.#open[i]
    return undefined
  }
}
