import { setMaxListeners } from 'node:events'
import { ERRORS } from '../contract.js'
import type {
  AgentFactory, AgentHandle, AgentOptions, AgentSetup, AgentSetupCommit, Context, CreateAgentOptions, Fiber,
  OwnerContext, ResumeAgentOptions, Session, SessionPreparation,
} from '../contract.js'
import { ReferenceAgent, validateAgentOptions } from '../agent.js'
import type { ContextImpl } from '../scope/context.js'
import { Transaction } from './transaction.js'
import type { TeardownTrigger } from './transaction.js'

/** True when the fiber or one of its ancestors has begun unloading. */
export function fiberDying(fiber: Fiber): boolean {
  for (let f: Fiber | undefined = fiber; f; f = f.parent) if (f.state !== 'active') return true
  return false
}

/** The rejection value for an aborted creation signal: the reason if an Error, else a wrapping Error (§3.3). */
export function creationAbortReason(id: string, reason: unknown): unknown {
  return reason instanceof Error ? reason : new Error(ERRORS.creationAborted(id), { cause: reason })
}

function isCommit(value: unknown): value is AgentSetupCommit {
  return typeof value === 'object' && value !== null && typeof (value as AgentSetupCommit).commit === 'function'
}

/**
 * The reference factory: the create and resume pipeline of §3, the rollback paths of §3.5 and the
 * memoized teardown of §5.1 shared by the handle, the owner fiber and the factory.
 *
 * Each pipeline step is a protected method (`prepareSession`, `loadPreparation`, `begin`,
 * `construct`, `runSetup`, `publish`, `runTeardown`) so a variant (the conformance suite's mutants)
 * can replace exactly one step by subclassing.
 */
export class ReferenceFactory implements AgentFactory {
  #active = true
  /** Aborted with `agent loop is not active` when the factory unloads. */
  protected readonly factorySignal = new AbortController()
  /** Every transaction and live agent this factory made and has not yet torn down. */
  protected readonly tracked = new Set<Transaction>()
  readonly #pending = new Set<Promise<unknown>>()

  /** @param ctx the factory's own plugin context (agent scopes are minted under it). */
  constructor(readonly ctx: ContextImpl) {
    // Every pending or live transaction listens to the factory signal; many agents are normal.
    setMaxListeners(0, this.factorySignal.signal)
  }

