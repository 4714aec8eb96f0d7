import type { AgentRegistry, Context, Model, RootServices, SessionPersistence, SessionStore } from './contract.js'
import { AgentRegistryImpl } from './registry.js'
import { ContextImpl } from './scope/context.js'
import type { Runtime } from './scope/context.js'
import { EventBus } from './scope/events.js'
import { FiberImpl } from './scope/fiber.js'
import { SessionStoreImpl } from './session-store.js'

/** Options of {@link createRoot}: every source of time, ids and scheduling can be replaced. */
export interface RootOptions {
  /** Defaults to `Date.now`. */
  now?: () => number
  /** Defaults to a random UUID per call. */
  newId?: (kind: string) => string
  /** Defaults to `console.warn`. */
  warn?: (message: string, error?: unknown) => void
  /** Defaults to an already resolved promise. */
  checkpoint?: (label: string) => Promise<void>
  model?: Model
  /** Either a persistence, or a function building one over the root context (it needs `ctx.sessions`). */
  persistence?: SessionPersistence | ((ctx: Context) => SessionPersistence)
  /** Observer of scope minting (see `Runtime.scopeCreated`). */
  scopeCreated?: Runtime['scopeCreated']
}

/** One process: a root context with its SessionStore and AgentRegistry. */
export interface Root {
  readonly ctx: Context
  readonly services: RootServices
  readonly store: SessionStoreImpl
  readonly registry: AgentRegistryImpl
  readonly bus: EventBus
  /** Unload the root fiber: registry, store users and factory together. */
  shutdown(): Promise<void>
  /**
   * Drop the process without unloading it (a simulator's run ended): releases process-wide
   * resources such as the initiator's AsyncLocalStorage. The root must not be used afterwards.
   */
  abandon(): void
}

const resolved = Promise.resolve()

/**
 * A root's services; `persistence` is read-only to its users and attached once the root context it
 * is built over exists. A class rather than an object literal with a `persistence` getter: V8 gives
 * each such literal a map of its own in old space, which holds the getter's closure, and through it
 * the whole process, past every young-generation collection until the next full one.
 */
class Services implements RootServices {
  #persistence: SessionPersistence | undefined

  constructor(
    readonly now: () => number,
    readonly newId: (kind: string) => string,
    readonly warn: (message: string, error?: unknown) => void,
    readonly checkpoint: (label: string) => Promise<void>,
    readonly model: Model | undefined,
  ) {}

  get persistence(): SessionPersistence | undefined { return this.#persistence }

  static attach(services: Services, persistence: SessionPersistence | undefined): void {
    services.#persistence = persistence
  }
}

/** Build a fresh root context (a simulated or real process). */
export function createRoot(options: RootOptions = {}): Root {
  const warn = options.warn ?? ((message: string, error?: unknown) => console.warn(`[dsh] ${message}`, error ?? ''))
  const services = new Services(
    options.now ?? (() => Date.now()),
    options.newId ?? (() => globalThis.crypto.randomUUID()),
    warn,
    options.checkpoint ?? (() => resolved),
    options.model,
  )
  const bus = new EventBus(warn)
  const store = new SessionStoreImpl(bus, services.now)
  const rootFiber = new FiberImpl('root', undefined, warn)
  const registryFiber = new FiberImpl('agents', rootFiber, warn)
  rootFiber.effect(() => () => registryFiber.unload(), 'scope:agents')
  const registry = new AgentRegistryImpl(bus, registryFiber)
  const runtime: Runtime = {
    services,
    bus,
    sessionsFor: (ctx): SessionStore => store.bind(ctx),
    agentsFor: (ctx): AgentRegistry => registry.bind(ctx),
    ...(options.scopeCreated ? { scopeCreated: options.scopeCreated } : {}),
  }
  const ctx = new ContextImpl(runtime, rootFiber, undefined, undefined)
  Services.attach(services, typeof options.persistence === 'function' ? options.persistence(ctx) : options.persistence)
  return { ctx, services, store, registry, bus, shutdown: () => rootFiber.unload(), abandon: () => registry.initiator.abandon() }
}
