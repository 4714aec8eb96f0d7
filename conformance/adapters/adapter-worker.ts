/**
 * The executor of a watched adapter worker (see `sim/pool/`, `watched-adapter.ts`): the only place
 * besides the certify and fuzz workers where an adapter module is loaded. It describes the adapter
 * (name, version, manifest) after probing it, and replays saved runs against it, each under the
 * pool's deadline, busy limit and memory limits.
 * @module
 */
import { describeHang, settleOrHang } from '../../sim/pool/settle-or-hang.js'
import type { UnitContext } from '../../sim/pool/protocol.js'
import { normalizeAdapter, REFERENCE_ADAPTER } from './adapter.js'
import type { NormalizedAdapter, Supports } from './adapter.js'
import { loadAdapter } from './adapter-loader.js'
import { probeInstall } from './probe.js'
import { replayRun } from './replay-run.js'
import { keepTimerGlobals } from '../../sim/pool/timer-globals.js'
import type { ReplayedRun, ReplayRequest } from './replay-run.js'

/** What the worker is initialised with. */
export interface AdapterWorkerInit {
  /** The adapter module (absent: the built-in reference factory). */
  readonly adapterModule?: string
  /** How errors name the adapter (the module as the user named it). */
  readonly source: string
}

/** An adapter as the main thread may know it: everything but its code. */
export interface AdapterDescription {
  readonly name: string
  readonly version: string
  readonly supports: Supports
  readonly reproduces?: string
  /** The adapter's `recycleAfter` (run seeds per campaign worker). */
  readonly recycleAfter?: number
  /** A process adapter (it boots a foreign runtime) rather than a factory adapter. */
  readonly foreign: boolean
}

/** One unit: describe (and optionally probe) the adapter, or replay a saved run against it. */
export type AdapterUnit =
  | { readonly kind: 'describe'; readonly probe: boolean; readonly probeTimeoutMs: number }
  | { readonly kind: 'replay'; readonly request: ReplayRequest; readonly timeoutMs: number }

/** The result of a unit. */
export type AdapterUnitResult = AdapterDescription | ReplayedRun

/** The loaded adapter, and how errors name it. */
export interface AdapterWorkerState {
  readonly adapter: NormalizedAdapter
  readonly source: string
}

/** Load the adapter (the worker's load is timed and watched by the pool); timer globals it replaces are put back, said once. */
export async function init(data: AdapterWorkerInit): Promise<AdapterWorkerState> {
  const { value: input, replaced } = await keepTimerGlobals(async () => data.adapterModule === undefined ? REFERENCE_ADAPTER : loadAdapter(data.adapterModule))
  if (replaced.length > 0) process.stderr.write(`dsh-kit: warning: adapter module ${data.source} replaced ${replaced.join(', ')} when it loaded; the kit put the real ones back in its workers (the simulator fakes them itself, per run)\n`)
  return { adapter: normalizeAdapter(input, data.source), source: data.source }
}

/** Run one unit. */
export async function run(state: AdapterWorkerState, unit: AdapterUnit, context: UnitContext): Promise<AdapterUnitResult> {
  const { adapter, source } = state
  const keepAlive = context.keepAlive ? { keepAlive: context.keepAlive } : {}
  if (unit.kind === 'describe') {
    if (unit.probe) {
      // Not unref'ing the worker's port here: the probe's own teardown wait (probe.ts) lets the loop
      // drain to see an unload that never settles, which this watch would take for a hung probe.
      const probed = await settleOrHang(() => probeInstall(adapter, source), { timeoutMs: unit.probeTimeoutMs })
      if (probed.kind === 'rejected') throw probed.error
      if (probed.kind === 'hang') throw Object.assign(new Error(`${source}: the capability probe (install, or boot the process, once) ${describeHang(probed)}`), { name: 'AdapterError' })
    }
    return {
      name: adapter.name, version: adapter.version, supports: adapter.supports, foreign: adapter.foreign,
      ...(adapter.reproduces === undefined ? {} : { reproduces: adapter.reproduces }),
      ...(adapter.recycleAfter === undefined ? {} : { recycleAfter: adapter.recycleAfter }),
    }
  }
  const replayed = await settleOrHang(() => replayRun(unit.request, adapter.processFactory), { timeoutMs: unit.timeoutMs, ...keepAlive })
  if (replayed.kind === 'fulfilled') return replayed.value
  if (replayed.kind === 'rejected') throw replayed.error
  return { hung: `the replay ${describeHang(replayed)}` }
}
