/**
 * The agent lifecycle contract: every type an alternative `AgentFactory` implements or consumes.
 *
 * This module is the only part of `core/` an implementer needs to read to write a factory.
 * Section numbers (§) are the contract's, restated in the kit's words in `docs/clauses.md`.
 *
 * @packageDocumentation
 */

// ---------------------------------------------------------------------------------------------
// §1.1 Identifiers and messages
// ---------------------------------------------------------------------------------------------

/** Opaque id naming both a Session and its Agent (`agent.id === agent.session.id`). */
export type SessionId = string
/** The only identity of a pending inbox item; unique across both inbox lists. */
export type MessageId = string

/** A content block; the reference core needs only text. */
export interface TextBlock { readonly type: 'text'; readonly text: string }
export type ContentBlock = TextBlock

/** Where a message came from; an open union keyed by `kind`. */
export type MessageSource =
  | { readonly kind: 'user' }
  | { readonly kind: 'plugin'; readonly plugin: string }
  | { readonly kind: string; readonly [key: string]: unknown }

/** A deep-frozen, losslessly JSON-serialisable user message (§1.1). */
export interface UserMessage {
  readonly id: MessageId
  readonly role: 'user'
  readonly content: readonly ContentBlock[]
  readonly source: MessageSource
}

/** A JSON value as accepted by `Session.append` (§1.2 rule 1). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue }

// ---------------------------------------------------------------------------------------------
// §2 Scope: fibers, effects, contexts, events
// ---------------------------------------------------------------------------------------------

/** A disposer returned by an effect or a registration; calling it more than once is harmless. */
export type Disposer = () => void | Promise<void>

/** State of a fiber (§2.1). */
export type FiberState = 'active' | 'unloading' | 'disposed'

/** A structured-concurrency owner: effects registered on it are disposed when it unloads (§2.1–§2.3). */
export interface Fiber {
  readonly state: FiberState
  readonly parent: Fiber | undefined
  /** A human-readable name (for traces). */
  readonly name: string
  /** Labels of the effects currently registered, in registration order. */
  effectLabels(): string[]
  /** Unload: state → unloading (observers notified synchronously), dispose all effects concurrently, → disposed. Memoized. */
  unload(): Promise<void>
  /** Observe state changes synchronously; returns an unsubscribe function. */
  onStateChange(observer: (state: FiberState) => void): () => void
}

/** What an effect body may return: nothing, one disposer, or an iterable of disposers (§2.2). */
export type EffectResult = void | Disposer | Iterable<Disposer>

/** Options of `ctx.on`. */
export interface ListenOptions {
  /** Insert before existing listeners. */
  prepend?: boolean
  /** Hear events of every scope, not only the registering context's. */
  global?: boolean
}

/** A child scope minted under a context (§2.4). */
export interface Scope {
  readonly ctx: Context
  /** Memoized; resolves when the child fiber and all its effects have finished. */
  dispose(): Promise<void>
}

/** Process-wide services the root context provides. Simulators replace every one of them. */
export interface RootServices {
  /** Wall or virtual time in milliseconds; used for `SessionEvent.time` and header `createdAt`. */
  now(): number
  /** Mints a fresh unique id for a kind (`'message'` …). */
  newId(kind: string): string
  /** Contained failures are reported here ("a warning is logged"). */
  warn(message: string, error?: unknown): void
  /**
   * A scheduling point: implementations call `await checkpoint(label)` at their own awaits so a
   * deterministic scheduler can interleave there. Outside a simulator it resolves immediately.
   */
  checkpoint(label: string): Promise<void>
  /** The model the reference agent calls (§10.3). */
  readonly model: Model | undefined
  /** Persistence used by `resume` (§1.4); `undefined` when not configured. */
  readonly persistence: SessionPersistence | undefined
}

/**
 * A context: a view of a fiber carrying a scope key and the `agent` tag (§2.1).
 * `ctx.sessions` and `ctx.agents` are bound to the context they are reached through: calls made
 * through them treat this context as the caller (its fiber is the structural owner, its `agent`
 * the runtime owner).
 */
