/**
 * The world: one simulated process per run (design.md concept 1) — a root context, SessionStore,
 * AgentRegistry, persistence, scripted model, virtual time and counters for ids — with the factory
 * under test installed (or a whole foreign runtime booted) through a {@link ProcessFactory}.
 * `restart` drops the process and boots a new one over the same persisted disk; `crash` kills it
 * without shutdown (nothing of it runs afterwards: every wait it is parked at never resumes) and
 * boots a new one over the disk as the dead process left it. Nothing survives from one run to the next.
 *
 * The world observes only through the public contract: observers on every event of the
 * vocabulary, the registries' `get/list`, handles, `agent.inbox` and `agent.session`.
 * @module
 */
import type { Agent, AgentHandle, AgentOptions, Context, Disposer, EventName, Fiber, Session, SessionId } from '../../core/contract.js'
import { EVENT_NAMES } from '../../core/contract.js'
import { createUserMessage } from '../../core/messages.js'
import type { PersistedSession } from '../../core/persistence.js'
import type { ProcessFactory, ProcessHandle } from '../../core/process.js'
import { Behaviours } from './behaviours.js'
import { CrashUnsupported } from './crash.js'
import type { StubEntry, WorldHost } from './world-host.js'
import { Operations } from '../operations/operations.js'
import { OWNERSHIP_MARK, probeOwnership } from './ownership-probe.js'
import type { Program } from '../program/program.js'
import { actorOfLabel } from './ports.js'
import type { SchedulerPort } from './ports.js'
import type { Snapshot, TraceRecorder } from '../trace/trace.js'
import { never } from './never.js'
import { SettledProbe } from './settled-probe.js'
import { cut, errorText } from '../trace/bounded-text.js'
import { GATE_MARK } from './surface-marks.js'
import { Gates } from './gates.js'
import { registrySnapshot } from './registry-snapshot.js'
import { containsOperation } from '../program/contains-operation.js'
import { RunLifetime } from './run-lifetime.js'
import { inboxMessageId, inboxSnapshot } from './inbox-payload.js'

/** Options of {@link World}. */
export interface WorldOptions {
  readonly program: Program
  /** Boots each process of the run (the kit's own, with the factory under test, or a foreign runtime). */
  readonly process: ProcessFactory
  readonly port: SchedulerPort
  readonly trace: TraceRecorder
}


/** Events the world observes (the waterfall `agent/pre-step` is not observed: it is middleware, not an edge). */
const OBSERVED: readonly EventName[] = EVENT_NAMES

