/**
 * The executor a certify worker thread runs (see `sim/pool/`): it loads the adapter itself (by
 * module path, or the built-in reference), re-plans the certification from the same options (plans
 * are deterministic), and runs the units it is posted: planned units, then shrinks of failures.
 * @module
 */
import type { UnitContext } from '../../sim/pool/protocol.js'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../adapters/adapter.js'
import { loadAdapter } from '../adapters/adapter-loader.js'
import { planCertify } from './plan.js'
import { keepTimerGlobals } from '../../sim/pool/timer-globals.js'
import { keepClockBetweenRuns } from '../../sim/world/clock.js'
import type { CertifyUnit, PlanOptions } from './plan.js'
import { runCertifyUnit } from './unit.js'
import { runShrinkUnit } from './shrink.js'
import type { ShrinkUnit } from './shrink.js'
import type { UnitEnv, UnitVerdict } from './unit.js'

/** What each worker is initialised with (structured-cloneable). */
export interface CertifyWorkerInit {
  /** Absent: the built-in reference factory. */
  readonly adapterModule?: string
  readonly plan: PlanOptions
  readonly outDir: string
  readonly unitTimeoutMs: number
}

/** Load the adapter and plan, once per worker. */
export async function init(data: CertifyWorkerInit): Promise<UnitEnv> {
  const { value: input } = await keepTimerGlobals(async () => data.adapterModule === undefined ? REFERENCE_ADAPTER : loadAdapter(data.adapterModule))
  const adapter = normalizeAdapter(input, data.adapterModule ?? 'reference')
  return {
    adapter, plan: planCertify(adapter, data.plan), outDir: data.outDir, unitTimeoutMs: data.unitTimeoutMs,
    ...(data.adapterModule ? { adapterModule: data.adapterModule } : {}),
  }
}

/** Run one unit (a planned one, or the shrink of a failure). */
export function run(env: UnitEnv, unit: CertifyUnit | ShrinkUnit, context: UnitContext): Promise<UnitVerdict> {
  // Simulated runs reset one virtual clock instead of installing their own (a tenth of a run); a
  // directed case runs on real time, so the real globals are put back before it.
  keepClockBetweenRuns(unit.kind !== 'case')
  const watched = { ...env, ...(context.keepAlive ? { keepAlive: context.keepAlive } : {}) }
  return unit.kind === 'shrink' ? runShrinkUnit(watched, unit) : runCertifyUnit(watched, unit)
}