export interface Context {
  readonly fiber: Fiber
  /** Nearest scope key (the agent object for an agent's scope context), or `undefined`. */
  readonly scopeKey: unknown
  /** The agent whose scope this context belongs to, or `undefined` on a plain context. */
  readonly agent: Agent | undefined
  readonly services: RootServices
  readonly sessions: SessionStore
  readonly agents: AgentRegistry
  /** Register an effect on this context's fiber (§2.2). Throws `cannot create effect on inactive context`. */
  effect(execute: () => EffectResult, label?: string): Disposer
  /** Register a listener as an effect on this context's fiber, tagged with this context's scope key (§2.5). */
  on<K extends EventName>(name: K, listener: EventMap[K], options?: ListenOptions): Disposer
  /** A derived context on the same fiber with extra tags (nearest tag wins). */
  extend(tags: { scopeKey?: unknown; agent?: Agent }): Context
  /**
   * Mint a child scope (child fiber) tagged with `key` (§2.4). By default the child is an effect of
   * this fiber (unloading this fiber unloads it); `attachToParent: false` leaves its disposal to the
   * caller, which the reference factory uses to keep the §5.1 order on factory unload (D18).
   */
  createScope(key: unknown, name?: string, options?: { attachToParent?: boolean }): Scope
  /** Dispatch an event in one of the modes of §1.9, routed with `carrierKey`. */
  readonly events: EventDispatch
}

/** Dispatch modes of §1.9 over the root's listener table, with scope-filtered routing (§2.5). */
export interface EventDispatch {
  /** Sync throw propagates (earlier listeners ran, later do not); async rejection is logged. */
  veto<K extends EventName>(name: K, carrierKey: unknown, ...args: Parameters<EventMap[K]>): void
  /** Every listener invoked; sync throws and async rejections logged, never propagated. */
  contained<K extends EventName>(name: K, carrierKey: unknown, ...args: Parameters<EventMap[K]>): void
  /** All listeners awaited in parallel; first failure rethrown; resolves whether any listener participated. */
  parallel<K extends EventName>(name: K, carrierKey: unknown, ...args: Parameters<EventMap[K]>): Promise<boolean>
  /** Listeners awaited one after another; a failure propagates. */
  serial<K extends EventName>(name: K, carrierKey: unknown, ...args: Parameters<EventMap[K]>): Promise<void>
  /** Middleware chain: each listener gets `(payload, next)`; the default runs when the chain falls through. */
  waterfall<P, R>(name: 'agent/pre-step', carrierKey: unknown, payload: P, fallback: () => R | Promise<R>): Promise<R>
}

// ---------------------------------------------------------------------------------------------
// §1.2 Session
// ---------------------------------------------------------------------------------------------

/** Current session format version. */
export const SESSION_FORMAT_VERSION = 0

/** Immutable header kept outside the event log (§1.2). */
export interface SessionHeader {
  readonly version: number
  readonly id: SessionId
  readonly createdAt: number
  readonly cwd?: string
  readonly parentSession?: string
  readonly seedLength?: number
  readonly origin?: 'subagent'
  readonly delegationDepth?: number
  readonly agentPreset?: string
}

/** Header fields a caller may supply (`createdAt` is not among them). */
export interface SessionMeta {
  cwd?: string
  parentSession?: string
  seedLength?: number
  origin?: 'subagent'
  delegationDepth?: number
  agentPreset?: string
}

/** One durable fact (§1.2), deep-frozen. `seq` equals its index in the log. */
export interface SessionEvent {
  readonly type: string
  readonly seq: number
  readonly time: number
  readonly data: JsonValue
  readonly surfaceOp?: JsonValue
  readonly sourceEventSeqs?: readonly number[]
  readonly ignorable?: boolean
}

/** The durable, replayable record of one conversation (§1.2). */
export interface Session {
  readonly header: SessionHeader
  readonly id: SessionId
  /** Frozen snapshot; a previously returned array never grows. */
  readonly events: readonly SessionEvent[]
  /** Log length: the next event's seq. */
  readonly seq: number
  /** Length of the constructor seed (0 without one). */
  readonly firstLiveSeq: number
  /** Validate, snapshot and append one event; publishes `session/event` while attached to a store. */
  append(type: string, data: unknown): SessionEvent
  /** Model history projection: user and assistant messages in order. */
  deriveMessages(): DerivedMessage[]
}

