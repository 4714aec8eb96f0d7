/**
 * The factory (§1.8): the create and resume pipeline of §3.1, publication in the order of §3.2
 * with its liveness re-checks, the rollbacks of §3.5 and the factory owner of §2.6.
 * @module
 */
import { setMaxListeners } from 'node:events'
import { ERRORS } from 'dsh-lifecycle-kit'
import type {
  AgentFactory, AgentHandle, AgentOptions, AgentSetup, AgentSetupCommit, Context, CreateAgentOptions, OwnerContext,
  PrepareSessionOptions, ResumeAgentOptions, Session, SessionPersistence, SessionPreparation,
} from 'dsh-lifecycle-kit'
import { ScratchAgent, checkAgentOptions } from './agent.js'
import { Lifecycle, creationAborted, isDying } from './lifecycle.js'

/** What create and resume have in common once the session is prepared. */
interface Creation {
  agentOptions?: AgentOptions
  signal?: AbortSignal
  setup?: AgentSetup
}

function isCommit(value: unknown): value is AgentSetupCommit {
  return typeof value === 'object' && value !== null && typeof (value as AgentSetupCommit).commit === 'function'
}

export class ScratchFactory implements AgentFactory {
  #active = true
  /** The factory signal: aborted with `agent loop is not active` when the factory unloads (§2.6). */
  readonly #unloaded = new AbortController()
  /** Every lifecycle begun and not yet torn down, pending or live. */
  readonly #lifecycles = new Set<Lifecycle>()
  /** Public create/resume promises not yet settled; the factory's unload awaits them. */
  readonly #pending = new Set<Promise<AgentHandle>>()

  /**
   * @param ctx the factory's own plugin context: agent scopes are minted under it, and its unload
   *   is the factory owner of every agent this factory makes.
   */
  constructor(readonly ctx: Context) {
    setMaxListeners(0, this.#unloaded.signal) // every pending creation listens to it; many is normal
    ctx.effect(() => () => this.#unload(), 'agentLoop.factory')
  }

  createAgent(ownerCtx: OwnerContext, options: CreateAgentOptions): Promise<AgentHandle> {
    return this.#track(this.#create(ownerCtx, options))
  }

  resume(ownerCtx: OwnerContext, options: ResumeAgentOptions): Promise<AgentHandle> {
    return this.#track(this.#resume(ownerCtx, options))
  }

  async #create(ownerCtx: OwnerContext, options: CreateAgentOptions): Promise<AgentHandle> {
    // Step 2: the session, validated and unpublished (`session "<id>" already exists`, bad cwd, bad seed).
    const prepare: PrepareSessionOptions = {}
    if (options.meta !== undefined) prepare.meta = options.meta
    if (options.seed !== undefined) prepare.seed = options.seed
    const session = ownerCtx.sessions.prepare(options.sessionId, prepare)
    return this.#setupAndPublish(ownerCtx, session, 'startup', options)
  }

  async #resume(ownerCtx: OwnerContext, options: ResumeAgentOptions): Promise<AgentHandle> {
    const persistence = ownerCtx.services.persistence
    if (!persistence) throw new Error(ERRORS.noPersistence) // R1
    checkAgentOptions(options.agentOptions)
    const preparation = await this.#load(persistence, ownerCtx, options.resumeSessionId, options.signal)
    try {
      return await this.#setupAndPublish(ownerCtx, preparation.session, 'resume', options)
    } finally {
      preparation[Symbol.dispose]() // after publication or rollback (§1.4)
    }
  }