  get active(): boolean { return this.#active }

  createAgent(ownerCtx: OwnerContext, options: CreateAgentOptions): Promise<AgentHandle> {
    return this.#track(this.runCreate(ownerCtx, options))
  }

  resume(ownerCtx: OwnerContext, options: ResumeAgentOptions): Promise<AgentHandle> {
    return this.#track(this.runResume(ownerCtx, options))
  }

  /**
   * The factory owner (§2.6): stop accepting, abort the factory signal, tear down every tracked
   * transaction and agent, and await every pending public create/resume promise.
   */
  async shutdown(): Promise<void> {
    this.#active = false
    this.factorySignal.abort(new Error(ERRORS.loopInactive))
    await Promise.all([...this.tracked].map((tx) => this.teardown(tx, 'factory')))
    await Promise.allSettled([...this.#pending])
  }

  protected async runCreate(ownerCtx: OwnerContext, options: CreateAgentOptions): Promise<AgentHandle> {
    if (typeof options !== 'object' || options === null) throw new TypeError('create options must be an object')
    const session = this.prepareSession(ownerCtx, options)
    const tx = this.begin(ownerCtx, options.sessionId, 'startup', options)
    return this.setupAndPublish(tx, session, options.agentOptions, options.setup)
  }

  protected async runResume(ownerCtx: OwnerContext, options: ResumeAgentOptions): Promise<AgentHandle> {
    if (typeof options !== 'object' || options === null) throw new TypeError('resume options must be an object')
    const id = options.resumeSessionId
    if (!ownerCtx.services.persistence) throw new Error(ERRORS.noPersistence)
    validateAgentOptions(options.agentOptions)
    const preparation = await this.loadPreparation(ownerCtx, id, options.signal)
    try {
      const tx = this.begin(ownerCtx, id, 'resume', options)
      return await this.setupAndPublish(tx, preparation.session, options.agentOptions, options.setup)
    } finally {
      preparation[Symbol.dispose]()
    }
  }

  /** Create step 2: validate and prepare the unpublished session. */
  protected prepareSession(ownerCtx: OwnerContext, options: CreateAgentOptions): Session {
    const prepareOptions: Parameters<Context['sessions']['prepare']>[1] = {}
    if (options.meta !== undefined) prepareOptions.meta = options.meta
    if (options.seed !== undefined) prepareOptions.seed = options.seed
    return ownerCtx.sessions.prepare(options.sessionId, prepareOptions)
  }

  /**
   * Resume steps R2–R5: load a preparation bounded by the caller signal, owner unload and factory
   * teardown. A preparation that arrives after the race was lost is released immediately.
   */
  protected async loadPreparation(ownerCtx: OwnerContext, id: string, signal: AbortSignal | undefined): Promise<SessionPreparation> {
    const persistence = ownerCtx.services.persistence!
    if (fiberDying(ownerCtx.fiber)) throw new Error(ERRORS.inactiveContext)
    if (!this.#active) throw new Error(ERRORS.loopInactive)
    if (signal?.aborted) throw creationAbortReason(id, signal.reason)
    const load = new AbortController()
    const abort = (reason: unknown): void => { if (!load.signal.aborted) load.abort(reason) }
    const onCaller = (): void => abort(creationAbortReason(id, signal!.reason))
    const onFactory = (): void => abort(this.factorySignal.signal.reason)
    signal?.addEventListener('abort', onCaller)
    this.factorySignal.signal.addEventListener('abort', onFactory)
    let settled = false
    const temporary = ownerCtx.effect(() => () => { if (!settled) abort(new Error(ERRORS.ownerDisposed(id))) }, `agentLoop.resume(${id})`)
    const aborted = new Promise<never>((_, reject) => {
      load.signal.addEventListener('abort', () => reject(load.signal.reason), { once: true })
    })
    aborted.catch(() => undefined)
    const loading = new Promise<SessionPreparation>((resolve) => resolve(persistence.prepare(id, load.signal)))
    try {
      return await Promise.race([loading, aborted])
    } catch (error) {
      loading.then((late) => late[Symbol.dispose](), () => undefined)
      throw error
    } finally {
      settled = true
      signal?.removeEventListener('abort', onCaller)
      this.factorySignal.signal.removeEventListener('abort', onFactory)
      void temporary()
    }
  }

  /**
   * Create step 3: validate, check liveness, fuse the owners and bind the teardown to all three
   * owners before any resource exists.
   */
  protected begin(ownerCtx: OwnerContext, id: string, source: 'startup' | 'resume', options: { agentOptions?: AgentOptions; signal?: AbortSignal }): Transaction {
    validateAgentOptions(options.agentOptions)
    if (fiberDying(ownerCtx.fiber)) throw new Error(ERRORS.inactiveContext)
    if (!this.#active) throw new Error(ERRORS.loopInactive)
    const signal = options.signal
    if (signal?.aborted) throw creationAbortReason(id, signal.reason)
    const tx = new Transaction(id, ownerCtx, source)
    if (signal) {
      const onAbort = (): void => tx.abort(creationAbortReason(id, signal.reason))
      signal.addEventListener('abort', onAbort)
      tx.onStopListening(() => signal.removeEventListener('abort', onAbort))
    }
    const onFactory = (): void => tx.abort(this.factorySignal.signal.reason)
    this.factorySignal.signal.addEventListener('abort', onFactory)
    tx.onStopListening(() => this.factorySignal.signal.removeEventListener('abort', onFactory))
    this.tracked.add(tx)
    tx.ownerEffect = ownerCtx.effect(
      () => () => (tx.ownerEffectRetired ? undefined : this.ownerUnloading(tx)),
      `agentLoop.lifecycle(${id})`,
    )
    return tx
  }

  /** The owner fiber's lifecycle effect body: abort creation, then join the memoized teardown. */
  protected ownerUnloading(tx: Transaction): Promise<void> {
    tx.abort(new Error(ERRORS.ownerDisposed(tx.id)))
    return this.teardown(tx, 'owner')
  }

  /** Steps 4–11: construct, await setup, commit and publish; roll back on every failure. */
  protected async setupAndPublish(tx: Transaction, session: Session, agentOptions: AgentOptions | undefined, setup: AgentSetup | undefined): Promise<AgentHandle> {
    tx.session = session
    try {
      tx.agent = this.construct(tx, session, agentOptions ?? {})
    } catch (error) {
      tx.settleConstruction()
      void this.teardown(tx, 'rollback')
      throw error
    }
    tx.settleConstruction()
    this.noticeUnloadDuringConstruction(tx)
    if (tx.controller.signal.aborted) {
      // Aborted during construction: reject now; the provisional scope quiesces in the background.
      void this.teardown(tx, 'rollback')
      throw tx.reason
    }
    try {
      const commit = await this.runSetup(tx, setup)
      this.publish(tx, commit)
    } catch (error) {
      await this.teardown(tx, 'rollback')
      throw error
    }
    tx.published = true
    tx.stopListening()
    return this.handleFor(tx, tx.agent)
  }

  /**
   * An owner that began unloading (or a factory that went inactive) during construction, e.g. from
   * an observer of the scope minting, is dead here: setup must not run (§3.1, §3.5 note; §9 104).
   */
  protected noticeUnloadDuringConstruction(tx: Transaction): void {
    if (tx.controller.signal.aborted) return
    if (fiberDying(tx.ownerCtx.fiber)) tx.abort(new Error(ERRORS.ownerDisposed(tx.id)))
    // The factory's own unload has begun even if its owner effect has not run yet (a microtask later).
    else if (!this.#active || fiberDying(this.ctx.fiber)) tx.abort(new Error(ERRORS.loopInactive))
  }

  /** The consumer's handle (§1.6): its `dispose` is the memoized teardown. */
  protected handleFor(tx: Transaction, agent: ReferenceAgent): AgentHandle {
    return { agent, dispose: () => this.teardown(tx, 'handle') }
  }

  /** Step 4: the agent (inbox replay, last turn, scope minted under the factory context). */
  protected construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
    return new ReferenceAgent(session, agentOptions, this.ctx)
  }

  /** Step 5: call setup synchronously, then race its result against the fused abort. */
  protected async runSetup(tx: Transaction, setup: AgentSetup | undefined): Promise<AgentSetupCommit | undefined> {
    const agent = tx.agent!
    const result = setup ? setup(agent.ctx) : undefined
    // If creation is abandoned, setup's own promise is never awaited: observe it so its late
    // rejection is not an unhandled rejection (§3.3: setup's promise is abandoned).
    if (result && typeof (result as PromiseLike<unknown>).then === 'function') Promise.resolve(result).catch(() => undefined)
    if (tx.controller.signal.aborted) throw tx.reason
    await this.checkpoint(`factory:${tx.id}:setup`)
    const value = await Promise.race([Promise.resolve(result), tx.aborted])
    this.assertLive(tx)
    return isCommit(value) ? value : undefined
  }

  /** Steps 6–10: commit, enter both registries, announce in order, with liveness re-checks. */
  protected publish(tx: Transaction, commit: AgentSetupCommit | undefined): void {
    const agent = tx.agent!
    const session = tx.session!
    commit?.commit()
    this.assertLive(tx)
    this.enterEntries(tx, agent, session)
    agent.ctx.sessions.announce(session)
    this.recheckAfterEdge(tx)
    this.announceAgent(tx, agent)
    this.recheckAfterEdge(tx)
    this.emitSessionStart(tx, agent)
    this.recheckAfterEdge(tx)
  }

  /** §3.1 step 8: enter the session, then the agent, recording each detach capability as soon as it exists. */
  protected enterEntries(tx: Transaction, agent: ReferenceAgent, session: Session): void {
    tx.detachSession = agent.ctx.sessions.enter(session)
    tx.detachAgent = agent.ctx.agents.enter(agent, tx.ownerCtx.agent)
  }

  /** §3.1 step 9: `agent/created`, exactly once per entry. */
  protected announceAgent(tx: Transaction, agent: ReferenceAgent): void {
    tx.agentAnnounced = true
    agent.ctx.agents.announce(agent)
  }

  /** §3.1 step 10: `agent/session-start` with the agent itself, its listeners contained (§1.9). */
  protected emitSessionStart(tx: Transaction, agent: ReferenceAgent): void {
    this.ctx.events.contained('agent/session-start', agent, { agent, source: tx.source })
  }

  /** Liveness re-checked after each publication edge (§3.1 steps 9–10: a listener may have unloaded an owner). */
  protected recheckAfterEdge(tx: Transaction): void {
    this.assertLive(tx)
  }


  /** A liveness re-check (§3.1): a dying owner, an inactive factory or an abort ends publication. */
  protected assertLive(tx: Transaction): void {
    if (!tx.controller.signal.aborted) {
      if (fiberDying(tx.ownerCtx.fiber)) tx.abort(new Error(ERRORS.ownerDisposed(tx.id)))
      // The factory's own unload has begun even if its owner effect has not run yet (a microtask later).
      else if (!this.#active || fiberDying(this.ctx.fiber)) tx.abort(new Error(ERRORS.loopInactive))
    }
    if (tx.controller.signal.aborted) throw tx.reason
  }

  /** The memoized teardown (§5.1): every owner gets the same promise. */
  teardown(tx: Transaction, trigger: TeardownTrigger): Promise<void> {
    if (tx.teardownPromise) return tx.teardownPromise
    if (tx.teardownJoin !== undefined) {
      // Requested again before the first request's promise exists: from a listener its synchronous
      // inbox clear notified. A second pass would tear down again after agent/disposed (§9 111).
      if (tx.teardownJoin === 'starting') {
        let resolve!: (p: Promise<void>) => void
        tx.teardownJoin = { promise: new Promise<void>((r) => { resolve = r }), resolve }
      }
      return tx.teardownJoin.promise
    }
    tx.teardownJoin = 'starting'
    let promise: Promise<void>
    try {
      promise = this.runTeardown(tx, trigger)
    } catch (error) {
      // Only a variant's non-async override can throw here.
      promise = Promise.reject(error)
    }
    tx.teardownPromise = promise
    // (Listeners may have replaced 'starting' with a join while runTeardown ran.)
    const join = tx.teardownJoin as Transaction['teardownJoin']
    tx.teardownJoin = undefined
    if (join !== undefined && join !== 'starting') join.resolve(promise)
    return promise
  }

  /**
   * §5.1: abort creation → cancel `{kind:'disposed'}` → await whenIdle → dispose the scope →
   * detach agent → detach session → release bookkeeping. Steps 6–7 always run. Each step a variant
   * may change is a method of its own ({@link discardsInbox}, {@link cancelForTeardown},
   * {@link disposeScope}, {@link detachEntries}, {@link release}); all but the scope's run
   * synchronously, so splitting them adds no scheduling hop.
   */
  protected async runTeardown(tx: Transaction, trigger: TeardownTrigger): Promise<void> {
    tx.abort(new Error(ERRORS.lifecycleDisposed(tx.id)))
    tx.stopListening()
    try {
      if (!tx.constructionSettled) await tx.whenConstructed()
      const agent = tx.agent
      if (agent) {
        agent.markTornDown()
        const discard = this.discardsInbox(tx)
        let clearDeferred = false
        try {
          this.cancelForTeardown(tx, agent, !discard)
        } catch (error) {
          // §12 Q4: requested from inside a session/event observer the durable clear would reenter
          // the append; abort now and clear once the driver is quiescent.
          clearDeferred = true
          agent.cancel({ kind: 'disposed' }, { keepInbox: true })
        }
        await this.checkpoint(`factory:${tx.id}:quiesce`)
        await agent.whenIdle()
        // Also clear what landed while the clear above ran inside a splice's own observer (the live
        // lists lag the durable log there, §6.3) or while the driver was converging (§5.1 step 3).
        if (clearDeferred || (discard && agent.inbox.hasPending)) {
          try { agent.inbox.clear() } catch (error) { this.ctx.services.warn(`agent "${tx.id}" could not clear its inbox during teardown`, error) }
        }
        await this.checkpoint(`factory:${tx.id}:scope`)
        await this.disposeScope(tx, agent)
      }
    } finally {
      this.release(tx, trigger)
    }
  }

  /**
   * Whether teardown discards the pending inbox (§5.1 step 3). A rollback before the agent's
   * announcement began emits no agent events (§3.5 rows E–J and L, §3.6 rule 3: a never-announced entry
   * leaves silently), so an agent nobody was told about keeps its (resumed) inbox: its
   * `agent/inbox/discarded` would be the first event anyone hears of it.
   */
  protected discardsInbox(tx: Transaction): boolean {
    return tx.agentAnnounced
  }

  /** §5.1 step 3: cancel with the `disposed` cause, aborting the activity (and clearing the inbox unless `keepInbox`). */
  protected cancelForTeardown(_tx: Transaction, agent: ReferenceAgent, keepInbox: boolean): void {
    agent.cancel({ kind: 'disposed' }, keepInbox ? { keepInbox: true } : {})
  }

  /** §5.1 step 5: the agent-scoped registrations unwind; teardown awaits the returned promise. */
  protected disposeScope(_tx: Transaction, agent: ReferenceAgent): Promise<void> {
    return agent.scope.dispose()
  }

  /** §5.1 steps 6–7, always run: detach the entries, then release the factory's bookkeeping. */
  protected release(tx: Transaction, trigger: TeardownTrigger): void {
    try {
      this.detachEntries(tx, trigger)
    } finally {
      this.tracked.delete(tx)
      tx.ownerEffectRetired = true
      void tx.ownerEffect?.()
    }
  }

  /** §5.1 step 6: `detachAgent()` (→ `agent/disposed` if announced), then `detachSession()` even if the first threw. */
  protected detachEntries(tx: Transaction, _trigger: TeardownTrigger): void {
    try {
      tx.detachAgent?.()
    } finally {
      tx.detachSession?.()
    }
  }

  protected checkpoint(label: string): Promise<void> {
    return this.ctx.services.checkpoint(label)
  }

  #track(promise: Promise<AgentHandle>): Promise<AgentHandle> {
    this.#pending.add(promise)
    const forget = (): void => { this.#pending.delete(promise) }
    promise.then(forget, forget)
    return promise
  }
}

/** A factory installed as a plugin: its own fiber, the factory owner effect, and the registry slot. */
export interface InstalledFactory<F extends AgentFactory = AgentFactory> {
  readonly factory: F
  /** The factory's plugin context. */
  readonly ctx: Context
  /** Unload the factory plugin (HMR): tears down every agent it made. */
  unload(): Promise<void>
}

/**
 * Install a reference factory (or a subclass: a mutant) as a plugin under `parentCtx`: a child
 * fiber holding the factory-owner effect and the `setFactory` registration.
 */
export function installReferenceFactory<F extends ReferenceFactory>(
  parentCtx: Context,
  FactoryClass: new (ctx: ContextImpl) => F = ReferenceFactory as unknown as new (ctx: ContextImpl) => F,
): InstalledFactory<F> {
  const scope = parentCtx.createScope(undefined, 'agent-loop')
  const factory = new FactoryClass(scope.ctx as ContextImpl)
  scope.ctx.effect(() => () => factory.shutdown(), 'agentLoop.factory')
  scope.ctx.agents.setFactory(factory)
  return { factory, ctx: scope.ctx, unload: () => scope.dispose() }
}
