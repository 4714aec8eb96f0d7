/**
 * The agent (§1.5, §7): the live driver, inbox projection, scope and cancellation boundary around
 * one Session. Its phases (§7.1) are `idle`, `maintenance` and `running`; only `running` reads as
 * status `'running'` (§7.4).
 * @module
 */
import { ERRORS } from 'dsh-lifecycle-kit'
import type {
  Agent, AgentCancelCause, AgentOptions, AgentStatus, CancelOptions, Context, InboxTarget, Scope, Session, UserMessage,
} from 'dsh-lifecycle-kit'
import { runTurn } from './driver.js'
import type { Running, TurnHost } from './driver.js'
import { SplicedInbox } from './inbox.js'
import type { InboxListener } from './inbox.js'

interface Idle { readonly kind: 'idle'; readonly lastTurn: number }
interface Maintenance { readonly kind: 'maintenance'; readonly abort: AbortController; readonly lastTurn: number; wakeRequested: boolean }
export type Phase = Idle | Maintenance | Running

/** `maxTokens`, if present, is a positive safe integer (§1.5); checked before anything is published. */
export function checkAgentOptions(options: AgentOptions | undefined): void {
  const maxTokens = options?.maxTokens
  if (maxTokens !== undefined && !(Number.isSafeInteger(maxTokens) && maxTokens > 0)) throw new TypeError(ERRORS.maxTokens)
}

/** Turn numbering continues after the last `turn/start` of the log (§3.1 step 4, §9 44). */
function lastTurnOf(session: Session): number {
  for (let i = session.events.length - 1; i >= 0; i--) {
    const event = session.events[i]!
    if (event.type === 'turn/start') return Number((event.data as { turn?: unknown }).turn) || 0
  }
  return 0
}

/** Disposal never latches a wake (§7.2). */
function isDisposal(reason: unknown): boolean {
  return (reason as { kind?: unknown } | undefined)?.kind === 'disposed'
}

export class ScratchAgent implements Agent {
  readonly id: string
  readonly inbox: SplicedInbox
  /** The agent's scope; its teardown disposes it (§5.1 step 5). */
  readonly scope: Scope
  /** The scope's context tagged with this agent: `agent.ctx.agent === agent` (§1.5). */
  readonly ctx: Context
  #phase: Phase
  /** Resolves when the current activity retires; replaced by every new one (§7.5). */
  #activity: Promise<void> = Promise.resolve()
  #tearingDown = false
  readonly #host: TurnHost

  /**
   * §3.1 step 4: replay the inbox (throws on an invalid persisted splice, before anything
   * exists), restore the turn count, then mint the scope under the factory's context.
   */
  constructor(readonly session: Session, readonly options: AgentOptions, factoryCtx: Context) {
    this.id = session.id
    this.inbox = this.newInbox(session, {
      // Every agent/* event is routed with the agent as its scope key (§1.9).
      inserted: (message) => this.ctx.events.contained('agent/inbox/inserted', this, { agent: this, message }),
      discarded: (message) => this.ctx.events.contained('agent/inbox/discarded', this, { agent: this, message }),
      claimed: (message, turn) => this.ctx.events.contained('agent/inbox/claimed', this, { agent: this, message, turn }),
    })
    this.#phase = { kind: 'idle', lastTurn: lastTurnOf(session) }
    // Not attached to the factory fiber: the factory's unload tears agents down in the §5.1 order
    // itself instead of unwinding their scopes concurrently (D18).
    this.scope = factoryCtx.createScope(this, `agent:${this.id}`, { attachToParent: false })
    this.ctx = this.scope.ctx.extend({ agent: this })
    this.#host = { agent: this, inbox: this.inbox, ctx: this.ctx }
  }

