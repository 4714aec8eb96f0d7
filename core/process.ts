/**
 * A process: everything a test harness or simulator needs from one running instance of an agent
 * runtime, whether it is the kit's own (`kitProcess`, over `createRoot` and a factory installed on
 * it) or a foreign runtime with its own registry, store and scope (an adapter's `process`).
 * @module
 */
import type { Agent, AgentOptions, Context, EventMap, EventName, Fiber, Model, SessionId, SessionPersistence, SessionPreparation } from './contract.js'
import { InMemoryPersistence } from './persistence.js'
import type { InMemoryPersistenceOptions, PersistedSession } from './persistence.js'
import { createRoot } from './root.js'
import type { Root, RootOptions } from './root.js'
import type { ContextImpl } from './scope/context.js'

/** Installs a factory into a root context and returns how to unload it (the factory owner). */
export type InstallFactory = (ctx: Context) => { unload(): Promise<void> }

/** What the harness or simulator supplies to a process: every source of time, ids, I/O and waiting. */
export interface ProcessServices {
  /** Time for session events and headers (virtual in a simulation). */
  now(): number
  /** Deterministic ids (`message-1`, …). */
  newId(kind: string): string
  /** Where contained failures are reported. */
  warn(message: string, error?: unknown): void
  /** A scheduling point the runtime may await at its own awaits (resolves at once outside a simulation). */
  checkpoint(label: string): Promise<void>
  /** The model every agent of the process calls. */
  model: Model
  /** The persisted sessions; it outlives the process (a restart boots a new one over the same disk). */
  disk: Map<SessionId, PersistedSession>
  /** Called before each persistence load with the load's signal: a simulator makes loads slow, fail or hang. */
  beforeLoad?(id: SessionId, signal: AbortSignal | undefined): Promise<void>
  /**
   * Observer of scope minting, called synchronously inside each `createScope` with the new child
   * fiber and its scope key (an agent's scope is keyed by the agent object): a simulator plays
   * behaviours there. Optional for a process to honour: a foreign process may ignore it.
   */
  scopeCreated?(fiber: Fiber, key: unknown): void
  /**
   * Called after a load built its preparation and before it is handed over, ignoring the load's
   * signal: models a provider whose preparation arrives after the caller gave up (it must then be
   * released). Optional for a process to honour (capability `preparations`).
   */
  afterLoad?(id: SessionId): Promise<void>
  /**
   * Called when a load hands out a preparation; the process calls the returned function when that
   * preparation is released (disposed). Optional for a process to honour (capability `preparations`).
   */
  prepared?(id: SessionId): () => void
  /**
   * `false` boots the process with no session persistence configured (a resume then rejects with
   * the not-configured error). Optional for a process to honour (capability `noPersistence`).
   */
  persistence?: boolean
}

/** One running process, as a harness or simulator drives and observes it. */
export interface ProcessHandle {
  /** The root context programs act through: `agents`, `sessions`, `on`, `effect`. */
  readonly ctx: Context
  /**
   * Observe an event globally, before any other listener, for the whole life of the process —
   * including its shutdown (an observer that is an effect of the root would be removed by it).
   */
  observe<K extends EventName>(name: K, listener: EventMap[K]): void
  /** A named owner: a child plugin context whose fiber owns what is created through it. Created on first use. */
  owner(name: string): { readonly ctx: Context; unload(): Promise<void> }
  /** Unload the factory plugin (the factory owner of §2.6). */
  unloadFactory(): Promise<void>
  /** Unload the whole process (registry, store and factory together). */
  shutdown(): Promise<void>
  /** Release process-wide resources without unloading (the run is over). */
  abandon(): void
  /**
   * The process dies without shutdown (§3.4, §6): no teardown, no disposal event, and nothing
   * reaches `services.disk` any more; what was appended durably before stays. The simulator stops
   * resuming the process's own waits and boots a new one over the same disk. Optional (capability
   * `crash`): a process without it cannot be crashed, and a program's `crash` is skipped.
   */
  crash?(): void
  /** Defaults merged into every create/resume's `agentOptions` (e.g. a provider/model route). */
  readonly agentOptions?: AgentOptions
  /**
   * `agentEvents(ctx, agent).emit(name, payload)` of §9 18: dispatch an agent event through `ctx`
   * carried with `agent`'s scope key (contained: listener failures are logged). Optional
   * (capability `agentEvents`).
   */
  agentEvents?(ctx: Context, agent: Agent): { emit<K extends EventName>(name: K, payload: Parameters<EventMap[K]>[0]): void }
  /**
   * `scopeOf(ctx)` (§2): the scope key a context carries, for a runtime whose contexts do not
   * expose it as `ctx.scopeKey`. Optional.
   */
  scopeOf?(ctx: Context): unknown
  /**
   * `ctx.createScope(key, name)` (§2) for a runtime whose contexts mint scopes another way (e.g. a
   * free `createScope(ctx, key)`). Optional.
   */
  createScope?(ctx: Context, key: unknown, name?: string): { readonly ctx: Context; dispose(): Promise<void> }
  /** The kit's own root, when the process is the kit's (kit-level hooks use it). */
  readonly root?: Root
}