/** One entry of `deriveMessages()`. */
export interface DerivedMessage { role: 'user' | 'assistant'; text: string }

/** Options of `SessionStore.prepare`. */
export interface PrepareSessionOptions {
  meta?: SessionMeta
  seed?: readonly SessionEvent[]
  /** Header fields restored verbatim from persistence (resume). */
  header?: SessionHeader
  /** `'persistence'`: ownership-transfer restore path. */
  seedSource?: 'persistence'
}

/** The store of live sessions: `ctx.sessions` (§1.3). */
export interface SessionStore {
  prepare(id?: SessionId, options?: PrepareSessionOptions): Session
  enter(session: Session): () => void
  announce(session: Session): void
  create(id?: SessionId, options?: PrepareSessionOptions): Session
  get(id: SessionId): Session | undefined
  list(): Session[]
  flush(session: Session): Promise<boolean>
}

// ---------------------------------------------------------------------------------------------
// §1.4 Persistence seam
// ---------------------------------------------------------------------------------------------

/** One unpublished Session plus an optional provider release (§1.4). */
export interface SessionPreparation {
  readonly session: Session
  [Symbol.dispose](): void
}

/** The minimal persistence seam `resume` uses. */
export interface SessionPersistence {
  /** Build the unpublished session of a persisted id; honours `signal`; rejects for unknown ids. */
  prepare(id: SessionId, signal?: AbortSignal): Promise<SessionPreparation>
}

// ---------------------------------------------------------------------------------------------
// §1.5 Agent, §6 Inbox, §7 input
// ---------------------------------------------------------------------------------------------

/** Route options of one agent instance; `maxTokens` must be a positive safe integer. */
export interface AgentOptions {
  provider?: string
  model?: string
  maxTokens?: number
}

/** Why an activity was cancelled (§1.5). The exact object becomes `signal.reason`. */
export type AgentCancelCause =
  | { readonly kind: 'user' }
  | { readonly kind: 'parent' }
  | { readonly kind: 'hook'; readonly reason: string }
  | { readonly kind: 'disposed' }

/** Options of `Agent.cancel`. */
export interface CancelOptions { keepInbox?: boolean }

/** Which inbox list a message goes to. */
export type InboxTarget = 'next-turn' | 'next-step'

/** Public status: disposal is not a status (§1.5). */
export type AgentStatus = 'idle' | 'running'

/** Payload of the durable `agent/inbox/spliced` event, in this key order (§6.2). */
export interface InboxSplice {
  target: InboxTarget
  start: number
  removedCount?: number
  inserted: UserMessage[]
  outcome?: 'canceled'
}

/** The live projection of an agent's durable `agent/inbox/spliced` events (§6). */
export interface Inbox {
  readonly nextTurn: readonly UserMessage[]
  readonly nextStep: readonly UserMessage[]
  readonly hasPending: boolean
  append(target: InboxTarget, message: UserMessage): void
  prepend(target: InboxTarget, message: UserMessage): void
  replace(id: MessageId, message: UserMessage): boolean
  remove(id: MessageId): boolean
  clear(): void
  splice(target: InboxTarget, start: number, deleteCount: number, inserted: readonly UserMessage[]): UserMessage[]
}

/** The live driver around one Session (§1.5). */
export interface Agent {
  readonly id: SessionId
  readonly options: AgentOptions
  readonly session: Session
  readonly inbox: Inbox
  readonly ctx: Context
  readonly status: AgentStatus
  send(message: UserMessage, target: InboxTarget, wakeup: boolean): void
  followup(message: UserMessage): void
  steer(message: UserMessage): void
  inject(message: UserMessage): void
  /** Optional R-AG alias: `send(m, 'next-turn', false)`. */
  queue?(message: UserMessage): void
  cancel(cause: AgentCancelCause, options?: CancelOptions): void
  whenIdle(): Promise<void>
  runMaintenance<T>(task: (signal: AbortSignal) => T | Promise<T>): Promise<T>
}

