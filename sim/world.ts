/**
 * The world: one simulated process per run (design.md concept 1) — a root context, SessionStore,
 * AgentRegistry, in-memory persistence, scripted model, virtual time and counters for ids — with the
 * factory under test installed through `install`. `restart` drops the process and builds a new one
 * over the same persisted disk. Nothing survives from one run to the next.
 *
 * The world observes only through the public contract: global listeners on every event of the
 * vocabulary, the registries' `get/list`, handles, `agent.inbox` and `agent.session`.
 * @module
 */
import type { Agent, AgentHandle, Context, EventName, Scope, Session, SessionId } from '../core/contract.js'
import { EVENT_NAMES } from '../core/contract.js'
import type { InstallFactory } from '../core/cases/harness.js'
import { createUserMessage } from '../core/messages.js'
import { InMemoryPersistence } from '../core/persistence.js'
import type { PersistedSession } from '../core/persistence.js'
import { createRoot } from '../core/root.js'
import type { Root } from '../core/root.js'
import type { ContextImpl } from '../core/scope/context.js'
import { Behaviours } from './behaviours.js'
import { Operations } from './operations.js'
import type { Program } from './program.js'
import { actorOfLabel } from './ports.js'
import type { SchedulerPort } from './ports.js'
import type { InboxSnapshot, Snapshot, TraceRecorder } from './trace.js'

/** Options of {@link World}. */
export interface WorldOptions {
  readonly program: Program
  readonly install: InstallFactory
  readonly port: SchedulerPort
  readonly trace: TraceRecorder
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message
  try { return JSON.stringify(error) ?? String(error) } catch { return String(error) }
}

/** Events the world observes (the waterfall `agent/pre-step` is not observed: it is middleware, not an edge). */
const OBSERVED: readonly EventName[] = EVENT_NAMES

/** One simulated process, and its successors after `restart`. */
export class World {
  readonly program: Program
  readonly port: SchedulerPort
  readonly trace: TraceRecorder
  readonly behaviours: Behaviours
  readonly operations: Operations
  /** Persisted sessions: survives restarts within one run. */
  readonly disk = new Map<SessionId, PersistedSession>()
  /** Which process (0, then 1 after the first restart, …). */
  generation = 0
  root!: Root
  #install: InstallFactory
  #factory!: { unload(): Promise<void> }
  readonly #owners = new Map<string, Scope>()
  /** Latest successful handle per session id, in this process. */
  readonly handles = new Map<SessionId, AgentHandle>()
  readonly signals = new Map<string, AbortController>()
  /** Session objects that left the store, with their length at that moment (§5.3 check). */
  readonly #detached = new Map<Session, number>()
  #ids = 0
  #tx = 0
  #messages = 0

  constructor(options: WorldOptions) {
    this.program = options.program
    this.port = options.port
    this.trace = options.trace
    this.#install = options.install
    this.behaviours = new Behaviours(this)
    this.operations = new Operations(this)
    for (const persisted of this.program.env?.persisted ?? []) {
      this.disk.set(persisted.id, {
        header: Object.freeze({ version: 0, id: persisted.id, createdAt: 0 }),
        events: persisted.events.map((e, seq) => Object.freeze({ type: e.type, seq, time: 0, data: e.data as never })),
      })
    }
    this.#boot()
  }

  /** The root context of the current process. */
  get ctx(): Context { return this.root.ctx }

  /** Both registries right now. */
  snapshot(): Snapshot {
    return { agents: this.root.ctx.agents.list().map((a) => a.id), sessions: this.root.ctx.sessions.list().map((s) => s.id) }
  }

  /** A named owner fiber (a child plugin scope of the root), created on first use. */
  owner(name: string): Scope {
    let scope = this.#owners.get(name)
    if (!scope) {
      scope = this.root.ctx.createScope(undefined, `owner:${name}`)
      this.#owners.set(name, scope)
    }
    return scope
  }

  /** A named creation signal, created on first use. */
  signal(name: string): AbortController {
    let controller = this.signals.get(name)
    if (!controller) this.signals.set(name, (controller = new AbortController()))
    return controller
  }

  /** A fresh deterministic user message. */
  message(text: string | undefined): ReturnType<typeof createUserMessage> {
    const n = ++this.#messages
    return createUserMessage({ id: `m${n}`, content: text ?? `message ${n}` })
  }

  /** The live agent with this id, if any. */
  live(id: SessionId): Agent | undefined {
    return this.root.ctx.agents.get(id)
  }