  /**
   * Resume R2–R4: the load is bounded by the caller's signal, the owner's unload (a temporary
   * effect) and the factory's unload. A preparation arriving after the race was lost is released.
   */
  async #load(persistence: SessionPersistence, ownerCtx: OwnerContext, id: string, signal: AbortSignal | undefined): Promise<SessionPreparation> {
    this.#checkCanBegin(ownerCtx, id, signal)
    const load = new AbortController()
    const stop = (reason: unknown): void => { if (!load.signal.aborted) load.abort(reason) }
    const onCaller = (): void => stop(creationAborted(id, signal!.reason))
    const onFactory = (): void => stop(this.#unloaded.signal.reason)
    signal?.addEventListener('abort', onCaller)
    this.#unloaded.signal.addEventListener('abort', onFactory)
    let loading = true
    const ownerWatch = ownerCtx.effect(() => () => { if (loading) stop(new Error(ERRORS.ownerDisposed(id))) }, `agentLoop.resume(${id})`)
    const lost = new Promise<never>((_, reject) => load.signal.addEventListener('abort', () => reject(load.signal.reason), { once: true }))
    lost.catch(() => undefined)
    const arriving = (async () => persistence.prepare(id, load.signal))()
    try {
      return await Promise.race([arriving, lost])
    } catch (error) {
      this.releaseLate(arriving)
      throw error
    } finally {
      loading = false
      signal?.removeEventListener('abort', onCaller)
      this.#unloaded.signal.removeEventListener('abort', onFactory)
      void ownerWatch() // R4
    }
  }

  /** R3: a preparation that arrives after the load's race was lost is released, never published (§1.4). */
  protected releaseLate(arriving: Promise<SessionPreparation>): void {
    arriving.then((late) => late[Symbol.dispose](), () => undefined)
  }

