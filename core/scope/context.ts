import type {
  Agent, AgentRegistry, Context, Disposer, EffectResult, EventMap, EventName, ListenOptions, RootServices, Scope,
  SessionStore,
} from '../contract.js'
import type { EventBus } from './events.js'
import { ERRORS } from '../contract.js'
import { FiberImpl } from './fiber.js'

/** What every context of one root shares: services, the event bus and the bound registries. */
export interface Runtime {
  readonly services: RootServices
  readonly bus: EventBus
  sessionsFor(ctx: Context): SessionStore
  agentsFor(ctx: Context): AgentRegistry
  /**
   * Observer of scope minting (the framework's plugin-creation notice): called synchronously while a
   * scope is being minted, so a test or simulator can land an abort or unload inside that window.
   */
  scopeCreated?(fiber: FiberImpl, key: unknown): void
}

/** A view of a fiber carrying a scope key and the `agent` tag (§2.1). */
export class ContextImpl implements Context {
  #sessions: SessionStore | undefined
  #agents: AgentRegistry | undefined

  constructor(
    readonly runtime: Runtime,
    readonly fiber: FiberImpl,
    readonly scopeKey: unknown,
    readonly agent: Agent | undefined,
  ) {}

  get services(): RootServices { return this.runtime.services }
  get events(): EventBus { return this.runtime.bus }
  get sessions(): SessionStore { return (this.#sessions ??= this.runtime.sessionsFor(this)) }
  get agents(): AgentRegistry { return (this.#agents ??= this.runtime.agentsFor(this)) }

  effect(execute: () => EffectResult, label?: string): Disposer {
    return this.fiber.effect(execute, label)
  }

  on<K extends EventName>(name: K, listener: EventMap[K], options?: ListenOptions): Disposer {
    return this.fiber.effect(
      () => this.runtime.bus.add(name, listener as (...args: any[]) => unknown, this.scopeKey, options),
      `listener:${name}`,
    )
  }

  extend(tags: { scopeKey?: unknown; agent?: Agent }): Context {
    return new ContextImpl(
      this.runtime,
      this.fiber,
      'scopeKey' in tags ? tags.scopeKey : this.scopeKey,
      'agent' in tags ? tags.agent : this.agent,
    )
  }

  createScope(key: unknown, name = 'scope', options: { attachToParent?: boolean } = {}): Scope {
    return createScope(this, key, name, options.attachToParent ?? true)
  }
}

/**
 * Mint a child fiber under `parent.fiber`, usable synchronously, tagged with `key` (§2.4). The child
 * is itself an effect of the parent fiber, so unloading the parent unloads it. `dispose()` is
 * memoized and resolves when the child and all its effects have finished.
 */
export function createScope(parent: ContextImpl, key: unknown, name: string, attachToParent: boolean): Scope {
  if (parent.fiber.state !== 'active') throw new Error(ERRORS.inactiveContext)
  const child = new FiberImpl(name, parent.fiber, (m, e) => parent.services.warn(m, e))
  const detachFromParent = attachToParent ? parent.fiber.effect(() => () => child.unload(), `scope:${name}`) : () => undefined
  parent.runtime.bus.linkScopeKey(key, parent.scopeKey)
  parent.runtime.scopeCreated?.(child, key)
  const ctx = new ContextImpl(parent.runtime, child, key, parent.agent)
  let disposing: Promise<void> | undefined
  return {
    ctx,
    dispose: () =>
      (disposing ??= child.unload().then(() => {
        // Retire the parent's effect for this child (its disposer is the memoized unload: harmless).
        void detachFromParent()
      })),
  }
}