  unloadFactory(): Promise<void> { return this.#factory.unload() }

  shutdown(): Promise<void> { return this.root.shutdown() }

  /** Persist (the disk already holds every append), drop the process, and boot a fresh one. */
  async restart(): Promise<void> {
    await this.root.shutdown()
    this.root.abandon()
    this.recordFinal()
    this.generation++
    this.#owners.clear()
    this.handles.clear()
    this.signals.clear()
    this.#boot()
  }

  /** A fresh transaction id for a create/resume invocation. */
  nextTx(): string {
    return `t${++this.#tx}`
  }

  /** Record the process's final state, and every session that grew after it left the store. */
  recordFinal(): void {
    const late: { id: string; detached: number; final: number }[] = []
    for (const [session, detached] of this.#detached) {
      if (session.seq !== detached) late.push({ id: session.id, detached, final: session.seq })
    }
    this.#detached.clear()
    this.trace.add({ k: 'final', world: this.generation, snap: this.snapshot(), late })
  }

  /** The run is over: release what the process holds (its root is never used again). */
  abandon(): void {
    this.root.abandon()
  }


  #boot(): void {
    const world = this
    const port = this.port
    this.root = createRoot({
      now: () => Date.now(),
      newId: (kind) => `${kind}-${++this.#ids}`,
      warn: (message, error) => this.trace.add({ k: 'warn', message: error === undefined ? message : `${message}: ${errorText(error)}`, world: this.generation }),
      checkpoint: (label) => port.point(label, actorOfLabel(label)),
      model: this.behaviours.model,
      persistence: (ctx) => new InMemoryPersistence(ctx, this.disk, {
        beforeLoad: (id, signal) => world.behaviours.load(id, signal),
        // The disk sees every append until the process is dropped, shutdown's included.
        subscribe: (name, listener) => { (ctx as ContextImpl).runtime.bus.add(name, listener, undefined, { global: true }) },
      }),
    })
    this.#observe(this.root)
    for (const effect of this.program.env?.effects ?? []) {
      const ctx = effect.on === 'root' ? this.root.ctx : this.owner(effect.on.slice('owner:'.length)).ctx
      this.behaviours.registerEffect(ctx, effect, `env:${effect.on}`)
    }
    for (const listener of this.program.env?.listeners ?? []) this.behaviours.registerListener(this.root.ctx, listener, 'env')
    this.#factory = this.#install(this.root.ctx)
  }

  /**
   * Global, prepended observers: they see every event before any program listener can veto it.
   * They are added to the root's bus directly, not as effects of a fiber, so they keep observing
   * while the process shuts down (the disposal edges of a shutdown or restart).
   */
  #observe(root: Root): void {
    const generation = this.generation
    for (const name of OBSERVED) {
      if (name === 'agent/pre-step') continue
      root.bus.add(name, ((a: any, b: any) => {
        if (name === 'session/event') {
          const session = a as Session
          const agent = this.root.ctx.agents.get(session.id)
          const inbox = b.type === 'agent/inbox/spliced' && agent ? inboxSnapshot(agent) : undefined
          this.trace.add({ k: 'append', id: session.id, seq: b.seq, type: b.type, data: b.data, snap: this.snapshot(), world: generation, ...(inbox ? { inbox } : {}) })
          return
        }
        const id: string = name.startsWith('session/') ? a.id : a.agent.id
        if (name === 'session/disposed') this.#detached.set(a as Session, (a as Session).seq)
        const detail = name === 'agent/status' ? a.status
          : name === 'agent/session-start' ? a.source
            : name === 'agent/inbox/claimed' ? `${a.message.id}@${a.turn}`
              : name.startsWith('agent/inbox/') ? a.message.id
                : name === 'agent/error' ? `turn ${a.turn} step ${a.step}: ${errorText(a.error)}`
                  : name === 'agent/turn-stopping' ? `turn ${a.turn}` : ''
        this.trace.add({ k: 'event', name, id, detail, snap: this.snapshot(), world: generation })
        if (name === 'session/created' && (a as Session).seq > 0) {
          // Published with history (resumed or seeded): record the durable log and the restored inbox.
          const session = a as Session
          const agent = this.root.ctx.agents.get(id)
          this.trace.add({
            k: 'resumed', id, world: generation,
            inbox: agent ? inboxSnapshot(agent) : { nextTurn: [], nextStep: [] },
            events: session.events.map((e) => ({ type: e.type, seq: e.seq, data: e.data })),
          })
        }
      }) as never, undefined, { global: true, prepend: true })
    }
  }
}

/** The live inbox projection by message id. */
export function inboxSnapshot(agent: Agent): InboxSnapshot {
  return { nextTurn: agent.inbox.nextTurn.map((m) => m.id), nextStep: agent.inbox.nextStep.map((m) => m.id) }
}
