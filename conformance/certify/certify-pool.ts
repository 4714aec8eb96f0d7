/**
 * The worker threads a certification runs its units in. A caller may start them before it loads the
 * suite ({@link startCertifyPool}, then `certify(adapter, { ...options, pool })`): the CLI does, so
 * each worker loads its modules while the CLI's own thread loads the suite, instead of after it
 * (about a quarter of a second of a quick certification's wall time). This module imports nothing
 * heavy for that reason.
 * @module
 */
import { join, resolve } from 'node:path'
import { compiledModuleUrl, WorkerPool } from '../../sim/pool/worker-pool.js'
import type { CertifyUnit } from './plan.js'
import type { CertifyOptions } from './report.js'
import type { ShrinkUnit } from './shrink.js'
import type { UnitVerdict } from './unit.js'
import type { CertifyWorkerInit } from './worker.js'
import { DEFAULT_UNIT_TIMEOUT_MS } from './unit-timeout.js'

/**
 * Units in flight per worker. With one, a worker idles for a round trip through this thread after
 * each unit, and most units take a few milliseconds. Verdicts are merged by unit index, so the
 * certificate does not depend on it; a stop (fail-fast, a deadline) lets the units in flight finish.
 */
export const UNITS_AHEAD = 8

/** Certification workers, started with the options of the certification that will use them. */
export interface CertifyPool {
  readonly pool: WorkerPool<CertifyUnit | ShrinkUnit, UnitVerdict>
  readonly workers: number
  /** What each worker was initialised with: `certify` checks it is what its own options give. */
  readonly init: CertifyWorkerInit
}

/** Where failing runs are saved (absolute). */
export function certifyOutDir(options: Pick<CertifyOptions, 'outDir'>): string {
  return resolve(options.outDir ?? join('.dsh-kit', 'failures'))
}

/** What each worker of a certification with these options is initialised with (it re-plans from it). */
export function certifyWorkerInit(options: CertifyOptions): CertifyWorkerInit {
  return {
    ...(options.adapterModule ? { adapterModule: options.adapterModule } : {}),
    plan: { ...(options.profile ? { profile: options.profile } : {}), ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.only ? { only: options.only } : {}) },
    outDir: certifyOutDir(options), unitTimeoutMs: options.unitTimeoutMs ?? DEFAULT_UNIT_TIMEOUT_MS,
  }
}

/**
 * Start `workers` certification workers for a certification with `options` (the same options
 * `certify` will be given). The caller closes the pool if it never hands it to `certify`, which
 * closes it when done.
 */
export function startCertifyPool(workers: number, options: CertifyOptions): CertifyPool {
  const init = certifyWorkerInit(options)
  const pool = new WorkerPool<CertifyUnit | ShrinkUnit, UnitVerdict>({
    size: workers, executor: compiledModuleUrl(new URL(`./worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href), init,
    // The pool's own watchdog backs up the in-worker one (which a synchronous livelock starves).
    unitTimeoutMs: init.unitTimeoutMs + 2_000,
    // Most units take a few milliseconds: each worker holds units ahead and posts their verdicts
    // in fours, so it never idles for a round trip through this thread (see UNITS_AHEAD).
    prefetch: UNITS_AHEAD - 1,
    batch: 4,
  })
  return { pool, workers, init }
}
