/**
 * One agent's lifetime, from the start of its creation to the end of its teardown: the fused
 * creation signal (§3.3), the three owners (§2.6) and the memoized teardown they share (§5).
 * @module
 */
import { ERRORS } from 'dsh-lifecycle-kit'
import type { Context, Disposer, Fiber } from 'dsh-lifecycle-kit'
import type { ScratchAgent } from './agent.js'

/** True once the fiber or one of its ancestors has begun unloading (it counts as dead, §3.5). */
export function isDying(fiber: Fiber): boolean {
  for (let f: Fiber | undefined = fiber; f; f = f.parent) if (f.state !== 'active') return true
  return false
}

/** An aborted creation signal rejects with its reason if that is an Error, else wraps it (§3.3). */
export function creationAborted(id: string, reason: unknown): unknown {
  return reason instanceof Error ? reason : new Error(ERRORS.creationAborted(id), { cause: reason })
}

/**
 * The state of one create/resume from step 3 of §3.1 on. The factory drives the pipeline; this
 * object owns what every owner shares: the creation abort and the one teardown promise.
 */
export class Lifecycle {
  /** Fed by the caller's signal, the owner fiber's unload and the factory's unload; first reason wins. */
  readonly #creation = new AbortController()
  /** Rejects with the creation abort reason (observed, so never an unhandled rejection). */
  readonly aborted: Promise<never>
  agent: ScratchAgent | undefined
  /** The registry entries' detach capabilities, once entered (§3.1 step 7). */
  detachSession: (() => void) | undefined
  detachAgent: (() => void) | undefined
  /** Set just before `agent/created` is dispatched: from then on the agent may be heard of. */
  agentAnnounced = false
  #stopListening: (() => void)[] = []
  #ownerEffect: Disposer | undefined
  /** Set when the teardown retires the owner effect itself, so its body never runs again (D17). */
  #ownerEffectRetired = false
  #building: Promise<void> | undefined
  #teardown: Promise<void> | undefined

  constructor(
    readonly id: string,
    /** The caller's context: its fiber is the structural owner, its `agent` the runtime owner (§1.8). */
    readonly ownerCtx: Context,
    readonly source: 'startup' | 'resume',
    /** The factory's bookkeeping: forget this lifecycle once torn down (§5.1 step 7). */
    private readonly release: (lifecycle: Lifecycle) => void,
  ) {
    this.aborted = new Promise<never>((_, reject) => {
      this.#creation.signal.addEventListener('abort', () => reject(this.#creation.signal.reason), { once: true })
    })
    this.aborted.catch(() => undefined)
  }

  get signal(): AbortSignal { return this.#creation.signal }

  /** Abort creation; the first reason wins. */
  abort(reason: unknown): void {
    if (!this.#creation.signal.aborted) this.#creation.abort(reason)
  }

  /** Feed an outside signal (the caller's or the factory's) into the creation abort. */
  listen(signal: AbortSignal | undefined, reasonOf: (reason: unknown) => unknown): void {
    if (!signal) return
    const onAbort = (): void => this.abort(reasonOf(signal.reason))
    signal.addEventListener('abort', onAbort)
    this.#stopListening.push(() => signal.removeEventListener('abort', onAbort))
  }

  /** After publication the creation signal has no effect on the live agent (§3.3, D13). */
  stopListening(): void {
    for (const stop of this.#stopListening.splice(0)) stop()
  }

  /**
   * §2.6 caller-fiber owner: one lifecycle effect on the owner fiber. Its disposer aborts creation
   * and returns the memoized teardown, so the owner's unload waits for it.
   */
  bindOwner(): void {
    this.#ownerEffect = this.ownerCtx.effect(() => () => {
      if (this.#ownerEffectRetired) return undefined
      return this.ownerUnloaded()
    }, `agentLoop.lifecycle(${this.id})`)
  }

  /** The owner fiber unloads: abort creation and join the one teardown (D17: every owner awaits it). */
  protected ownerUnloaded(): Promise<void> | undefined {
    this.abort(new Error(ERRORS.ownerDisposed(this.id)))
    return this.teardown()
  }

  /** §3.1 step 4, recorded so a teardown that races construction waits for it (§5.1 step 2). */
  build(construct: () => ScratchAgent): ScratchAgent {
    let built!: () => void
    this.#building = new Promise<void>((resolve) => { built = resolve })
    try {
      return (this.agent = construct())
    } finally {
      built()
      this.#building = undefined
    }
  }

  /** The memoized teardown (§5.1, §1.6): every owner gets this same promise. */
  teardown(): Promise<void> {
    if (this.#teardown === undefined) {
      // Memoized before it starts: its synchronous part (the inbox clear) notifies listeners, and a
      // teardown they request must join this one, not run a second pass after agent/disposed (§9 111).
      let start!: (run: Promise<void>) => void
      this.#teardown = new Promise<void>((resolve) => { start = resolve })
      start(this.#runTeardown())
    }
    return this.#teardown
  }

  async #runTeardown(): Promise<void> {
    // Step 1. Until the first await below (after the cancel) nothing is disposed or detached, so
    // a teardown requested from inside a created/session-start listener leaves both registries
    // intact for the listeners after it (§3.5 rows M–O).
    this.abort(new Error(ERRORS.lifecycleDisposed(this.id)))
    this.stopListening()
    try {
      if (this.#building) await this.#building // step 2
      const agent = this.agent
      if (!agent) return
      agent.beginTeardown()
      // Pending work is discarded only for an announced agent: a rollback before that emits no agent
      // events (§3.5 rows E–J; a same-id loser is removed silently, L), and a discard would be one.
      const discard = this.agentAnnounced
      let clearLater = false
      try {
        agent.cancel({ kind: 'disposed' }, { keepInbox: !discard }) // step 3
      } catch {
        // §12 Q4: requested from inside a session/event observer, the clear's append would reenter.
        // Abort now; clear once the driver is quiescent.
        clearLater = true
        agent.cancel({ kind: 'disposed' }, { keepInbox: true })
      }
      await agent.ctx.services.checkpoint(`lifecycle:${this.id}:quiesce`)
      await agent.whenIdle() // step 4
      // Also what a converging driver parked meanwhile: nothing pending survives a teardown (§9 114).
      if (discard && (clearLater || agent.inbox.hasPending)) {
        try { agent.inbox.clear() } catch (error) { agent.ctx.services.warn(`agent "${this.id}": teardown could not clear the inbox`, error) }
      }
      await agent.ctx.services.checkpoint(`lifecycle:${this.id}:scope`)
      await agent.scope.dispose() // step 5
    } finally {
      try {
        this.detach() // step 6
      } finally {
        this.release(this) // step 7
        this.#ownerEffectRetired = true
        void this.#ownerEffect?.()
      }
    }
  }

  /** §5.1 step 6: `agent/disposed` if announced, then `session/disposed`, even if a listener of the first threw. */
  protected detach(): void {
    try {
      this.detachAgent?.()
    } finally {
      this.detachSession?.()
    }
  }
}
