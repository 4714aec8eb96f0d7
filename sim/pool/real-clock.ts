/**
 * Real time for the pool's watchdogs, captured when this module is evaluated, before any simulated
 * run installs a virtual clock: fake-timers replaces the global `performance` (its `now()` then reads
 * the virtual clock and its `timeOrigin` reads 0), and a watchdog reading it would misjudge a working
 * thread as silent, or a silent one as working.
 * @module
 */

/** The real timer functions, for watchdogs: code under test may replace the globals (fake timers, no-ops). */
export const realSetTimeout: typeof setTimeout = globalThis.setTimeout
export const realClearTimeout: typeof clearTimeout = globalThis.clearTimeout
export const realSetInterval: typeof setInterval = globalThis.setInterval
export const realClearInterval: typeof clearInterval = globalThis.clearInterval
export const realSetImmediate: typeof setImmediate = globalThis.setImmediate

/** Real milliseconds since this thread's time origin. */
export const realNow: () => number = performance.now.bind(performance)

const realTimeOrigin = performance.timeOrigin

/** Real milliseconds since the epoch: comparable across threads, whose time origins differ. */
export function realEpochMs(): number {
  return realTimeOrigin + realNow()
}

/** An epoch time from {@link realEpochMs} (another thread's, say) on this thread's {@link realNow} scale. */
export function fromEpochMs(epochMs: number): number {
  return epochMs - realTimeOrigin
}
