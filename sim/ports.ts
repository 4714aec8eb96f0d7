/**
 * The scheduler as the simulated world sees it: where the world waits, it asks the scheduler.
 * @module
 */
import type { OpHandle } from './engine/index.js'

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
}

/** The actor a label belongs to: everything before its last `:` segment (`factory:s1:setup` → `factory:s1`). */
export function actorOfLabel(label: string): string {
  const i = label.lastIndexOf(':')
  return i > 0 ? label.slice(0, i) : label
}