/** One simulated process, and its successors after `restart`. */
export class World implements WorldHost {
  readonly program: Program
  readonly port: SchedulerPort
  readonly trace: TraceRecorder
  readonly behaviours: Behaviours
  readonly operations: Operations
  /** Persisted sessions: survives restarts within one run. */
  readonly disk = new Map<SessionId, PersistedSession>()
  /** Which process (0, then 1 after the first restart, …). */
  generation = 0
  /** The current process. */
  process!: ProcessHandle
  readonly #boot: ProcessFactory
  /** Latest successful handle per session id, in this process. */
  readonly handles = new Map<SessionId, AgentHandle>()
  /**
   * For each handle of {@link handles}: the owner its create/resume was called through (the name as
   * the invoke entry states it, and its context), in this process.
   */
  readonly handleOwners = new Map<SessionId, { readonly name: string; readonly ctx: Context }>()
  /** Per actor, the handle its own latest create or resume of each id returned, kept after disposal (this process). */
  readonly keptHandles = new Map<string, Map<SessionId, AgentHandle>>()
  /** Disposers of the stub agents registered by `register` operations, in this process. */
  readonly stubs = new Map<SessionId, Disposer>()
  /** Stubs entered by `enter` operations, per id in enter order, in this process. */
  readonly entered = new Map<SessionId, StubEntry[]>()
  readonly signals = new Map<string, AbortController>()
  /** Ids a resume was marked for with a persisted length (their later loads are marked even at 0). */
  readonly persistedMarked = new Set<SessionId>()
  /** Session objects that left the store, with their length at that moment (§5.3 check). */
  readonly #detached = new Map<Session, number>()
  /** Agents whose `agent/disposed` was observed: their later events belong to no lifecycle. */
  readonly #retired = new WeakSet<Agent>()
  /** Retired agents the program sent to through a kept handle (§12 Q3): their later events are flagged so. */
  readonly #sentAfterDisposal = new WeakSet<Agent>()
  /**
   * Sessions whose disposed agent the program sent to through a kept handle, with their length at
   * the first such send after the session's own detach (-1 while it is not detached yet).
   */
  readonly #sentAt = new Map<Session, number>()
  /** Stub agents the program registered (`register`): not drivers, so probes leave them out. */
  readonly stubAgents = new WeakSet<Agent>()
  /** Stub agents the program entered (`enter`): their events are marked as the stub's. */
  readonly enteredStubs = new WeakSet<Agent>()
  /** Maintenance tasks the program started and whose `runMaintenance` promise has not settled, per agent. */
  readonly maintaining = new Map<Agent, number>()
  /** Per agent, the `whenIdle()` a probe called last and whether it settled. */
  /** Trace length at the last probe: with nothing recorded since, the state is the same. */
  /** Sessions whose log has a `turn/start` not yet closed by its `turn/end` (seen by the observer). */
  readonly #openTurns = new WeakMap<Session, boolean>()
  /** Whether the program has a `crash` anywhere (an actor's list, a nested op, a behaviour's action). */
  readonly mayCrash: boolean
  /** Generations that crashed, each with the resolver of {@link crashedAt}'s promise. */
  readonly #crashed = new Set<number>()
  readonly #crashSignals = new Map<number, { promise: Promise<void>; resolve: () => void }>()
  /** The program's gates (`openGate`, `wait`, gated loads and preparations), for the whole run. */
  readonly #gates = new Gates()
  /** The restart in flight of each process generation: a second restart of that process joins it. */
  readonly #restarts = new Map<number, Promise<void>>()
  #ids = 0
  #tx = 0
  #lastSnapshot: Snapshot | undefined
  #messages = 0
  /** A number per object the world has recorded a fact about, in the order it first saw them. */
  readonly #serials = new WeakMap<object, number>()
  #serial = 0
  /** Per dispatched payload (an event's argument), the entry that recorded its dispatch. */
  readonly #dispatches = new WeakMap<object, number>()
  /** Activity signals watched for their abort. */
  readonly #watched = new WeakSet<AbortSignal>()
  /** The abort listeners the world put on the code under test's signals, removed at the run's end. */
  readonly #lifetime = new RunLifetime()
  /** Per agent, how many events about it (its own, its session's appends) the world observed. */
  readonly #news = new WeakMap<Agent, number>()

  private constructor(options: WorldOptions) {
    this.program = options.program
    this.mayCrash = containsOperation(options.program, 'crash')
    this.port = options.port
    this.trace = options.trace
    this.#boot = options.process
    this.behaviours = new Behaviours(this)
    this.operations = new Operations(this)
    for (const persisted of this.program.env?.persisted ?? []) {
      this.disk.set(persisted.id, {
        header: Object.freeze({ version: 0, id: persisted.id, createdAt: 0, ...persisted.header }),
        events: persisted.events.map((e, seq) => Object.freeze({ type: e.type, seq, time: 0, data: e.data as never })),
      })
    }
  }

