/**
 * The default wall-clock budget of a unit, apart so the certification's worker pool can start
 * without loading the suite (`certify-pool.ts`).
 * @module
 */

/** Default wall-clock budget of one directed case or one simulated run. */
export const DEFAULT_UNIT_TIMEOUT_MS = 10_000
