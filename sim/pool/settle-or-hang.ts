/**
 * Waiting on work the kit does not control (a directed case, a whole run) without ever mistaking a
 * hang for a pass. Two watchdogs, independent of the code under test:
 *
 * - **drain**: when nothing else keeps the event loop alive and the work has not settled, Node is
 *   about to exit (`beforeExit`): the work can never settle, a hang, reported at once instead of the
 *   process exiting with whatever exit code was set;
 * - **timeout**: an unref'd timer, for work that keeps the loop busy without settling (a model call
 *   on a real timer, a test runner keeping the loop alive). A synchronous or microtask livelock
 *   starves both: only terminating the thread stops it (see `worker-pool.ts`).
 * @module
 */
import { realClearTimeout, realNow, realSetTimeout } from './real-clock.js'

/** How a watched piece of work ended. */
export type Settled<T> =
  | { readonly kind: 'fulfilled'; readonly value: T }
  | { readonly kind: 'rejected'; readonly error: unknown }
  | { readonly kind: 'hang'; readonly how: 'drained' | 'timeout'; readonly afterMs: number }

/** Options of {@link settleOrHang}. */
export interface SettleOrHangOptions {
  /** Give up after this long even if the event loop stays busy. */
  readonly timeoutMs: number
  /**
   * A handle that keeps the event loop alive while idle (a worker's `parentPort`): unref'd while the
   * work runs so a hang drains the loop, ref'd again afterwards.
   */
  readonly keepAlive?: { ref(): void; unref(): void }
}

// The timers are real-clock.ts's, captured before any virtual clock or adapter replaces the globals:
// the watchdog runs on real time even while a simulated run has fake timers installed.

/**
 * Start `work` and await it, or report it as a hang: never resolves later than the timeout, never
 * lets the process exit meanwhile. The watchdogs are armed before `work` starts, so nothing they
 * create belongs to the work.
 */
export function settleOrHang<T>(work: () => Promise<T>, options: SettleOrHangOptions): Promise<Settled<T>> {
  const startedAt = realNow()
  return new Promise<Settled<T>>((resolve) => {
    let done = false
    const finish = (result: Settled<T>): void => {
      if (done) return
      done = true
      realClearTimeout(timer)
      process.off('beforeExit', onDrain)
      options.keepAlive?.ref()
      resolve(result)
    }
    const hang = (how: 'drained' | 'timeout'): void => finish({ kind: 'hang', how, afterMs: Math.round(realNow() - startedAt) })
    const onDrain = (): void => hang('drained')
    const timer = realSetTimeout(() => hang('timeout'), options.timeoutMs)
    timer.unref()
    process.on('beforeExit', onDrain)
    options.keepAlive?.unref()
    let started: Promise<T>
    try {
      // Foreign code may return a plain value where a promise is due (an unload returning nothing).
      started = Promise.resolve(work())
    } catch (error) {
      started = Promise.reject(error)
    }
    started.then((value) => finish({ kind: 'fulfilled', value }), (error: unknown) => finish({ kind: 'rejected', error }))
  })
}

/** One line saying how a hang was detected, for a verdict. */
export function describeHang(h: { how: 'drained' | 'timeout'; afterMs: number }): string {
  return h.how === 'drained'
    ? `never settled: the event loop went idle with it still pending after ${h.afterMs} ms (a hang)`
    : `did not settle within ${h.afterMs} ms (a hang)`
}
