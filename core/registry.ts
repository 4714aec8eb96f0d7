import { ERRORS } from './contract.js'
import type { Agent, AgentFactory, AgentHandle, AgentRegistry, Context, Disposer, SessionId } from './contract.js'
import type { EventBus } from './scope/events.js'
import type { FiberImpl } from './scope/fiber.js'
import { InitiatorScope } from './initiator.js'

interface Entry {
  readonly agent: Agent
  readonly owner: Agent | undefined
  /** Stable routing carrier reused for `created` and `disposed` (§4 step 2). */
  readonly carrier: Agent
  announced: boolean
  announcing: boolean
  detachRequested: boolean
  removed: boolean
}

/**
 * The registry of live agents (§1.7, §4) with the factory slot and the initiator scope (§8).
 * One per root; `bind(ctx)` is the `ctx.agents` view for which `ctx` is the caller.
 */
export class AgentRegistryImpl {
  readonly #entries = new Map<SessionId, Entry>()
  #factory: AgentFactory | undefined
  readonly initiator = new InitiatorScope()

  /**
   * @param fiber the registry's own fiber: when it or an ancestor starts unloading the initiator
   * scope starts closing synchronously; its teardown effect drains and disables the scope.
   */
  constructor(private readonly bus: EventBus, fiber: FiberImpl) {
    for (let f: FiberImpl | undefined = fiber; f; f = f.parent) {
      f.onStateChange((state) => { if (state !== 'active') this.initiator.close() })
    }
    fiber.effect(() => () => this.initiator.dispose(), 'agents.initiator')
  }

  /** The `ctx.agents` view bound to a caller context. */
  bind(ctx: Context): AgentRegistry {
    return {
      register: (agent) => this.register(ctx, agent),
      enter: (agent, owner) => this.enter(agent, owner),
      announce: (agent) => this.announce(agent),
      get: (id) => this.get(id),
      isOwnedBy: (id, owner) => this.isOwnedBy(id, owner),
      list: () => this.list(),
      roots: () => this.roots(),
      setFactory: (factory) => this.setFactory(ctx, factory),
      create: (options) => this.#withFactory((f) => f.createAgent(ctx, options)),
      resume: (options) => this.#withFactory((f) => f.resume(ctx, options)),
      currentInitiator: () => this.initiator.current(),
      requireInitiator: () => this.initiator.require(),
      withInitiator: (agent, op) => this.initiator.run(agent, op),
      withoutInitiator: (op) => this.initiator.run(undefined, op),
    }
  }

  register(ctx: Context, agent: Agent): Disposer {
    const registry = this
    return ctx.effect(function* () {
      yield registry.enter(agent, ctx.agent)
      registry.announce(agent)
    }, `agents.register(${agent.id})`)
  }

  enter(agent: Agent, owner: Agent | undefined): () => void {
    if (agent.id !== agent.session.id) throw new Error(ERRORS.agentIdMismatch(agent.id, agent.session.id))
    if (this.#entries.has(agent.id)) throw new Error(ERRORS.agentRegistered(agent.id))
    const entry: Entry = { agent, owner, carrier: agent, announced: false, announcing: false, detachRequested: false, removed: false }
    this.#entries.set(agent.id, entry)
    let called = false
    return () => {
      if (called) return
      called = true
      if (entry.announcing) entry.detachRequested = true
      else this.#remove(entry)
    }
  }

  announce(agent: Agent): void {
    const entry = this.#entries.get(agent.id)
    if (!entry || entry.agent !== agent) throw new Error(ERRORS.agentNotLive(agent.id))
    if (entry.announced || entry.announcing) throw new Error(ERRORS.agentAnnounced(agent.id))
    entry.announced = entry.announcing = true
    try {
      this.bus.veto('agent/created', entry.carrier, { agent })
    } finally {
      entry.announcing = false
      if (entry.detachRequested) this.#remove(entry)
    }
  }

  get(id: SessionId): Agent | undefined { return this.#entries.get(id)?.agent }

  isOwnedBy(id: SessionId, owner: Agent): boolean {
    const entry = this.#entries.get(id)
    return entry !== undefined && entry.owner !== undefined && entry.owner === owner
  }

  list(): Agent[] { return [...this.#entries.values()].map((e) => e.agent) }

  roots(): Agent[] { return [...this.#entries.values()].filter((e) => e.owner === undefined).map((e) => e.agent) }

  setFactory(ctx: Context, factory: AgentFactory): Disposer {
    const shape = factory as Partial<AgentFactory> | null
    if (typeof shape !== 'object' || shape === null || typeof shape.createAgent !== 'function' || typeof shape.resume !== 'function') {
      const got = shape === null ? 'null' : typeof shape !== 'object' ? `${typeof shape} ${String(shape)}` : `an object with ${['createAgent', 'resume'].filter((m) => typeof (shape as any)[m] !== 'function').join(' and ')} missing`
      throw new TypeError(`setFactory(factory): expected an AgentFactory { createAgent(ownerCtx, options), resume(ownerCtx, options) }, got ${got}`)
    }
    if (this.#factory) throw new Error(ERRORS.factoryOccupied)
    return ctx.effect(() => {
      this.#factory = factory
      return () => { if (this.#factory === factory) this.#factory = undefined }
    }, 'agents.setFactory')
  }

  /** The registered factory, if any. */
  get factory(): AgentFactory | undefined { return this.#factory }

  #withFactory(call: (factory: AgentFactory) => Promise<AgentHandle>): Promise<AgentHandle> {
    const factory = this.#factory
    if (!factory) return Promise.reject(new Error(ERRORS.noFactory))
    try {
      return call(factory)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /** Effective removal: exact entry only; paired `agent/disposed` iff announced (contained). */
  #remove(entry: Entry): void {
    if (entry.removed) return
    entry.removed = true
    if (this.#entries.get(entry.agent.id) === entry) this.#entries.delete(entry.agent.id)
    if (entry.announced) this.bus.contained('agent/disposed', entry.carrier, { agent: entry.agent })
  }
}