/** Boots a process. A foreign runtime may need to await its plugins. */
export type ProcessFactory = (services: ProcessServices) => ProcessHandle | Promise<ProcessHandle>

/**
 * Marks an `InstallFactory` that stands for a whole foreign process: every place that takes an
 * installer (runs, campaigns, shrinking, replay) then boots that process instead of the kit's.
 */
export const FOREIGN_PROCESS: unique symbol = Symbol.for('dsh-lifecycle-kit.foreign-process')

/** An installer standing for a foreign process (see {@link FOREIGN_PROCESS}). */
export type ForeignInstall = InstallFactory & { readonly [FOREIGN_PROCESS]: ProcessFactory }

/** A persistence whose loads report to the services' `afterLoad` and `prepared` hooks. */
function observedPersistence(inner: SessionPersistence, services: ProcessServices): SessionPersistence {
  if (!services.afterLoad && !services.prepared) return inner
  return {
    async prepare(id, signal): Promise<SessionPreparation> {
      const preparation = await inner.prepare(id, signal)
      const released = services.prepared?.(id)
      if (services.afterLoad) await services.afterLoad(id)
      return {
        session: preparation.session,
        [Symbol.dispose]() { released?.(); preparation[Symbol.dispose]() },
      }
    },
  }
}

/** Options of {@link kitProcess}. */
export interface KitProcessOptions extends Pick<RootOptions, 'scopeCreated'> {
  /** Build the persistence over the disk (default an {@link InMemoryPersistence}); a variant may replace it. */
  readonly persistence?: (ctx: Context, disk: Map<SessionId, PersistedSession>, options: InMemoryPersistenceOptions) => SessionPersistence
}

/**
 * The kit's own process: `createRoot` with in-memory persistence over the disk, and `install`'s
 * factory. A scope-minting observer of `options` and one of the services are both called (the
 * options' first).
 */
export function kitProcess(install: InstallFactory, options: KitProcessOptions = {}): ProcessFactory {
  const foreign = (install as Partial<ForeignInstall>)[FOREIGN_PROCESS]
  if (foreign) return foreign
  return (services) => {
    const observers: Array<NonNullable<RootOptions['scopeCreated']>> = []
    if (options.scopeCreated) observers.push(options.scopeCreated)
    if (services.scopeCreated) observers.push((fiber, key) => services.scopeCreated!(fiber, key))
    // Set by crash(): the dead process's store no longer reaches the disk.
    let crashed = false
    const root = createRoot({
      now: services.now,
      newId: services.newId,
      warn: services.warn,
      checkpoint: services.checkpoint,
      model: services.model,
      ...(services.persistence === false ? {} : { persistence: (ctx: Context) => observedPersistence((options.persistence ?? ((c, disk, o) => new InMemoryPersistence(c, disk, o)))(ctx, services.disk, {
        ...(services.beforeLoad ? { beforeLoad: services.beforeLoad } : {}),
        // The disk sees every append until the process is dropped, shutdown's included.
        subscribe: (name, listener) => { (ctx as ContextImpl).runtime.bus.add(name, (...args: any[]) => { if (!crashed) listener(...args) }, undefined, { global: true }) },
      }), services) }),
      ...(observers.length === 1 ? { scopeCreated: observers[0]! }
        : observers.length > 1 ? { scopeCreated: (fiber, key) => { for (const observe of observers) observe(fiber, key) } } : {}),
    })
    const factory = install(root.ctx)
    const owners = new Map<string, { ctx: Context; unload(): Promise<void> }>()
    return {
      ctx: root.ctx,
      root,
      observe: (name, listener) => { root.bus.add(name, listener as (...args: any[]) => unknown, undefined, { global: true, prepend: true }) },
      owner: (name) => {
        let owner = owners.get(name)
        if (!owner) {
          const scope = root.ctx.createScope(undefined, `owner:${name}`)
          owner = { ctx: scope.ctx, unload: () => scope.dispose() }
          owners.set(name, owner)
        }
        return owner
      },
      agentEvents: (ctx, agent) => ({
        emit: (name, payload) => { void ctx.events.contained(name, agent, ...([{ ...(payload as object), agent }] as unknown as Parameters<EventMap[typeof name]>)) },
      }),
      unloadFactory: () => factory.unload(),
      shutdown: () => root.shutdown(),
      abandon: () => root.abandon(),
      crash: () => { crashed = true; root.abandon() },
    }
  }
}