  /** Build a world and boot its first process. */
  static async create(options: WorldOptions): Promise<World> {
    const world = new World(options)
    await world.#start()
    const probe = new SettledProbe(world, world.#openTurns, (agent) => world.#news.get(agent) ?? 0)
    options.port.onSettled?.((turn, last) => probe.take(turn, last))
    return world
  }

  /** The root context of the current process. */
  get ctx(): Context { return this.process.ctx }

  /** Defaults the process wants in every create/resume's `agentOptions`. */
  get agentOptions(): AgentOptions | undefined { return this.process.agentOptions }

  /** Both registries right now. */
  snapshot(): Snapshot {
    return (this.#lastSnapshot = registrySnapshot(this.ctx.agents.list(), this.ctx.sessions.list(), this.#lastSnapshot))
  }

  /** A named owner (a child plugin context of the root), created on first use. */
  owner(name: string): { readonly ctx: Context; unload(): Promise<void> } {
    return this.process.owner(name)
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
    return this.ctx.agents.get(id)
  }

  unloadFactory(): Promise<void> { return this.process.unloadFactory() }

  shutdown(): Promise<void> { return this.process.shutdown() }

  /**
   * Persist (the disk already holds every append), drop the process, and boot a fresh one. A restart
   * requested while this process is already restarting joins that restart (one shutdown, one final
   * state, one new process), as two requests to restart one machine do.
   */
  restart(): Promise<void> {
    const generation = this.generation
    let restarting = this.#restarts.get(generation)
    if (!restarting) this.#restarts.set(generation, (restarting = this.#restartOf(this.process, generation)))
    return restarting
  }

  async #restartOf(process: ProcessHandle, generation: number): Promise<void> {
    await process.shutdown()
    // A crash during the shutdown already replaced the process: nothing is left to restart.
    if (this.generation !== generation) return
    process.abandon()
    this.recordFinal()
    await this.#nextProcess()
  }

  /**
   * Kill the process without shutdown (§3.4, §6): no teardown, no disposal event; the process stops
   * writing to the disk, the waits it is parked at never resume, and the operations in flight in it
   * end unrecorded (their callers died with it). A new process boots over the disk. The snapshot of
   * the dead process's registries as it died is returned (the crash's outcome states it).
   * Throws when the process cannot crash (no `crash` method: capability `crash`).
   */
  async crash(): Promise<Snapshot> {
    if (!this.process.crash) throw new CrashUnsupported()
    const generation = this.generation
    this.#crashed.add(generation)
    this.process.crash()
    const snap = this.snapshot()
    this.recordFinal(true)
    this.#crashSignal(generation).resolve()
    await this.#nextProcess()
    return snap
  }

  /** Forget the old process's handles, stubs and signals and boot the next one over the disk. */
  async #nextProcess(): Promise<void> {
    this.generation++
    this.handles.clear()
    this.handleOwners.clear()
    this.keptHandles.clear()
    this.stubs.clear()
    this.entered.clear()
    this.signals.clear()
    await this.#start()
  }

