/**
 * The adapter: what an implementer writes to certify a factory (design.md "The adapter").
 * A name, a version, a `supports` manifest for optional behaviours, and `install`, which puts a
 * fresh, isolated factory into the world it is given. The suite drives and observes only through
 * the public contract.
 * @module
 */
import type { AgentFactory, Context } from '../../core/contract.js'
import type { InstallFactory, ProcessFactory, ProcessHandle, ProcessServices } from '../../core/process.js'
import { FOREIGN_PROCESS, kitProcess } from '../../core/process.js'
import { installReferenceFactory, ReferenceFactory } from '../../core/factory/reference-factory.js'
import { CAPABILITY_NAMES } from './capabilities.js'
import type { Capabilities } from './capabilities.js'
import type { ContextImpl } from '../../core/scope/context.js'
import { stringText } from '../../sim/trace/bounded-text.js'
import { AdapterError } from './adapter-error.js'

/**
 * Optional behaviours an implementation may or may not have, and the optional capabilities of its
 * process (`capabilities.ts`): a factory adapter runs on the kit's process, which has them all; a
 * process adapter declares the ones its runtime honours (default false).
 */
export interface Supports extends Capabilities {
  /** `factory.resume` restores persisted sessions (default true). */
  readonly resume: boolean
  /** Agents expose the R-AG `queue(message)` alias (default false). */
  readonly queue: boolean
  /** Sends to an agent before publication (from setup) are rejected (default false; §12 Q6). */
  readonly rejectsSendBeforePublication: boolean
}

/** The defaults of {@link Supports}. */
export const DEFAULT_SUPPORTS: Supports = {
  resume: true, queue: false, rejectsSendBeforePublication: false,
  ...Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, false])) as unknown as Capabilities,
}

/** The kit's own process honours every capability. */
const KIT_CAPABILITIES = Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, true])) as unknown as Capabilities

/** What `install` is given: one fresh simulated process. */
export interface AdapterWorld {
  /** The process's root context: register the factory with `ctx.agents.setFactory`. */
  readonly ctx: Context
}

/** What `install` returns: how to unload the factory (the factory owner of §2.6). */
export interface InstalledAdapter {
  unload(): Promise<void>
}

/**
 * An adapter module's default export. A factory adapter gives `install` (its factory runs on the
 * kit's own registry, store and scope); a process adapter gives `process` instead and boots a whole
 * foreign runtime (its own registry, store and scope) over the services the simulator supplies.
 */
export interface Adapter {
  /** The implementation's name, e.g. `my-agent-loop`. */
  readonly name: string
  readonly version: string
  readonly supports?: Partial<Supports>
  /** Install a fresh, isolated factory into `world`; called once per run. */
  install?(world: AdapterWorld): InstalledAdapter
  /**
   * Boot a fresh, isolated process of a foreign runtime (called once per simulated process: a
   * restart boots another over the same `services.disk`). Directed cases and simulated programs
   * both run through it; declare in `supports` the capabilities (`capabilities.ts`) it honours.
   */
  process?(services: ProcessServices): ProcessHandle | Promise<ProcessHandle>
  /** One line saying which catalog entry a mutant reproduces (mutants only). */
  readonly reproduces?: string
  /**
   * Run seeds a campaign worker thread runs before the kit replaces it by a fresh one (default:
   * never). For a runtime that keeps memory in its process run after run, which only the process's
   * end frees: findings and reports do not change, and each replacement pays a worker's start-up
   * again (loading the adapter, JIT warm-up). `dsh-kit fuzz --recycle-after N` overrides it.
   */
  readonly recycleAfter?: number
}

/** An adapter with every optional field filled in. */
export interface NormalizedAdapter extends Adapter {
  readonly supports: Supports
  /**
   * The factory installer. For a process adapter it is marked with `FOREIGN_PROCESS`, so runs given
   * it boot the foreign process (calling it directly throws).
   */
  readonly installFactory: InstallFactory
  /** A process adapter (a foreign runtime booted whole) rather than a factory on the kit's process. */
  readonly foreign: boolean
  /** How each simulated process is booted. */
  readonly processFactory: ProcessFactory
}

export { AdapterError }