  /** Steps 3–11, shared by create and resume. */
  async #setupAndPublish(ownerCtx: OwnerContext, session: Session, source: 'startup' | 'resume', options: Creation): Promise<AgentHandle> {
    const lifecycle = this.#begin(ownerCtx, session.id, source, options)
    // Step 4. A failure or an abort during construction rejects at once; the provisional scope
    // quiesces in the background (its owners still await it, §3.5 rows A–D).
    let agent: ScratchAgent
    try {
      agent = lifecycle.build(() => this.newAgent(session, options.agentOptions ?? {}))
      this.checkLive(lifecycle) // e.g. an owner unloaded by an observer of the scope's minting (§9 104)
    } catch (error) {
      void lifecycle.teardown()
      throw error
    }
    try {
      const commit = await this.#runSetup(lifecycle, agent, options.setup)
      this.#publish(lifecycle, agent, session, commit)
    } catch (error) {
      await this.rollback(lifecycle)
      throw error
    }
    lifecycle.stopListening() // the creation signal is creation-only (§3.3)
    return { agent, dispose: () => lifecycle.teardown() } // step 11; the handle is an owner (§1.6)
  }

  /** Rows E–O of §3.5: the public promise rejects only after the rollback (the teardown) settled. */
  protected rollback(lifecycle: Lifecycle): Promise<void> {
    return lifecycle.teardown()
  }

  /**
   * Step 3: check, then bind the lifecycle to its three owners before any resource exists: the
   * caller's signal, the factory (tracked, and its signal) and the owner fiber (the lifecycle effect).
   */
  #begin(ownerCtx: OwnerContext, id: string, source: 'startup' | 'resume', options: Creation): Lifecycle {
    checkAgentOptions(options.agentOptions)
    this.#checkCanBegin(ownerCtx, id, options.signal)
    const lifecycle = this.newLifecycle(id, ownerCtx, source, (done) => this.#lifecycles.delete(done))
    lifecycle.listen(options.signal, (reason) => creationAborted(id, reason))
    lifecycle.listen(this.#unloaded.signal, (reason) => reason)
    this.#lifecycles.add(lifecycle)
    lifecycle.bindOwner()
    return lifecycle
  }

  /** The lifecycle of one create/resume (a seam: a subclass may bring its own). */
  protected newLifecycle(id: string, ownerCtx: OwnerContext, source: 'startup' | 'resume', release: (done: Lifecycle) => void): Lifecycle {
    return new Lifecycle(id, ownerCtx, source, release)
  }

  /** Step 4: the agent, its inbox replayed and its scope minted under the factory's context (a seam). */
  protected newAgent(session: Session, options: AgentOptions): ScratchAgent {
    return new ScratchAgent(session, options, this.ctx)
  }

  /** Rows B and C of §3.5, and a factory that already unloaded. */
  #checkCanBegin(ownerCtx: OwnerContext, id: string, signal: AbortSignal | undefined): void {
    if (isDying(ownerCtx.fiber)) throw new Error(ERRORS.inactiveContext)
    if (!this.#active) throw new Error(ERRORS.loopInactive)
    if (signal?.aborted) throw creationAborted(id, signal.reason)
  }

  /** Step 5: setup is called synchronously, then raced against the creation abort. */
  async #runSetup(lifecycle: Lifecycle, agent: ScratchAgent, setup: AgentSetup | undefined): Promise<AgentSetupCommit | undefined> {
    const result = setup?.(agent.ctx)
    // An abandoned setup (creation aborted first) may still reject later: not an unhandled rejection.
    Promise.resolve(result).catch(() => undefined)
    lifecycle.signal.throwIfAborted() // setup aborted its own creation synchronously (§9 69)
    await agent.ctx.services.checkpoint(`lifecycle:${lifecycle.id}:setup`)
    const value = await this.awaitSetup(result, lifecycle)
    this.checkLive(lifecycle) // also when setup resolved just before an owner unload (§9 101)
    return isCommit(value) ? value : undefined
  }

  /** §3.3: setup is raced against the creation abort, so an abort rejects promptly even if setup never settles. */
  protected awaitSetup(result: ReturnType<AgentSetup>, lifecycle: Lifecycle): Promise<void | AgentSetupCommit> {
    return Promise.race([result, lifecycle.aborted])
  }

  /**
   * Steps 6–10, in one synchronous run: commit, enter both registries, then the three creation
   * edges, re-checking liveness after each (a listener may have unloaded an owner, rows M–O).
   */
  #publish(lifecycle: Lifecycle, agent: ScratchAgent, session: Session, commit: AgentSetupCommit | undefined): void {
    commit?.commit() // step 6: same tick as the first publication edge
    this.checkLive(lifecycle)
    this.enter(lifecycle, agent, session) // step 7
    agent.ctx.sessions.announce(session) // step 8: session/created (veto)
    this.checkLive(lifecycle)
    lifecycle.agentAnnounced = true // announcement begins before the dispatch, veto or not (§3.6 rule 2)
    agent.ctx.agents.announce(agent) // step 9: agent/created (veto)
    this.checkLive(lifecycle)
    this.ctx.events.contained('agent/session-start', agent, { agent, source: lifecycle.source }) // step 10
    this.checkLive(lifecycle)
  }

  /**
   * Step 7 through agent.ctx, so the session's events are routed with the agent as scope key (§1.9).
   * Either enter may lose a same-id race (row L); record each detach as soon as it exists.
   */
  protected enter(lifecycle: Lifecycle, agent: ScratchAgent, session: Session): void {
    lifecycle.detachSession = agent.ctx.sessions.enter(session)
    lifecycle.detachAgent = agent.ctx.agents.enter(agent, lifecycle.ownerCtx.agent) // the runtime owner (§1.8 (7))
  }

  /**
   * The liveness re-check of §3.1: an owner fiber that began unloading, a factory that stopped, or
   * any creation abort ends publication, even before the owner's own effect has run.
   */
  protected checkLive(lifecycle: Lifecycle): void {
    if (isDying(lifecycle.ownerCtx.fiber)) lifecycle.abort(new Error(ERRORS.ownerDisposed(lifecycle.id)))
    else if (!this.#active || isDying(this.ctx.fiber)) lifecycle.abort(new Error(ERRORS.loopInactive))
    lifecycle.signal.throwIfAborted()
  }

  /**
   * §2.6 factory owner: stop accepting, abort every pending creation, tear down every agent this
   * factory made, and await every public create/resume promise still pending (§1.8 (10)).
   */
  async #unload(): Promise<void> {
    this.#active = false
    this.#unloaded.abort(new Error(ERRORS.loopInactive))
    await Promise.all([...this.#lifecycles].map((lifecycle) => lifecycle.teardown()))
    await Promise.allSettled([...this.#pending])
  }

  #track(promise: Promise<AgentHandle>): Promise<AgentHandle> {
    this.#pending.add(promise)
    const settled = (): void => { this.#pending.delete(promise) }
    promise.then(settled, settled)
    return promise
  }
}