  /** Whether the process of `generation` crashed. */
  crashed(generation: number): boolean { return this.#crashed.has(generation) }

  /** Settles when the process of `generation` crashes (never, if it does not). */
  crashedAt(generation: number): Promise<void> { return this.#crashSignal(generation).promise }

  #crashSignal(generation: number): { promise: Promise<void>; resolve: () => void } {
    let signal = this.#crashSignals.get(generation)
    if (!signal) {
      let resolve!: () => void
      const promise = new Promise<void>((r) => { resolve = r })
      this.#crashSignals.set(generation, (signal = { promise, resolve }))
    }
    return signal
  }

  /**
   * A scheduling point of the process of `generation` (by default the current one; its checkpoints,
   * loads, setups, model calls, listener actions): resolves when the scheduler lets `actor` past
   * `label`, unless that process has crashed by then — a dead process's wait never resumes.
   */
  point(label: string, actor: string, generation = this.generation): Promise<void> {
    // The gate costs a microtask hop: a program that never crashes waits on the scheduler's own
    // promise, so its runs (and every run saved before crash existed) keep their exact traces.
    if (!this.mayCrash) return this.port.point(label, actor)
    if (this.#crashed.has(generation)) return never()
    return this.port.point(label, actor).then(() => this.#crashed.has(generation) ? never() : undefined)
  }

  /** The serial of an object (an agent, a session, a signal): a number the first time the world sees it. */
  serial(o: object): number {
    let n = this.#serials.get(o)
    if (n === undefined) this.#serials.set(o, (n = ++this.#serial))
    return n
  }

  /** The entry that recorded the dispatch a listener's arguments belong to, or -1. */
  dispatchOf(args: readonly unknown[]): number {
    const payload = (args.length > 1 && typeof args[1] === 'object' ? args[1] : args[0]) as object | undefined
    return (typeof payload === 'object' && payload !== null ? this.#dispatches.get(payload) : undefined) ?? -1
  }

  /**
   * Watch an activity signal of agent `id` handed to the world (`source`: a model request, a
   * maintenance task, a `turn-stopping` or `pre-step` payload) and record an `abort` fact when it
   * aborts: a passive listener, synchronous inside the abort, so the fact sits in the span of
   * whatever aborted it. A signal already aborted is recorded at once, marked `:before`.
   */
  watchAbort(signal: AbortSignal | undefined, id: string, source: string): void {
    if (!this.trace.recordFacts || signal === undefined || typeof signal.addEventListener !== 'function' || this.#watched.has(signal)) return
    this.#watched.add(signal)
    const generation = this.generation
    const record = (suffix: string): void => {
      if (this.#crashed.has(generation)) return
      const kind = (signal.reason as { kind?: unknown } | undefined)?.kind
      this.trace.fact('abort', generation, -1, -1, this.serial(signal), id, `${source}:${typeof kind === 'string' ? kind : 'other'}${suffix}`)
    }
    if (signal.aborted) record(':before')
    else this.listenAbort(signal, () => record(''))
  }

  listenAbort(signal: AbortSignal, listener: () => void): void { this.#lifetime.listen(signal, listener) }

  sendingAfterDisposal(agent: Agent): boolean {
    if (!this.#retired.has(agent)) return false
    this.#sentAfterDisposal.add(agent)
    let session: Session
    try { session = agent.session } catch { return true }
    // (a session not detached yet, the send made between its agent's and its own disposal: from then)
    if (!this.#sentAt.has(session)) this.#sentAt.set(session, this.#detached.has(session) ? session.seq : -1)
    return true
  }

  sentAfterDisposal(agent: Agent): boolean { return this.#sentAfterDisposal.has(agent) }

  gate(name: string, who: string, generation: number): Promise<void> {
    this.trace.mark(`${GATE_MARK}${name} wait ${who}`, generation)
    return this.#gates.wait(name)
  }

  openGate(name: string): boolean {
    if (!this.#gates.open(name)) return false
    this.trace.mark(`${GATE_MARK}${name} open`, this.generation)
    return true
  }

  /** A fresh transaction id for a create/resume invocation. */
  nextTx(): string {
    return `t${++this.#tx}`
  }

  /**
   * Record the process's final state, and every session that grew after it left the store (not
   * for a crashed process: it never finished its teardowns).
   */
  recordFinal(crashed = false): void {
    const late: { id: string; detached: number; final: number; sent?: number }[] = []
    for (const [session, detached] of this.#detached) {
      const sent = this.#sentAt.get(session)
      if (!crashed && session.seq !== detached) late.push({ id: session.id, detached, final: session.seq, ...(sent === undefined || sent < 0 ? {} : { sent }) })
    }
    this.#detached.clear()
    this.#sentAt.clear()
    this.trace.add({ k: 'final', world: this.generation, snap: this.snapshot(), late })
  }

  /** The run is over: release what the process holds (it is never used again), and the world's abort listeners. */
  abandon(): void {
    this.#lifetime.end()
    this.process.abandon()
  }

  async #start(): Promise<void> {
    const world = this
    const generation = this.generation
    this.process = await this.#boot({
      now: () => Date.now(),
      newId: (kind) => `${kind}-${++this.#ids}`,
      // What a dead process still reports in the moment it dies is not heard.
      warn: (message, error) => { if (!this.#crashed.has(generation)) this.trace.add({ k: 'warn', message: error === undefined ? cut(String(message)) : `${cut(String(message))}: ${errorText(error)}`, world: generation }) },
      checkpoint: (label) => world.point(label, actorOfLabel(label), generation),
      model: this.behaviours.modelFor(generation),
      disk: this.disk,
      beforeLoad: (id, signal) => world.behaviours.load(id, signal, generation),
      ...(this.program.env?.minting?.length ? { scopeCreated: this.#minting() } : {}),
      // Only for a program that asks: the hooks wrap every load, which older programs' traces never had.
      ...(this.program.env?.preparations ? {
        prepared: (id: SessionId) => world.behaviours.prepared(id, generation),
        afterLoad: (id: SessionId) => world.behaviours.afterLoad(id, generation),
      } : {}),
      ...(this.program.env?.persistence === false ? { persistence: false } : {}),
    })
    this.#observe(this.process)
    for (const effect of this.program.env?.effects ?? []) {
      const ctx = effect.on === 'root' ? this.ctx : this.owner(effect.on.slice('owner:'.length)).ctx
      this.behaviours.registerEffect(ctx, effect, `env:${effect.on}`)
    }
    for (const listener of this.program.env?.listeners ?? []) this.behaviours.registerListener(this.ctx, listener, 'env')
  }

  /**
   * The process's scope-minting observer playing `env.minting` for agent scopes (a scope keyed by an
   * object; owner and factory scopes have no key), each behaviour at most `times` times per process.
   */
  #minting(): (fiber: Fiber, key: unknown) => void {
    const specs = this.program.env?.minting ?? []
    const fired = specs.map(() => 0)
    return (fiber, key) => {
      if (typeof key !== 'object' || key === null) return
      const id = (key as { id?: unknown }).id
      const name = typeof id === 'string' ? id : fiber.name
      specs.forEach((spec, i) => {
        if (fired[i]! >= (spec.times ?? 1)) return
        fired[i]!++
        this.behaviours.playMinting(spec.action, `scope:${name}`, typeof id === 'string' ? { id } : {})
      })
    }
  }

  /**
   * The facts of an event just recorded: its dispatch (for the operations its listeners make), the
   * object a registry edge is about (a stub the program registered is named so), and the activity
   * signal a `turn-stopping` payload hands over.
   */
  #eventFacts(name: string, payload: any, agent: Agent | undefined, id: string, generation: number): void {
    const at = this.trace.entries.length - 1
    if (typeof payload === 'object' && payload !== null) this.#dispatches.set(payload, at)
    if (EDGES.has(name)) {
      const subject: unknown = name.startsWith('session/') ? payload : agent
      if (typeof subject === 'object' && subject !== null) this.trace.fact('subject', generation, -1, at, this.serial(subject), id, agent !== undefined && this.stubAgents.has(agent) ? 'stub' : '')
    }
    if (name === 'agent/turn-stopping') this.watchAbort(payload?.signal, id, 'turn-stopping')
  }

  /**
   * Observers of every event, before any program listener can veto it, for the whole life of the
   * process (shutdown included).
   */
  #observe(process: ProcessHandle): void {
    const generation = this.generation
    for (const name of OBSERVED) {
      if (name === 'agent/pre-step') continue
      process.observe(name, ((a: any, b: any) => {
        // A crashed process is dead: whatever it still does in the moment it dies is not observed.
        if (this.#crashed.has(generation)) return
        if (name === 'session/event') {
          const session = a as Session
          if (b.type === 'turn/start') this.#openTurns.set(session, true)
          else if (b.type === 'turn/end') this.#openTurns.set(session, false)
          const agent = this.ctx.agents.get(session.id)
          if (agent) this.#news.set(agent, (this.#news.get(agent) ?? 0) + 1)
          const inbox = b.type === 'agent/inbox/spliced' && agent ? inboxSnapshot(agent) : undefined
          this.trace.add({ k: 'append', id: session.id, seq: b.seq, type: b.type, data: b.data, snap: this.snapshot(), world: generation, inbox })
          if (this.trace.recordFacts && typeof b === 'object' && b !== null) this.#dispatches.set(b, this.trace.entries.length - 1)
          return
        }
        const id: string = name.startsWith('session/') ? a.id : a.agent.id
        if (name === 'session/disposed') {
          this.#detached.set(a as Session, (a as Session).seq)
          if (this.#sentAt.get(a as Session) === -1) this.#sentAt.set(a as Session, (a as Session).seq)
        }
        // An agent still emitting after its own agent/disposed is detached: its events must not be
        // attributed to a successor lifecycle of the same id (registry edges keep their own checks).
        const agent = name.startsWith('agent/') ? (a.agent as Agent | undefined) : undefined
        if (agent) this.#news.set(agent, (this.#news.get(agent) ?? 0) + 1)
        const stale = agent !== undefined && name !== 'agent/disposed' && name !== 'agent/created' && this.#retired.has(agent)
        if (name === 'agent/disposed' && agent) this.#retired.add(agent)
        const message = name.startsWith('agent/inbox/') ? inboxMessageId(a) : undefined
        const detail = name === 'agent/status' ? a.status
          : name === 'agent/session-start' ? a.source
            : name === 'agent/inbox/claimed' ? `${message?.id ?? ''}@${a.turn}`
              : message ? message.id ?? ''
                : name === 'agent/error' ? `turn ${a.turn} step ${a.step}: ${errorText(a.error)}`
                  : name === 'agent/turn-stopping' ? `turn ${a.turn}` : ''
        // §1.9: the payload's agent is the registered agent object (checked on the two publication edges).
        const alias = !stale && agent !== undefined && (name === 'agent/created' || name === 'agent/session-start') && this.ctx.agents.get(id) !== agent
        const stub = agent !== undefined && this.enteredStubs.has(agent)
        // Every optional key is present (undefined when absent, which the JSON leaves out): one object shape for every event entry.
        this.trace.add({
          k: 'event', name, id, detail, snap: this.snapshot(), world: generation,
          stale: stale ? true : undefined, alias: alias ? true : undefined, noMessageId: message?.missing || undefined,
          stub: stub ? true : undefined, sentAfterDisposal: stale && this.#sentAfterDisposal.has(agent!) ? true : undefined,
        })
        if (this.trace.recordFacts) this.#eventFacts(name, a, agent, id, generation)
        if (this.program.env?.ownership) for (const line of probeOwnership(this)) this.trace.mark(`${OWNERSHIP_MARK} ${line}`, generation, { id })
        if (name === 'session/created' && (a as Session).seq > 0) {
          // Published with history (resumed or seeded): record the durable log and the restored inbox.
          const session = a as Session
          const agent = this.ctx.agents.get(id)
          // The restored header only for a session the program persisted with one (§9 45–46).
          const declared = this.program.env?.persisted?.some((p) => p.id === id && p.header !== undefined)
          this.trace.add({
            k: 'resumed', id, world: generation,
            inbox: agent ? inboxSnapshot(agent) : { nextTurn: [], nextStep: [] },
            events: session.events.map((e) => ({ type: e.type, seq: e.seq, data: e.data })),
            ...(declared ? { header: { ...session.header } } : {}),
          })
        }
      }) as never)
    }
  }
}

/** The registry edges: their subject is recorded by object, which names it beyond its id. */
const EDGES: ReadonlySet<string> = new Set(['session/created', 'agent/created', 'agent/session-start', 'agent/disposed', 'session/disposed'])
