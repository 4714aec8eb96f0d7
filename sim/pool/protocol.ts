/**
 * The messages between a pool's supervisor and its workers, and the shape of an executor module.
 * @module
 */
import type { SerializedError } from './errors.js'

/** Supervisor to worker: run one unit. */
export interface ToWorker {
  readonly id: number
  readonly unit: unknown
}

/** Worker to supervisor. */
export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'init-failed'; readonly error: SerializedError }
  | { readonly type: 'done'; readonly id: number; readonly result: unknown }
  | { readonly type: 'failed'; readonly id: number; readonly error: SerializedError }

/** What a unit's executor gets besides the unit. */
export interface UnitContext {
  /** Keeps the worker alive while idle; unref it while awaiting code under test (see `settle-or-hang.ts`). */
  readonly keepAlive?: { ref(): void; unref(): void }
}

/**
 * An executor module (named by URL to the pool) exports `init`, run once per worker with the
 * pool's structured-cloneable `init` data, and `run`, once per unit. Results must be
 * structured-cloneable.
 */
export interface PoolExecutor<Init, Unit, Result, State = unknown> {
  init(init: Init): State | Promise<State>
  run(state: State, unit: Unit, context: UnitContext): Promise<Result>
}
