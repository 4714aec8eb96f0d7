import { ERRORS } from './contract.js'
import type {
  Agent, AgentCancelCause, AgentOptions, AgentStatus, CancelOptions, Context, InboxTarget, Session, UserMessage,
} from './contract.js'
import { runTurn } from './driver.js'
import type { DriverHost } from './driver.js'
import { InboxImpl } from './inbox.js'
import type { InboxNotifier } from './inbox.js'
import { isDisposedCause } from './phases.js'
import type { MaintenancePhase, Phase, RunningPhase } from './phases.js'
import type { ContextImpl } from './scope/context.js'
import type { Scope } from './contract.js'

/** Validates `agentOptions` (§1.5): `maxTokens`, if present, is a positive safe integer. */
export function validateAgentOptions(options: AgentOptions | undefined): void {
  if (options === undefined) return
  if (typeof options !== 'object' || options === null) throw new TypeError('agentOptions must be an object')
  const { maxTokens } = options
  if (maxTokens !== undefined && !(Number.isSafeInteger(maxTokens) && maxTokens > 0)) throw new TypeError(ERRORS.maxTokens)
}

function lastTurnOf(session: Session): number {
  const events = session.events
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    if (event.type === 'turn/start') return Number((event.data as { turn?: unknown }).turn) || 0
  }
  return 0
}

/**
 * The reference agent (§1.5, §7): phases idle/maintenance/running, the unified `send` path with
 * wake latching and reclassification, `cancel`, identity-following `whenIdle` and maintenance.
 */
export class ReferenceAgent implements Agent {
  readonly id: string
  readonly inbox: InboxImpl
  readonly ctx: Context
  /** The agent's scope (the factory disposes it during teardown). */
  readonly scope: Scope
  #phase: Phase
  #activityDone: Promise<void> = Promise.resolve()
  #tornDown = false
  readonly #host: DriverHost

  /**
   * Replays the inbox (may throw `invalid persisted inbox splice …`), restores the last turn, then
   * mints the agent's scope under `parentCtx` with the agent as scope key (§3.1 step 4).
   */
  constructor(readonly session: Session, readonly options: AgentOptions, parentCtx: ContextImpl) {
    this.id = session.id
    const bus = parentCtx.runtime.bus
    this.inbox = this.createInbox(session, {
      inserted: (message) => bus.contained('agent/inbox/inserted', this, { agent: this, message }),
      discarded: (message) => bus.contained('agent/inbox/discarded', this, { agent: this, message }),
      claimed: (message, turn) => bus.contained('agent/inbox/claimed', this, { agent: this, message, turn }),
    })
    this.#phase = { kind: 'idle', lastTurn: lastTurnOf(session) }
    this.scope = parentCtx.createScope(this, `agent:${this.id}`, { attachToParent: false })
    this.ctx = this.scope.ctx.extend({ agent: this })
    this.#host = { agent: this, session, inbox: this.inbox, bus, services: parentCtx.services, maxTokens: options.maxTokens }
  }

