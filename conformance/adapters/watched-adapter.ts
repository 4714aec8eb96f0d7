/**
 * An adapter module known to the main thread only through a watched worker: the main thread never
 * imports it, so nothing it does at load (patch the timers, install `beforeExit` or signal
 * handlers, start intervals, spin, exit) can reach the kit's watchdogs, signals or exit code. Its
 * load, its probe and the replays of its runs happen in a worker of `sim/pool/` with a deadline, a
 * busy limit and memory limits; a worker that dies, hangs or runs away while loading is reported
 * once, as an adapter error (exit 78).
 * @module
 */
import { compiledModuleUrl, WorkerPool } from '../../sim/pool/worker-pool.js'
import { AdapterError } from './adapter-error.js'
import type { Adapter } from './adapter.js'
import type { AdapterDescription, AdapterUnit, AdapterUnitResult, AdapterWorkerInit } from './adapter-worker.js'
import type { ReplayedRun, ReplayRequest } from './replay-run.js'

export type { AdapterDescription } from './adapter-worker.js'
export type { ReplayedRun, ReplayRequest } from './replay-run.js'

/** Default bound of the probe (install once, or boot the process once, and tear it down). */
export const DEFAULT_PROBE_TIMEOUT_MS = 20_000

/** Default bound of one replay (the run finished once already). */
export const DEFAULT_REPLAY_TIMEOUT_MS = 10_000

/** The error a command reports (exit 78) for what the worker could not do with the adapter. */
function adapterError(source: string, error: Error): AdapterError {
  if (error.name === 'AdapterError') return new AdapterError(error.message)
  if (error.name === 'PoolInitError') return new AdapterError(`cannot load adapter module "${source}": ${error.message}`)
  return error as AdapterError
}

/** One watched worker holding the adapter: describe it, replay runs against it, then close it. */
export class WatchedAdapter {
  readonly #pool: WorkerPool<AdapterUnit, AdapterUnitResult>
  readonly #source: string

  /** `module`: the adapter module (absent: the built-in reference); `source`: how errors name it. */
  constructor(module: string | undefined, source = module ?? 'reference') {
    this.#source = source
    const init: AdapterWorkerInit = { ...(module === undefined ? {} : { adapterModule: module }), source }
    this.#pool = new WorkerPool<AdapterUnit, AdapterUnitResult>({
      // (a stray error of the module is the runs' to charge: the runs' workers load it too)
      size: 1, init, unitTimeoutMs: DEFAULT_PROBE_TIMEOUT_MS + 5_000, strays: 'ignore',
      executor: compiledModuleUrl(new URL(`./adapter-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href),
    })
  }

  async #run(unit: AdapterUnit, timeoutMs: number): Promise<AdapterUnitResult | { lost: string }> {
    let outcome
    try {
      outcome = await this.#pool.run(unit, timeoutMs)
    } catch (error) {
      throw adapterError(this.#source, error as Error)
    }
    if (outcome.kind === 'done') return outcome.result
    if (outcome.kind === 'error') throw adapterError(this.#source, outcome.error)
    return { lost: outcome.reason === 'crash' ? `crashed: ${outcome.detail}` : outcome.detail }
  }

  /** The adapter's name, version and manifest; with `probe`, after installing it once (errors are {@link AdapterError}s). */
  async describe(probe: boolean, probeTimeoutMs = DEFAULT_PROBE_TIMEOUT_MS): Promise<AdapterDescription> {
    const result = await this.#run({ kind: 'describe', probe, probeTimeoutMs }, probeTimeoutMs + 5_000)
    if ('lost' in result) throw new AdapterError(`${this.#source}: ${probe ? 'the capability probe (install once, in a watched worker)' : 'loading the adapter in a watched worker'} never finished: it ${result.lost}`)
    return result as AdapterDescription
  }

  /** Replay a saved run against the adapter; a worker lost meanwhile is said as `hung`. */
  async replay(request: ReplayRequest, timeoutMs = DEFAULT_REPLAY_TIMEOUT_MS): Promise<ReplayedRun> {
    const result = await this.#run({ kind: 'replay', request, timeoutMs }, timeoutMs + 2_000)
    if ('lost' in result) return { hung: `the replay never finished: it ${result.lost}` }
    return result as ReplayedRun
  }

  close(): Promise<void> {
    return this.#pool.close()
  }
}

/**
 * The adapter as the main thread holds it: its description, with an `install` (or `process`) that
 * refuses to run here. Certify and fuzz hand it to their workers by module path.
 */
export function adapterStandIn(description: AdapterDescription, source: string): Adapter {
  const refuse = (): never => {
    throw new AdapterError(`${source}: the adapter's code runs only in watched workers, not in the kit's main thread`)
  }
  return {
    name: description.name, version: description.version, supports: description.supports,
    ...(description.reproduces === undefined ? {} : { reproduces: description.reproduces }),
    ...(description.recycleAfter === undefined ? {} : { recycleAfter: description.recycleAfter }),
    ...(description.foreign ? { process: refuse } : { install: refuse }),
  }
}

/** Describe (and optionally probe) an adapter module in a watched worker, and return its stand-in. */
export async function describeAdapter(module: string, options: { probe: boolean; probeTimeoutMs?: number; source?: string }): Promise<Adapter> {
  const watched = new WatchedAdapter(module, options.source ?? module)
  try {
    return adapterStandIn(await watched.describe(options.probe, options.probeTimeoutMs), options.source ?? module)
  } finally {
    await watched.close()
  }
}