  get status(): AgentStatus { return this.#phase.kind === 'running' ? 'running' : 'idle' }

  /** The internal phase (§7.1), for a subclass. */
  protected get phase(): Phase { return this.#phase }

  /** The current activity's promise (§7.5), for a subclass. */
  protected get activity(): Promise<void> { return this.#activity }

  /** §7.2: the one acceptance path of every input. */
  send(message: UserMessage, target: InboxTarget, wakeup: boolean): void {
    const before = this.#phase
    // Decided before inserting, so a cancel from an observer of the insertion cannot change it.
    const wakingAfterAbort = wakeup && before.kind !== 'idle' && before.abort.signal.aborted
    // §12 Q3: nothing may start on an agent whose teardown began; say so instead of parking silently.
    if (this.#tearingDown && before.kind === 'idle') throw new Error(`agent "${this.id}" is disposed`)
    this.inbox.append(wakingAfterAbort ? 'next-turn' : target, message) // durable first (§6.3)
    if (!wakeup) return
    const phase = this.#phase
    if (phase.kind === 'idle') {
      if (!this.#tearingDown) this.#startDriver()
    } else if (phase.kind === 'maintenance' || wakingAfterAbort) {
      if (!isDisposal(phase.abort.signal.reason)) phase.wakeRequested = true // latch (§7.2 step 4)
    } // running and not aborted: the live driver claims it itself
  }

  followup(message: UserMessage): void { this.send(message, 'next-turn', true) }
  steer(message: UserMessage): void { this.send(message, 'next-step', true) }
  inject(message: UserMessage): void { this.send(message, 'next-step', false) }
  queue(message: UserMessage): void { this.send(message, 'next-turn', false) }

  /** §7.3: drop pending work (unless `keepInbox`) and abort the activity; the first cause wins. */
  cancel(cause: AgentCancelCause, options: CancelOptions = {}): void {
    if (!options.keepInbox) {
      this.inbox.clear()
      if (this.#phase.kind !== 'idle') this.#phase.wakeRequested = false
    }
    const phase = this.#phase
    if (phase.kind !== 'idle' && !phase.abort.signal.aborted) phase.abort.abort(cause)
  }

  /** §7.5: wait for the current activity, and for every activity that replaced it meanwhile. */
  async whenIdle(): Promise<void> {
    let observed: Promise<void>
    do {
      observed = this.#activity
      await observed
    } while (observed !== this.#activity)
  }

  /** §7.6: a task that holds the agent (status stays `idle`); waking input is latched meanwhile. */
  runMaintenance<T>(task: (signal: AbortSignal) => T | Promise<T>): Promise<T> {
    const idle = this.#phase
    if (idle.kind !== 'idle') throw new Error(ERRORS.activeWork(this.id))
    const phase: Maintenance = { kind: 'maintenance', abort: new AbortController(), lastTurn: idle.lastTurn, wakeRequested: false }
    this.#setPhase(phase)
    const retire = this.beginActivity()
    let result: Promise<T>
    try {
      result = Promise.resolve(task(phase.abort.signal))
    } catch (error) {
      result = Promise.reject(error)
    }
    const settle = (): void => this.#converge(phase, retire)
    return result.then((value) => { settle(); return value }, (error) => { settle(); throw error })
  }

  /** Construction step of §3.1 step 4: the inbox replayed from the session (a seam for a subclass). */
  protected newInbox(session: Session, listener: InboxListener): SplicedInbox {
    return new SplicedInbox(session, listener)
  }

  /** Teardown began (§5.1): from now on waking input never starts a driver (§12 Q3). */
  beginTeardown(): void { this.#tearingDown = true }

  /** Change phase; `agent/status` only when the public status changes (§7.4). */
  #setPhase(phase: Phase): void {
    const before = this.status
    this.#phase = phase
    const status = this.status
    if (status !== before) this.ctx.events.contained('agent/status', this, { agent: this, status })
  }

  /** A new activity replaces `#activity` before the previous one resolves, so `whenIdle` follows it. */
  protected beginActivity(): () => void {
    let retire!: () => void
    this.#activity = new Promise<void>((resolve) => { retire = resolve })
    return retire
  }

  /** §7.2 step 4: a waking send from idle starts a driver synchronously. */
  #startDriver(): void {
    const idle = this.#phase
    if (idle.kind !== 'idle') return
    const running: Running = { kind: 'running', abort: new AbortController(), turn: idle.lastTurn, step: 0, wakeRequested: false }
    const retire = this.beginActivity()
    this.#setPhase(running) // emits `running`; a listener may already cancel (then no turn opens)
    try {
      this.runDriver(() => this.#drive(running, retire))
    } catch (error) {
      // §12 Q8: the initiator scope is closing. Back to idle; the input stays parked.
      this.ctx.services.warn(`agent "${this.id}" could not start its driver`, error)
      this.#converge(running, retire)
    }
  }

  /**
   * §8: the driver's whole lifetime runs inside the agent's initiator boundary, its promise returned
   * to `withInitiator` so that a draining registry waits for it (§9 141). Throws while the scope closes.
   */
  protected runDriver(drive: () => Promise<void>): void {
    void this.ctx.agents.withInitiator(this, drive)
  }

  async #drive(running: Running, retire: () => void): Promise<void> {
    try {
      while (await runTurn(this.#host, running)) this.nextTurn(running)
    } catch {
      // A cancellation, or a failure already reported as agent/error and closed in turn/end.
    } finally {
      this.#converge(running, retire)
    }
  }

  /**
   * §7.4: the turn closed normally with work pending; the next one gets a fresh activity controller
   * and clears a stale latch. But an observer of that turn's `turn/end` may have aborted the activity
   * (a teardown, §5.1 steps 3–4, or a keepInbox cancel, §7.3): that abort ends the driver like any
   * other, so no turn opens after `dispose()` began (§9 107) and the pending work parks.
   */
  protected nextTurn(running: Running): void {
    running.abort.signal.throwIfAborted()
    running.abort = new AbortController()
    running.wakeRequested = false
  }

  /**
   * An activity's convergence point: idle, then replay a latched wake (§7.2), then retire (§7.4). A
   * maintenance an `idle` listener already started holds the latch until its own convergence (a wake
   * during maintenance latches), so the latched input still runs (§7.3).
   */
  #converge(phase: Running | Maintenance, retire: () => void): void {
    const lastTurn = phase.kind === 'running' ? phase.turn : phase.lastTurn
    if (this.#phase === phase) this.#setPhase({ kind: 'idle', lastTurn })
    if (this.replaysLatch(phase)) {
      const now = this.#phase
      if (now.kind === 'maintenance' && !isDisposal(now.abort.signal.reason)) now.wakeRequested = true
      else this.#startDriver()
    }
    retire()
  }

  /** §7.2 latch replay: only with work still pending, and never once teardown began (§12 Q3, §5.1 step 4). */
  protected replaysLatch(phase: Running | Maintenance): boolean {
    return phase.wakeRequested && this.inbox.hasPending && !this.#tearingDown
  }
}