  get status(): AgentStatus { return this.#phase.kind === 'running' ? 'running' : 'idle' }

  send(message: UserMessage, target: InboxTarget, wakeup: boolean): void {
    const before = this.#phase
    // Computed before insertion so a reentrant cancel from an observer cannot reclassify it (§7.2).
    const wakingAfterAbort = wakeup && before.kind !== 'idle' && before.abort.signal.aborted
    if (this.#tornDown && before.kind === 'idle') throw new Error(`agent "${this.id}" is disposed`)
    this.inbox.append(wakingAfterAbort ? 'next-turn' : target, message)
    if (!wakeup) return
    const phase = this.#phase
    if (phase.kind === 'idle') {
      if (!this.#tornDown) this.startDriver()
    } else if (phase.kind === 'maintenance' || (phase.kind === 'running' && wakingAfterAbort)) {
      if (!isDisposedCause(phase.abort.signal.reason)) phase.wakeRequested = true
    }
  }

  followup(message: UserMessage): void { this.send(message, 'next-turn', true) }
  steer(message: UserMessage): void { this.send(message, 'next-step', true) }
  inject(message: UserMessage): void { this.send(message, 'next-step', false) }
  queue(message: UserMessage): void { this.send(message, 'next-turn', false) }

  cancel(cause: AgentCancelCause, options: CancelOptions = {}): void {
    if (!options.keepInbox) {
      this.inbox.clear()
      if (this.#phase.kind !== 'idle') this.#phase.wakeRequested = false
    }
    const phase = this.#phase
    if (phase.kind !== 'idle' && !phase.abort.signal.aborted) phase.abort.abort(cause)
  }

  async whenIdle(): Promise<void> {
    let observed: Promise<void>
    do {
      observed = this.#activityDone
      await observed
    } while (observed !== this.#activityDone)
  }

  runMaintenance<T>(task: (signal: AbortSignal) => T | Promise<T>): Promise<T> {
    const before = this.#phase
    if (before.kind !== 'idle') throw new Error(ERRORS.activeWork(this.id))
    const phase: MaintenancePhase = { kind: 'maintenance', abort: new AbortController(), lastTurn: before.lastTurn, wakeRequested: false }
    this.#phase = phase
    const done = this.replaceActivity()
    let result: Promise<T>
    try {
      result = Promise.resolve(task(phase.abort.signal))
    } catch (error) {
      result = Promise.reject(error)
    }
    const settle = (): void => {
      if (this.#phase === phase) this.#phase = { kind: 'idle', lastTurn: phase.lastTurn }
      this.replayLatch(phase.wakeRequested)
      done()
    }
    return result.then((value) => { settle(); return value }, (error) => { settle(); throw error })
  }

  /** Teardown has begun: waking input no longer starts a driver once idle (§12 Q3). */
  markTornDown(): void { this.#tornDown = true }

  // Protected seams for variants (the conformance suite's mutants replace one piece by subclassing).
  // The state itself stays in native private fields, so calling a method through a foreign receiver
  // (a Proxy) still fails exactly as it did before these seams existed.

  /** The current internal phase (§7.1). */
  protected get phase(): Phase { return this.#phase }
  protected set phase(phase: Phase) { this.#phase = phase }
  /** The promise resolved when the current activity retires (§7.5). */
  protected get activityDone(): Promise<void> { return this.#activityDone }
  /** True once teardown began (§12 Q3). */
  protected get tornDown(): boolean { return this.#tornDown }
  /** What the turn driver is given. */
  protected get host(): DriverHost { return this.#host }

  /** Build the inbox (called once, from the constructor). */
  protected createInbox(session: Session, notify: InboxNotifier): InboxImpl {
    return new InboxImpl(session, notify)
  }

  /** Run one turn of the driver (§10.1). */
  protected runTurn(phase: RunningPhase): Promise<boolean> {
    return runTurn(this.#host, phase)
  }

  protected replaceActivity(): () => void {
    let resolve!: () => void
    this.#activityDone = new Promise<void>((r) => { resolve = r })
    return resolve
  }

  protected setPhase(phase: Phase): void {
    const before = this.status
    this.#phase = phase
    const after = this.status
    if (before !== after) this.#host.bus.contained('agent/status', this, { agent: this, status: after })
  }

  /** Start a driver synchronously from idle (§7.2 step 4). */
  protected startDriver(): void {
    const idle = this.#phase
    if (idle.kind !== 'idle') return
    const phase: RunningPhase = { kind: 'running', abort: new AbortController(), turn: idle.lastTurn, step: 0, wakeRequested: false }
    const done = this.replaceActivity()
    this.setPhase(phase)
    if (this.#phase !== phase) { done(); return }
    try {
      void this.ctx.agents.withInitiator(this, () => this.drive(phase, done))
    } catch (error) {
      // §12 Q8: the initiator scope is closing; return to idle and leave the item parked.
      this.#host.services.warn(`agent "${this.id}" could not start its driver`, error)
      if (this.#phase === phase) this.setPhase({ kind: 'idle', lastTurn: phase.turn })
      done()
    }
  }

  protected async drive(phase: RunningPhase, done: () => void): Promise<void> {
    try {
      while (await this.runTurn(phase)) { /* next turn */ }
    } catch {
      // Cancellation, or a failure already reported as agent/error and closed in turn/end.
    } finally {
      if (this.#phase === phase) this.setPhase({ kind: 'idle', lastTurn: phase.turn })
      this.replayLatch(phase.wakeRequested)
      done()
    }
  }

  /**
   * At an activity's convergence: a latched wake with pending work starts a new driver (§7.2). When
   * a listener of the exit's `idle` already started a maintenance, that maintenance holds the latch
   * and replays it at its own convergence (a wake during maintenance latches, §7.2 step 4): the
   * latched send still runs after convergence (§7.3).
   */
  protected replayLatch(wakeRequested: boolean): void {
    if (!wakeRequested || !this.inbox.hasPending || this.#tornDown) return
    const phase = this.#phase
    if (phase.kind === 'idle') this.startDriver()
    else if (phase.kind === 'maintenance' && !isDisposedCause(phase.abort.signal.reason)) phase.wakeRequested = true
  }
}
