import type { Context, Disposer, Session } from '../contract.js'
import type { ReferenceAgent } from '../agent.js'

/** Which owner triggered (or joined first) a teardown. */
export type TeardownTrigger = 'handle' | 'owner' | 'factory' | 'rollback'

/**
 * The state of one create/resume transaction and, after publication, of the live agent it made.
 * The reference factory's steps read and write it; a mutant that replaces one step sees the same.
 */
export class Transaction {
  readonly #signal: { aborted: boolean; reason: unknown } = { aborted: false, reason: undefined }
  #reject: ((reason: unknown) => void) | undefined
  /**
   * The fused creation controller: caller signal, owner unload and factory teardown (§3.1 step 3),
   * read as an AbortController's signal. It never leaves the factory, so it is a plain record and
   * not an AbortController, whose creation and abort event cost about 3% of a quick certification's
   * CPU; {@link abort} aborts it.
   */
  readonly controller: { readonly signal: { readonly aborted: boolean; readonly reason: unknown } } = { signal: this.#signal }
  /** Rejects with the controller's reason when it aborts (observed, so never unhandled). */
  readonly aborted: Promise<never>
  agent: ReferenceAgent | undefined
  session: Session | undefined
  detachSession: (() => void) | undefined
  detachAgent: (() => void) | undefined
  /** Set just before `agent/created` is dispatched (§3.6 rule 2: announcement began, even if a listener vetoes). */
  agentAnnounced = false
  /** The lifecycle effect on the owner fiber (`agentLoop.lifecycle(<id>)`). */
  ownerEffect: Disposer | undefined
  /** Set just before the teardown retires the owner effect, so its body does not run again. */
  ownerEffectRetired = false
  teardownPromise: Promise<void> | undefined
  /**
   * While the first teardown request runs its synchronous part (its inbox clear notifies listeners
   * that may request teardown again), the requests it receives join it through this promise.
   */
  teardownJoin: { readonly promise: Promise<void>; readonly resolve: (p: Promise<void>) => void } | 'starting' | undefined
  /** True once construction returned or threw (teardown waits for it, §5.1 step 2). */
  constructionSettled = false
  #constructionWaiters: (() => void)[] = []
  published = false
  readonly #cleanups: (() => void)[] = []

  constructor(
    readonly id: string,
    readonly ownerCtx: Context,
    readonly source: 'startup' | 'resume',
  ) {
    this.aborted = new Promise<never>((_, reject) => {
      this.#reject = reject
    })
    this.aborted.catch(() => undefined)
  }

  /** Abort the transaction; the first reason wins. {@link aborted} rejects at once, as an abort listener would. */
  abort(reason: unknown): void {
    const signal = this.#signal
    if (signal.aborted) return
    signal.aborted = true
    // (as AbortController.abort() does without a reason)
    signal.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason
    this.#reject!(signal.reason)
  }

  get reason(): unknown { return this.#signal.reason }

  /** Register a listener removal to run when the transaction stops listening to its signals. */
  onStopListening(cleanup: () => void): void { this.#cleanups.push(cleanup) }

  /** Stop listening to the caller signal and the factory signal (teardown step 1, and after return). */
  stopListening(): void {
    for (const cleanup of this.#cleanups.splice(0)) cleanup()
  }

  settleConstruction(): void {
    this.constructionSettled = true
    for (const waiter of this.#constructionWaiters.splice(0)) waiter()
  }

  whenConstructed(): Promise<void> {
    if (this.constructionSettled) return Promise.resolve()
    return new Promise((resolve) => this.#constructionWaiters.push(resolve))
  }
}
