/**
 * The messages between a pool's supervisor and its workers, and the shape of an executor module.
 * @module
 */
import type { SerializedError } from './errors.js'

/** Supervisor to worker: run these units, after those already posted, in order. */
export interface ToWorker {
  readonly units: readonly { readonly id: number; readonly unit: unknown }[]
}

/** How one unit ended in the worker. */
export type UnitEnd =
  | { readonly type: 'done'; readonly id: number; readonly result: unknown }
  | { readonly type: 'failed'; readonly id: number; readonly error: SerializedError }

/**
 * Worker to supervisor. Ends of units come in order, several per message when the pool batches them
 * (a message costs a wake-up of each thread, which on a small machine is a good part of a fuzz
 * seed's cost).
 */
export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'init-failed'; readonly error: SerializedError }
  | { readonly type: 'ends'; readonly ends: readonly UnitEnd[] }

/**
 * The memory a worker shares with its supervisor (a `BigInt64Array` over a `SharedArrayBuffer`),
 * current even while either thread is busy: when the worker last reached its event loop, and which
 * unit it is running since when (so a lost unit is told apart from the units before it whose ends
 * are still waiting in the worker's batch), the memory its isolate holds (heap plus external and
 * array-buffer memory, which a heap limit does not count) as of its last beat, in bytes, and 1 once
 * it holds a stray error to charge to its next unit (so the pool does not recycle it first). Times
 * are µs since the epoch.
 */
export const SHARED = { beat: 0, running: 1, since: 2, memory: 3, stray: 4, length: 5 } as const

/** `SHARED.running` when the worker runs no unit. */
export const NO_UNIT = -1n

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