/** The consumer's teardown capability (§1.6). `dispose` returns the memoized teardown promise. */
export interface AgentHandle {
  readonly agent: Agent
  dispose(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// §1.7 Registry, §1.8 Factory seam
// ---------------------------------------------------------------------------------------------

/** Setup's optional synchronous commit (§3.4). */
export interface AgentSetupCommit { commit(): void }

/** Composes the unpublished agent's scoped world; may be async; may return a synchronous commit. */
export type AgentSetup = (agentCtx: Context) => void | AgentSetupCommit | Promise<void | AgentSetupCommit>

/** Options of `ctx.agents.create` (§1.8). */
export interface CreateAgentOptions {
  sessionId: SessionId
  meta?: SessionMeta
  seed?: readonly SessionEvent[]
  agentOptions?: AgentOptions
  /** Creation-only: after the handle is returned it has no effect. */
  signal?: AbortSignal
  setup?: AgentSetup
}

/** Options of `ctx.agents.resume` (§1.8). */
export interface ResumeAgentOptions {
  resumeSessionId: SessionId
  agentOptions?: AgentOptions
  signal?: AbortSignal
  setup?: AgentSetup
}

/** The owner context a factory receives: the caller's fiber and runtime owner agent (§1.8, §2.6). */
export type OwnerContext = Context

/** The single seam an alternative loop implements (§1.8). */
export interface AgentFactory {
  createAgent(ownerCtx: OwnerContext, options: CreateAgentOptions): Promise<AgentHandle>
  resume(ownerCtx: OwnerContext, options: ResumeAgentOptions): Promise<AgentHandle>
}

/** `ctx.agents` (§1.7); bound to the context it was reached through. */
export interface AgentRegistry {
  register(agent: Agent): Disposer
  enter(agent: Agent, owner: Agent | undefined): () => void
  announce(agent: Agent): void
  get(id: SessionId): Agent | undefined
  isOwnedBy(id: SessionId, owner: Agent): boolean
  list(): Agent[]
  roots(): Agent[]
  setFactory(factory: AgentFactory): Disposer
  create(options: CreateAgentOptions): Promise<AgentHandle>
  resume(options: ResumeAgentOptions): Promise<AgentHandle>
  currentInitiator(): Agent | undefined
  requireInitiator(): Agent
  withInitiator<T>(agent: Agent, op: () => T): T
  withoutInitiator<T>(op: () => T): T
}

// ---------------------------------------------------------------------------------------------
// §10.3 Model seam
// ---------------------------------------------------------------------------------------------

/** One model request. */
export interface ModelRequest {
  readonly sessionId: SessionId
  readonly messages: readonly DerivedMessage[]
  readonly signal: AbortSignal
  readonly maxTokens?: number
}

/** One model reply: text, and whether the step asks for a tool follow-up step. */
export interface ModelReply { text: string; followUp?: boolean }

/** The model the reference agent calls once per step. */
export interface Model {
  call(request: ModelRequest): Promise<ModelReply>
}

// ---------------------------------------------------------------------------------------------
// §1.9 Event catalogue
// ---------------------------------------------------------------------------------------------

/** Decision of the `agent/pre-step` waterfall. */
export type PreStepDecision = { kind: 'reject' } | { kind: 'enter'; messages: readonly UserMessage[] }

/** Payload of `agent/pre-step`. */
export interface PreStepPayload {
  agent: Agent
  messages: readonly UserMessage[]
  turn: number
  step: number
  signal: AbortSignal
}

/** The lifecycle event vocabulary and listener signatures (§1.9). */
export interface EventMap {
  'session/created': (session: Session) => void | Promise<void>
  'session/event': (session: Session, event: SessionEvent) => void | Promise<void>
  'session/disposed': (session: Session) => void | Promise<void>
  'session/flush': (session: Session) => void | Promise<void>
  'agent/created': (payload: { agent: Agent }) => void | Promise<void>
  'agent/disposed': (payload: { agent: Agent }) => void | Promise<void>
  'agent/session-start': (payload: { agent: Agent; source: 'startup' | 'resume' }) => void | Promise<void>
  'agent/status': (payload: { agent: Agent; status: AgentStatus }) => void | Promise<void>
  'agent/inbox/inserted': (payload: { agent: Agent; message: UserMessage }) => void | Promise<void>
  'agent/inbox/discarded': (payload: { agent: Agent; message: UserMessage }) => void | Promise<void>
  'agent/inbox/claimed': (payload: { agent: Agent; message: UserMessage; turn: number }) => void | Promise<void>
  'agent/error': (payload: { agent: Agent; turn: number; step: number; error: unknown }) => void | Promise<void>
  'agent/pre-step': (
    payload: PreStepPayload,
    next: () => Promise<PreStepDecision>,
  ) => PreStepDecision | Promise<PreStepDecision>
  'agent/turn-stopping': (payload: { agent: Agent; turn: number; signal: AbortSignal }) => void | Promise<void>
}

/** Every event name of the vocabulary. */
export type EventName = keyof EventMap

/** The event names in catalogue order, for generators and checkers. */
export const EVENT_NAMES: readonly EventName[] = [
  'session/created',
  'session/event',
  'session/disposed',
  'session/flush',
  'agent/created',
  'agent/disposed',
  'agent/session-start',
  'agent/status',
  'agent/inbox/inserted',
  'agent/inbox/discarded',
  'agent/inbox/claimed',
  'agent/error',
  'agent/pre-step',
  'agent/turn-stopping',
]

// ---------------------------------------------------------------------------------------------
// Exact error strings (§0: implementers keep them identical; the suite matches by substring)
// ---------------------------------------------------------------------------------------------

/** Error messages of the contract, as functions of their parameters. */
export const ERRORS = {
  inactiveContext: 'cannot create effect on inactive context',
  noFactory: 'no agent factory registered (load an agent-loop plugin)',
  factoryOccupied: 'an agent factory is already registered',
  noPersistence: 'cannot resume: session persistence is not configured (load a dsh-session-persistence backend)',
  loopInactive: 'agent loop is not active',
  ownerDisposed: (id: string) => `agent "${id}" setup aborted: owner disposed during setup`,
  creationAborted: (id: string) => `agent "${id}" creation aborted`,
  lifecycleDisposed: (id: string) => `agent "${id}" lifecycle disposed`,
  sessionExists: (id: string) => `session "${id}" already exists`,
  sessionAttached: (id: string) => `session "${id}" is already attached to a store`,
  sessionNotLive: (id: string) => `session "${id}" is not live in this store`,
  sessionAnnounced: (id: string) => `session "${id}" was already announced`,
  nonJson: (type: string) => `session event "${type}" carries non-JSON-serializable data`,
  appendReentry: 'session append cannot reenter while another append is being published',
  seedNotJson: (i: number) => `seed event at index ${i} is not losslessly JSON-serializable`,
  seedGap: (i: number, s: unknown) => `seed event at index ${i} has seq ${String(s)} (expected ${i}); seed must be contiguous from 0`,
  cwdNotAbsolute: (cwd: unknown) => `session header cwd must be an absolute path, got "${String(cwd)}"`,
  agentIdMismatch: (a: string, s: string) => `agent id "${a}" does not match session id "${s}"`,
  agentRegistered: (id: string) => `agent "${id}" is already registered`,
  agentNotLive: (id: string) => `agent "${id}" is not live in this registry`,
  agentAnnounced: (id: string) => `agent "${id}" was already announced`,
  maxTokens: 'agent maxTokens must be a positive safe integer',
  activeWork: (id: string) => `agent "${id}" already has active work`,
  alreadyPending: (id: string) => `message "${id}" is already pending`,
  invalidSplice: (seq: number) => `invalid persisted inbox splice at session seq ${seq}`,
  noInitiator: 'no initiating agent is active',
  initiatorDisposed: 'agent initiator scope is disposed',
} as const