/** Check an adapter's shape and fill in defaults; throws {@link AdapterError} naming what is wrong. */
export function normalizeAdapter(value: unknown, source = 'adapter'): NormalizedAdapter {
  const hint = 'an adapter module must `export default { name, version, supports?, install(world) { ...; return { unload } } }` (see conformance/README.md)'
  if (typeof value !== 'object' || value === null) throw new AdapterError(`${source}: the default export is ${value === null ? 'null' : typeof value}; ${hint}`)
  const a = value as Record<string, unknown>
  if (typeof a.name !== 'string' || a.name.length === 0) throw new AdapterError(`${source}: "name" must be a non-empty string; ${hint}`)
  if (typeof a.version !== 'string') throw new AdapterError(`${source}: "version" must be a string; ${hint}`)
  if (typeof a.install !== 'function' && typeof a.process !== 'function') throw new AdapterError(`${source}: "install" must be a function (world) => { unload() } (or "process" for a foreign runtime); ${hint}`)
  if (a.supports !== undefined && (typeof a.supports !== 'object' || a.supports === null)) throw new AdapterError(`${source}: "supports" must be an object of booleans`)
  for (const [key, v] of Object.entries((a.supports ?? {}) as object)) {
    if (!(key in DEFAULT_SUPPORTS)) throw new AdapterError(`${source}: unknown supports key "${key}"; known: ${Object.keys(DEFAULT_SUPPORTS).join(', ')}`)
    if (typeof v !== 'boolean') throw new AdapterError(`${source}: supports.${key} must be a boolean`)
  }
  if (a.recycleAfter !== undefined && (typeof a.recycleAfter !== 'number' || !Number.isSafeInteger(a.recycleAfter) || a.recycleAfter < 1)) {
    throw new AdapterError(`${source}: "recycleAfter" must be an integer >= 1 (run seeds per campaign worker), got ${stringText(a.recycleAfter)}`)
  }
  const adapter = value as Adapter
  if (typeof adapter.install !== 'function') {
    const boot = adapter.process!.bind(adapter)
    const processFactory: ProcessFactory = async (services) => {
      try {
        return await boot(services)
      } catch (error) {
        throw new AdapterError(`${source}: process(services) threw: ${stringText(error)}`, { cause: error })
      }
    }
    const installFactory: InstallFactory = Object.assign(() => {
      throw new AdapterError(`${source}: a process adapter boots its own runtime; it cannot install a factory into the kit's process`)
    }, { [FOREIGN_PROCESS]: processFactory })
    return { ...adapter, supports: { ...DEFAULT_SUPPORTS, ...adapter.supports }, installFactory, processFactory, foreign: true }
  }
  for (const name of CAPABILITY_NAMES) {
    if (adapter.supports?.[name] === false) throw new AdapterError(`${source}: supports.${name} is a capability of the process; a factory adapter runs on the kit's process, which has it (only a process adapter may declare it false)`)
  }
  const install = adapter.install.bind(adapter)
  const installFactory: InstallFactory = (ctx) => {
    let installed: InstalledAdapter
    try {
      installed = install({ ctx })
    } catch (error) {
      throw new AdapterError(`${source}: install(world) threw: ${stringText(error)}; it must install a factory with ctx.agents.setFactory and return { unload }`, { cause: error })
    }
    if (typeof installed !== 'object' || installed === null || typeof installed.unload !== 'function') {
      throw new AdapterError(`${source}: install(world) must return { unload(): Promise<void> }, got ${installed === null ? 'null' : typeof installed}`)
    }
    return installed
  }
  return { ...adapter, supports: { ...DEFAULT_SUPPORTS, ...KIT_CAPABILITIES, ...adapter.supports }, installFactory, processFactory: kitProcess(installFactory), foreign: false }
}

/**
 * The one-liner for a plain `AgentFactory` running on the kit's own registry, store and scope:
 * `export default factoryAdapter({ name, version }, (pluginCtx) => new MyFactory(pluginCtx))`.
 * The factory is built in its own plugin context (a child fiber of the root); unloading the
 * adapter unloads that fiber, so register your factory-owner teardown on `pluginCtx`.
 */
export function factoryAdapter(
  meta: { name: string; version: string; supports?: Partial<Supports>; reproduces?: string },
  build: (pluginCtx: Context) => AgentFactory,
): Adapter {
  return {
    ...meta,
    install(world) {
      const scope = world.ctx.createScope(undefined, meta.name)
      scope.ctx.agents.setFactory(build(scope.ctx))
      return { unload: () => scope.dispose() }
    },
  }
}

/** An adapter for the reference factory or a subclass of it (a mutant replaces one step). */
export function referenceAdapter(
  meta: { name: string; version: string; supports?: Partial<Supports>; reproduces?: string },
  FactoryClass: new (ctx: ContextImpl) => ReferenceFactory = ReferenceFactory,
): Adapter {
  return { ...meta, install: (world) => installReferenceFactory(world.ctx, FactoryClass) }
}

/** The built-in reference factory's adapter (certified when no adapter is named). */
export const REFERENCE_ADAPTER: Adapter = referenceAdapter({ name: 'dsh-lifecycle-kit reference', version: '0.1.0', supports: { queue: true } })
