/**
 * Programs: plain JSON data describing concurrent actors and the behaviours the simulated
 * environment plays (design.md concept 2). A program never holds functions, so it can be saved,
 * generated, shrunk and printed.
 *
 * Longer than 500 lines because it is the language's whole schema, each type beside its
 * validation: one recursive shape (an operation carries a setup whose listeners' actions carry
 * operations) that split files would import in a circle. What a program's names refer to is
 * checked apart (`references.ts`).
 *
 * @module
 */
import type { EventName } from '../../core/contract.js'
import { EVENT_NAMES } from '../../core/contract.js'
import { checkReferences } from './references.js'

/** The format version of programs. */
export const PROGRAM_VERSION = 1

/** A cancellation cause by kind. */
export type CauseKind = 'user' | 'parent' | 'hook' | 'disposed'

/** What an injected behaviour does when it fires. */
export type Action =
  | { do: 'throw' }
  /** Return a promise that rejects after one scheduling point. */
  | { do: 'reject' }
  /** Return a promise that resolves after one scheduling point (an async tail). */
  | { do: 'slow' }
  /** Perform a harness operation synchronously from inside the dispatch (not awaited). */
  | { do: 'op'; op: Operation }
  /**
   * On an `agent/pre-step` listener: return the decision `{ kind: 'reject' }` instead of calling
   * `next()`. Anywhere else it does nothing but its mark.
   */
  | { do: 'block' }
  /**
   * Return a promise that resolves once the named gate is opened (an `openGate` operation), after
   * one more scheduling point: an async tail that ends at a point the program chooses (a flush
   * listener, a `turn-stopping` listener, a slow scope disposer). It never resolves if the gate
   * never opens (a hang of the program's own).
   */
  | { do: 'wait'; gate: string }

/** An async `setup` of `steps` scheduling points (§3.4) and its optional failures. */
export interface SetupSpec {
  steps: number
  /** Throw synchronously before the first step. */
  throwSync?: boolean
  /** Reject at this step (1-based). */
  rejectAt?: number
  /** Never settle after this many steps (the creation then waits on an abort). */
  hangAt?: number
  /** Return a commit that throws. */
  commitThrows?: boolean
  /** An operation performed inside `commit()`. */
  commitOp?: Operation
  /** Effects registered through `agentCtx` (agent-scoped; unwound with the scope). */
  effects?: EffectSpec[]
  /** Listeners registered through `agentCtx` (agent-scoped routing). */
  listeners?: ListenerSpec[]
}

/**
 * A filter on what a listener's event carries (its payload, or for `session/event` the appended
 * event's `data`); every field given must match. Fields a payload does not carry never match, and
 * validation refuses a field the listener's event can never carry.
 */
export interface PayloadFilter {
  /** The turn number: `agent/inbox/claimed`, `agent/error`, `agent/pre-step`, `agent/turn-stopping`, and `session/event` of `turn/*`, `step/*`, `assistant/message`. */
  turn?: number
  /** The step number: `agent/error`, `agent/pre-step`, and `session/event` of `step/*`, `assistant/message`. */
  step?: number
  /** `agent/status`: the new status. */
  status?: 'idle' | 'running'
  /** `agent/session-start`: the source. */
  source?: 'startup' | 'resume'
  /** `session/event` of `agent/inbox/spliced`: the list it changes. */
  target?: 'next-turn' | 'next-step'
  /**
   * `session/event` of `agent/inbox/spliced`: what it does — `inserted` (it inserts messages),
   * `claimed` (a pure deletion, §6.4) or `canceled` (an ordinary removal).
   */
  outcome?: 'inserted' | 'claimed' | 'canceled'
  /** `session/event` of `turn/end`: the kind of its reason. */
  reason?: 'completed' | 'aborted' | 'blocked' | 'error'
  /**
   * Any event: whether the agent the event is about (for `session/*` events, the live agent of
   * the session's id) has pending inbox items when it fires, as `agent.inbox` reads then (inside a
   * splice's own observers the live lists still lag the log, §6.3).
   */
  pending?: boolean
}

/** The payload filter fields, in a stable order. */
export const PAYLOAD_FILTER_FIELDS = ['turn', 'step', 'status', 'source', 'target', 'outcome', 'reason', 'pending'] as const satisfies readonly (keyof PayloadFilter)[]

/** The events whose payload can carry each filter field (`pending` applies to every event). */
export const PAYLOAD_FILTER_EVENTS: Readonly<Record<Exclude<keyof PayloadFilter, 'pending'>, readonly EventName[]>> = {
  turn: ['agent/inbox/claimed', 'agent/error', 'agent/pre-step', 'agent/turn-stopping', 'session/event'],
  step: ['agent/error', 'agent/pre-step', 'session/event'],
  status: ['agent/status'],
  source: ['agent/session-start'],
  target: ['session/event'],
  outcome: ['session/event'],
  reason: ['session/event'],
}

/** Events whose payload carries the activity's abort signal: a listener on them may observe its abort ({@link ListenerSpec.onAbort}). */
export const SIGNAL_EVENTS: readonly EventName[] = ['agent/pre-step', 'agent/turn-stopping']

/**
 * A listener the environment registers on an event of the vocabulary (§1.9). Of the events that
 * pass its filters (`session`, `eventType`, `where`), it acts on the `nth` (default the first)
 * and on the ones after it, `times` in all (default 1).
 */
export interface ListenerSpec {
  event: EventName
  /** Only fire for this session id. */
  session?: string
  /** Only for `session/event`: only fire for this appended event type. */
  eventType?: string
  /** Only fire for events whose payload matches. */
  where?: PayloadFilter
  action: Action
  /** Act first on the nth matching occurrence (1-based, default 1): the earlier matches pass by. */
  nth?: number
  /** Fire at most this many times (default 1). */
  times?: number
  /**
   * Only on {@link SIGNAL_EVENTS}: each time the listener fires, it also observes the abort of the
   * activity signal its payload carries, and plays this `op` action synchronously inside that
   * abort's dispatch (an abort observer; once per signal, and only if it was not aborted yet).
   */
  onAbort?: Action
}

/** An effect registered on a fiber whose disposer misbehaves or acts. */
export interface EffectSpec {
  /** Disposer behaviour: a slow disposer is a scheduling point; `op` acts while disposing. */
  disposer: Action
}

/** One model call's behaviour (§10.3), consumed in order per session (then `text`). */
export type ModelStepSpec =
  | { reply: 'text' }
  | { reply: 'fail' }
  /** Wait until the step's signal aborts, then reject. */
  | { reply: 'hang' }
  /** Ask for a tool follow-up step, performing `op` as the tool body. */
  | { reply: 'tool'; op?: Operation }
  /** Reply after `ms` of virtual time (a timer). */
  | { reply: 'delay'; ms: number }

/**
 * A persistence load behaviour for one session id (§1.4, the process's `beforeLoad`). With `gate`,
 * an `ok`, `slow` or `fail` load waits, after its own points, until the named gate is opened
 * (`openGate`) before it finishes or fails: at a point the program chooses. An abort of the load's
 * signal while it waits rejects it with the reason, as a `hang` does.
 */
export type LoadSpec =
  | { load: 'ok'; gate?: string }
  | { load: 'slow'; steps: number; gate?: string }
  | { load: 'fail'; gate?: string }
  | { load: 'hang' }

/**
 * A persistence preparation of one session id and its release (§1.4, §3.1 R3; the process's
 * `prepared` and `afterLoad` hooks, capability `preparations`). The world marks each preparation a
 * load hands out, when it arrives, and when it is released (the checkers hold every arrived one to
 * be released). The hand-over waits `steps` scheduling points, then (with `gate`) until the gate
 * opens, ignoring the load's signal: a preparation that arrives after the caller gave up, which
 * must then be released and never published. `onRelease` plays an operation synchronously inside
 * the id's first release (once per run, like a listener's default `times`). A process without the capability never calls the hooks: nothing of this fires.
 */
export interface PreparationSpec {
  steps?: number
  gate?: string
  onRelease?: Action
}

// An operation carries only the keys it was drawn or written with, so a campaign's operations have
// many hidden classes. A normal form (every key of every kind, or one shape per kind, copied once per
// seed) was tried for issue 29 and not kept: V8's optimizing compiles and deoptimizations did not
// fall (437 and 55 before, 460 and 52 after, in 5,800 seeds), and its CPU read 390-620 ms more per
// 14 s campaign in four variants (8-10 alternating pairs each; noise of ±600 ms in an A/A).
/** One harness operation (design.md concept 2). `session` names the target agent by id. */
export type Operation =
  | { op: 'create'; session: string; setup?: SetupSpec; owner?: string; parent?: string; signal?: string; maxTokens?: number; seeded?: boolean }
  | { op: 'resume'; session: string; setup?: SetupSpec; owner?: string; signal?: string }
  | { op: 'dispose'; session: string }
  | { op: 'cancel'; session: string; cause?: CauseKind; keepInbox?: boolean }
  /**
   * Send a message to the live agent. With `mutate`, a mutable deep copy of the message is sent and
   * its text is changed in place right after the send call returns (an agent must have snapshotted it).
   * With `handle`, the message goes to the agent of the handle this actor's own latest create or
   * resume of the id returned, kept after disposal (in this process), instead of the agent the
   * registry lists: a send after `dispose()` resolved. What such a send does is unspecified (§12 Q3):
   * its outcome is `info` and names what the agent did, and the checkers do not judge what follows it.
   */
  | { op: 'followup' | 'steer' | 'inject' | 'queue'; session: string; text?: string; mutate?: true; handle?: true }
  /** `agent.inbox.remove(id)` of the first (default) or last pending message of the live agent, over `[...nextTurn, ...nextStep]`. */
  | { op: 'remove'; session: string; which?: 'first' | 'last' }
  /**
   * Register a stub agent with this id directly in the agent registry through the root context
   * (`ctx.agents.register`; §3.5 row L: an id held by an agent registered directly). Every method
   * of the stub throws, except `whenIdle`.
   */
  | { op: 'register'; session: string }
  /**
   * The registry split of §4, one step at a time, on a stub agent with this id (the one of
   * `register`): `enter` calls `ctx.agents.enter(stub, undefined)` through the root context with a
   * fresh stub and keeps the `detach` it returns; `announce` calls `ctx.agents.announce` with the
   * stub entered last under the id; `detach` calls that stub's `detach` (with `stale`, the detach of
   * the stub entered before it, a stale capability once a replacement entered). Each checks what the
   * contract says the step does (§9 71–79) and marks a disagreement for the checkers.
   */
  | { op: 'enter' | 'announce'; session: string }
  | { op: 'detach'; session: string; stale?: true }
  /**
   * Re-send an id already pending: a fresh message carrying the id of the first message pending in
   * the live agent's inbox, through `followup` (default) or `inject`. The contract requires it to
   * throw `message "<id>" is already pending` and write nothing (§9 120); an accepted one is marked.
   */
  | { op: 'resend'; session: string; via?: 'followup' | 'inject' }
  /**
   * Enter an initiator boundary for the live agent (`ctx.agents.withInitiator(agent, …)`) and perform
   * `ops` in order inside it, each awaited — creations, inputs, owner and factory unloads, even the
   * process's own shutdown or restart (§8, §9 130–138). Inside, `currentInitiator()` must be the
   * agent before and after every awaited operation; a disagreement is marked for the checkers.
   */
  | { op: 'boundary'; session: string; ops: Operation[] }
  /**
   * `agent.runMaintenance(task)` with a task of `steps` scheduling points; with `onAbort`, the task
   * observes the abort of its signal and plays that `op` action synchronously inside the abort.
   */
  | { op: 'runMaintenance'; session: string; steps?: number; onAbort?: Action }
  | { op: 'whenIdle'; session: string }
  /** Nothing but the scheduling point every actor operation waits at: the actor's next operation comes later. */
  | { op: 'pause' }
  /**
   * `ctx.sessions.flush(session)` of the live session with this id (§1.3): awaits every
   * `session/flush` listener that hears it (parallel); the first failure rejects it. `info` when no
   * session of the id is live.
   */
  | { op: 'flush'; session: string }
  /**
   * Open the named gate: every behaviour waiting on it (a `wait` action, a load or a preparation
   * hand-over with `gate`) goes on, each after one scheduling point; later waits pass at once. A
   * gate stays open for the rest of the run (restarts and crashes included).
   */
  | { op: 'openGate'; gate: string }
  | { op: 'abortSignal'; signal: string }
  | { op: 'unloadOwner'; owner: string }
  | { op: 'unloadFactory' }
  | { op: 'shutdown' }
  | { op: 'restart' }
  /**
   * The process dies without shutdown (no teardown, no disposal event, nothing written after) and a
   * new process boots over the disk as it left it (§3.4, §6.5). Skipped (`info`) on a process that
   * cannot crash (capability `crash`).
   */
  | { op: 'crash' }

/** Every operation kind. */
export const OPERATION_KINDS = [
  'create', 'resume', 'dispose', 'cancel', 'followup', 'steer', 'inject', 'queue', 'runMaintenance', 'whenIdle',
  'abortSignal', 'unloadOwner', 'unloadFactory', 'shutdown', 'restart', 'remove', 'register', 'resend', 'boundary',
  'crash', 'enter', 'announce', 'detach', 'pause', 'flush', 'openGate',
] as const satisfies readonly Operation['op'][]

/** An actor: a sequential list of operations; actors run concurrently. */
export interface ActorSpec {
  id: string
  ops: Operation[]
}

/**
 * Header fields of a session on the persisted disk (§1.2, §9 45–46): a resume must restore them
 * exactly, and a session persisted without `cwd` resumes with `header.cwd === undefined`.
 */
export interface PersistedHeaderSpec {
  cwd?: string
  parentSession?: string
  seedLength?: number
  origin?: 'subagent'
  delegationDepth?: number
  agentPreset?: string
}

/** The header fields a persisted session may carry, with their types. */
export const PERSISTED_HEADER_FIELDS: Readonly<Record<keyof PersistedHeaderSpec, 'string' | 'number'>> = {
  cwd: 'string', parentSession: 'string', seedLength: 'number', origin: 'string', delegationDepth: 'number', agentPreset: 'string',
}

/** The environment the program runs in. */
export interface EnvironmentSpec {
  /**
   * Check the ownership queries after every event: each live agent created through a live parent's
   * context is owned by it (`isOwnedBy`) and is not a root; no live agent owns itself. A mismatch is
   * marked in the trace (`ownership: …`) for the checkers (§9 5, 6).
   */
  ownership?: boolean
  /** Root-level (untagged) listeners. */
  listeners?: ListenerSpec[]
  /** Effects registered on the root fiber or on a named owner fiber before the actors start. */
  effects?: Array<EffectSpec & { on: 'root' | `owner:${string}` }>
  /** Model behaviour per session id. */
  model?: Record<string, ModelStepSpec[]>
  /** Persistence load behaviour per session id (default `ok`). */
  loads?: Record<string, LoadSpec>
  /** Persistence preparation behaviour per session id (see {@link PreparationSpec}); its presence turns the marks on. */
  preparations?: Record<string, PreparationSpec>
  /**
   * `false`: the process boots with no session persistence configured (§1.4, §3.1 R1: a resume
   * rejects with the not-configured error). A process without the capability `noPersistence` keeps
   * its persistence.
   */
  persistence?: false
  /**
   * Sessions already on the persisted disk before the run, as raw events (for resume of logs with
   * invalid splices). Each is `{ id, events: [{type, data}] }`; seq and time are filled in.
   */
  persisted?: Array<{ id: string; events: Array<{ type: string; data: unknown }>; header?: PersistedHeaderSpec }>
  /**
   * Behaviours played when the process mints an agent's scope fiber (the process's `scopeCreated`
   * hook, synchronously inside scope minting): each plays its action at most `times` times (default
   * 1) per process. A foreign process may not offer the hook; these then never fire.
   */
  minting?: MintingSpec[]
}

/** A behaviour played when the process mints an agent's scope fiber (see {@link EnvironmentSpec.minting}). */
export interface MintingSpec {
  action: Action
  /** Fire at most this many times per process (default 1). */
  times?: number
}

/** A whole program. */
export interface Program {
  v: typeof PROGRAM_VERSION
  name?: string
  actors: ActorSpec[]
  env?: EnvironmentSpec
}

/** A program failed validation; the message names the offending field. */
export class ProgramError extends Error {
  override readonly name = 'ProgramError'
}

const CAUSES: readonly string[] = ['user', 'parent', 'hook', 'disposed']
const ACTIONS: readonly string[] = ['throw', 'reject', 'slow', 'op', 'block', 'wait']
const WHICH: readonly string[] = ['first', 'last']
const REPLIES: readonly string[] = ['text', 'fail', 'hang', 'tool', 'delay']
const LOADS: readonly string[] = ['ok', 'slow', 'fail', 'hang']

function fail(path: string, message: string): never {
  throw new ProgramError(`program${path}: ${message}`)
}

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function str(v: unknown, path: string): void {
  if (typeof v !== 'string' || v.length === 0) fail(path, `expected a non-empty string, got ${JSON.stringify(v)}`)
}

function count(v: unknown, path: string, min = 0): void {
  if (!Number.isSafeInteger(v) || (v as number) < min) fail(path, `expected an integer >= ${min}, got ${JSON.stringify(v)}`)
}

function validateAction(a: unknown, path: string): void {
  if (!isObject(a) || !ACTIONS.includes(a.do)) fail(path, `expected an action {do: ${ACTIONS.join('|')}}, got ${JSON.stringify(a)}`)
  if (a.do === 'op') validateOperation(a.op, `${path}.op`)
  if (a.do === 'wait') str(a.gate, `${path}.gate`)
}

const FILTER_VALUES: Readonly<Record<string, readonly unknown[]>> = {
  status: ['idle', 'running'],
  source: ['startup', 'resume'],
  target: ['next-turn', 'next-step'],
  outcome: ['inserted', 'claimed', 'canceled'],
  reason: ['completed', 'aborted', 'blocked', 'error'],
  pending: [true, false],
}

function validateFilter(w: unknown, event: EventName, path: string): void {
  if (!isObject(w)) fail(path, `expected a payload filter {${PAYLOAD_FILTER_FIELDS.join(', ')}}, got ${JSON.stringify(w)}`)
  for (const [key, value] of Object.entries(w)) {
    if (!(PAYLOAD_FILTER_FIELDS as readonly string[]).includes(key)) fail(`${path}.${key}`, `unknown filter field; expected one of ${PAYLOAD_FILTER_FIELDS.join(', ')}`)
    if (key !== 'pending' && !PAYLOAD_FILTER_EVENTS[key as keyof typeof PAYLOAD_FILTER_EVENTS].includes(event)) {
      fail(`${path}.${key}`, `${event} never carries a ${key}; it applies to ${PAYLOAD_FILTER_EVENTS[key as keyof typeof PAYLOAD_FILTER_EVENTS].join(', ')}`)
    }
    if (key === 'turn' || key === 'step') count(value, `${path}.${key}`, 0)
    else if (!FILTER_VALUES[key]!.includes(value)) fail(`${path}.${key}`, `expected one of ${FILTER_VALUES[key]!.map((v) => JSON.stringify(v)).join('|')}, got ${JSON.stringify(value)}`)
  }
}

/** An abort observer plays an operation (a throw or a rejection there would escape the signal's dispatch). */
function validateAbortAction(a: unknown, path: string): void {
  if (!isObject(a) || a.do !== 'op') fail(path, `an abort observer performs an operation: expected {do: 'op', op}, got ${JSON.stringify(a)}`)
  validateAction(a, path)
}

function validateListener(l: unknown, path: string): void {
  if (!isObject(l)) fail(path, 'expected a listener object')
  if (!EVENT_NAMES.includes(l.event)) fail(`${path}.event`, `unknown event ${JSON.stringify(l.event)}; expected one of ${EVENT_NAMES.join(', ')}`)
  if (l.session !== undefined) str(l.session, `${path}.session`)
  if (l.times !== undefined) count(l.times, `${path}.times`, 1)
  if (l.nth !== undefined) count(l.nth, `${path}.nth`, 1)
  if (l.where !== undefined) validateFilter(l.where, l.event, `${path}.where`)
  if (l.onAbort !== undefined) {
    if (!SIGNAL_EVENTS.includes(l.event)) fail(`${path}.onAbort`, `only a listener on ${SIGNAL_EVENTS.join(' or ')} sees an activity signal to observe`)
    validateAbortAction(l.onAbort, `${path}.onAbort`)
  }
  validateAction(l.action, `${path}.action`)
}

function validateSetup(s: unknown, path: string): void {
  if (!isObject(s)) fail(path, 'expected a setup object')
  count(s.steps, `${path}.steps`)
  if (s.rejectAt !== undefined) count(s.rejectAt, `${path}.rejectAt`, 1)
  if (s.hangAt !== undefined) count(s.hangAt, `${path}.hangAt`, 0)
  if (s.commitOp !== undefined) validateOperation(s.commitOp, `${path}.commitOp`)
  s.effects?.forEach((e: unknown, i: number) => { if (!isObject(e)) fail(`${path}.effects[${i}]`, 'expected an effect'); validateAction((e as any).disposer, `${path}.effects[${i}].disposer`) })
  s.listeners?.forEach((l: unknown, i: number) => validateListener(l, `${path}.listeners[${i}]`))
}

/** Validate one operation; throws a {@link ProgramError} naming the bad field. */
export function validateOperation(o: unknown, path: string): asserts o is Operation {
  if (!isObject(o)) fail(path, `expected an operation object, got ${JSON.stringify(o)}`)
  if (!(OPERATION_KINDS as readonly string[]).includes(o.op)) fail(`${path}.op`, `unknown operation ${JSON.stringify(o.op)}; expected one of ${OPERATION_KINDS.join(', ')}`)
  switch (o.op) {
    case 'abortSignal': str(o.signal, `${path}.signal`); return
    case 'openGate': str(o.gate, `${path}.gate`); return
    case 'unloadOwner': str(o.owner, `${path}.owner`); return
    case 'unloadFactory': case 'shutdown': case 'restart': case 'crash': case 'pause': return
    default: str(o.session, `${path}.session`)
  }
  if (o.op === 'create' || o.op === 'resume') {
    if (o.setup !== undefined) validateSetup(o.setup, `${path}.setup`)
    if (o.owner !== undefined) str(o.owner, `${path}.owner`)
    if (o.signal !== undefined) str(o.signal, `${path}.signal`)
  }
  if (o.op === 'cancel' && o.cause !== undefined && !CAUSES.includes(o.cause)) fail(`${path}.cause`, `expected one of ${CAUSES.join('|')}`)
  if (o.op === 'runMaintenance' && o.steps !== undefined) count(o.steps, `${path}.steps`)
  if (o.op === 'runMaintenance' && o.onAbort !== undefined) validateAbortAction(o.onAbort, `${path}.onAbort`)
  if ((o.op === 'followup' || o.op === 'steer' || o.op === 'inject' || o.op === 'queue') && o.mutate !== undefined && o.mutate !== true) {
    fail(`${path}.mutate`, `expected true or absent, got ${JSON.stringify(o.mutate)}`)
  }
  if ((o.op === 'followup' || o.op === 'steer' || o.op === 'inject' || o.op === 'queue') && o.handle !== undefined && o.handle !== true) {
    fail(`${path}.handle`, `expected true or absent, got ${JSON.stringify(o.handle)}`)
  }
  if (o.op === 'remove' && o.which !== undefined && !WHICH.includes(o.which)) fail(`${path}.which`, `expected one of ${WHICH.join('|')}, got ${JSON.stringify(o.which)}`)
  if (o.op === 'boundary') {
    if (!Array.isArray(o.ops)) fail(`${path}.ops`, 'expected an array of operations')
    o.ops.forEach((nested: unknown, i: number) => validateOperation(nested, `${path}.ops[${i}]`))
  }
  if (o.op === 'detach' && o.stale !== undefined && o.stale !== true) fail(`${path}.stale`, `expected true or absent, got ${JSON.stringify(o.stale)}`)
  if (o.op === 'resend' && o.via !== undefined && o.via !== 'followup' && o.via !== 'inject') fail(`${path}.via`, `expected followup|inject, got ${JSON.stringify(o.via)}`)
}

/** Programs read from saved run files (see {@link markRecorded}). */
const RECORDED = new WeakSet<object>()

/**
 * Mark a program read from a saved run file: it ran once and its trace is recorded, so validation
 * checks only its shape from now on (it may predate the reference rules; a replay must reproduce it).
 */
export function markRecorded(p: Program): void {
  RECORDED.add(p)
}

/**
 * Validate a parsed program; throws a {@link ProgramError} naming the bad field: a malformed one,
 * or a name nothing in the program defines (an owner, a session id, a signal, an entered stub, a
 * session event type: `references.ts`). A program {@link markRecorded} from a run file is checked
 * for its shape only.
 */
export function validateProgram(p: unknown): asserts p is Program {
  validateProgramShape(p)
  if (!RECORDED.has(p)) checkReferences(p, fail)
}

/** Validate a program's shape only (every field well formed), not what its names refer to. */
export function validateProgramShape(p: unknown): asserts p is Program {
  if (!isObject(p)) fail('', 'expected an object')
  if (p.v !== PROGRAM_VERSION) fail('.v', `expected version ${PROGRAM_VERSION}, got ${JSON.stringify(p.v)}`)
  if (!Array.isArray(p.actors) || p.actors.length === 0) fail('.actors', 'expected a non-empty array of actors')
  const ids = new Set<string>()
  p.actors.forEach((a: unknown, i: number) => {
    const path = `.actors[${i}]`
    if (!isObject(a)) fail(path, 'expected an actor object')
    str(a.id, `${path}.id`)
    if (ids.has(a.id)) fail(`${path}.id`, `duplicate actor id ${JSON.stringify(a.id)}`)
    ids.add(a.id)
    if (!Array.isArray(a.ops)) fail(`${path}.ops`, 'expected an array of operations')
    a.ops.forEach((o: unknown, j: number) => validateOperation(o, `${path}.ops[${j}]`))
  })
  const env = p.env
  if (env === undefined) return
  if (!isObject(env)) fail('.env', 'expected an object')
  env.listeners?.forEach((l: unknown, i: number) => validateListener(l, `.env.listeners[${i}]`))
  env.effects?.forEach((e: any, i: number) => {
    if (!isObject(e) || !(e.on === 'root' || (typeof e.on === 'string' && e.on.startsWith('owner:')))) fail(`.env.effects[${i}].on`, 'expected "root" or "owner:<name>"')
    validateAction(e.disposer, `.env.effects[${i}].disposer`)
  })
  for (const [id, steps] of Object.entries(env.model ?? {})) {
    if (!Array.isArray(steps)) fail(`.env.model.${id}`, 'expected an array of model steps')
    steps.forEach((s: any, i: number) => {
      if (!isObject(s) || !REPLIES.includes(s.reply)) fail(`.env.model.${id}[${i}].reply`, `expected one of ${REPLIES.join('|')}`)
      if (s.reply === 'delay') count(s.ms, `.env.model.${id}[${i}].ms`)
      if (s.reply === 'tool' && s.op !== undefined) validateOperation(s.op, `.env.model.${id}[${i}].op`)
    })
  }
  for (const [id, l] of Object.entries(env.loads ?? {})) {
    if (!isObject(l) || !LOADS.includes((l as any).load)) fail(`.env.loads.${id}.load`, `expected one of ${LOADS.join('|')}`)
    if ((l as any).load === 'slow') count((l as any).steps, `.env.loads.${id}.steps`)
    if ((l as any).gate !== undefined) {
      if ((l as any).load === 'hang') fail(`.env.loads.${id}.gate`, 'a hanging load never finishes: a gate applies to ok, slow and fail loads')
      str((l as any).gate, `.env.loads.${id}.gate`)
    }
  }
  if (env.preparations !== undefined) {
    if (!isObject(env.preparations)) fail('.env.preparations', 'expected an object of {steps?, gate?, onRelease?} per session id')
    for (const [id, spec] of Object.entries(env.preparations)) {
      const path = `.env.preparations.${id}`
      if (!isObject(spec)) fail(path, 'expected {steps?, gate?, onRelease?}')
      for (const key of Object.keys(spec)) if (!['steps', 'gate', 'onRelease'].includes(key)) fail(`${path}.${key}`, 'unknown field; expected steps, gate or onRelease')
      if (spec.steps !== undefined) count(spec.steps, `${path}.steps`)
      if (spec.gate !== undefined) str(spec.gate, `${path}.gate`)
      // (a throw would escape the release, which the contract makes synchronous and idempotent, §1.4)
      if (spec.onRelease !== undefined) {
        if (!isObject(spec.onRelease) || spec.onRelease.do !== 'op') fail(`${path}.onRelease`, `a release plays an operation: expected {do: 'op', op}, got ${JSON.stringify(spec.onRelease)}`)
        validateAction(spec.onRelease, `${path}.onRelease`)
      }
    }
  }
  if (env.persistence !== undefined && env.persistence !== false) fail('.env.persistence', `expected false or absent, got ${JSON.stringify(env.persistence)}`)
  if (env.persisted !== undefined) {
    if (!Array.isArray(env.persisted)) fail('.env.persisted', 'expected an array of {id, events}')
    env.persisted.forEach((s: unknown, i: number) => {
      if (!isObject(s)) fail(`.env.persisted[${i}]`, 'expected {id, events}')
      str(s.id, `.env.persisted[${i}].id`)
      if (!Array.isArray(s.events)) fail(`.env.persisted[${i}].events`, 'expected an array of {type, data}')
      s.events.forEach((e: unknown, j: number) => {
        if (!isObject(e)) fail(`.env.persisted[${i}].events[${j}]`, 'expected {type, data}')
        str(e.type, `.env.persisted[${i}].events[${j}].type`)
      })
      if (s.header !== undefined) {
        if (!isObject(s.header)) fail(`.env.persisted[${i}].header`, 'expected an object of header fields')
        for (const [key, value] of Object.entries(s.header)) {
          const type = (PERSISTED_HEADER_FIELDS as Record<string, string>)[key]
          if (!type) fail(`.env.persisted[${i}].header.${key}`, `unknown header field; expected one of ${Object.keys(PERSISTED_HEADER_FIELDS).join(', ')}`)
          if (typeof value !== type) fail(`.env.persisted[${i}].header.${key}`, `expected a ${type}, got ${JSON.stringify(value)}`)
        }
      }
    })
  }
  if (env.minting !== undefined) {
    if (!Array.isArray(env.minting)) fail('.env.minting', 'expected an array of {action, times?}')
    env.minting.forEach((m: unknown, i: number) => {
      if (!isObject(m)) fail(`.env.minting[${i}]`, 'expected {action, times?}')
      if (m.times !== undefined) count(m.times, `.env.minting[${i}].times`, 1)
      validateAction(m.action, `.env.minting[${i}].action`)
    })
  }
}

/** Parse and validate a program from JSON text. */
export function parseProgram(text: string): Program {
  let value: unknown
  try { value = JSON.parse(text) } catch (error) { throw new ProgramError(`program is not valid JSON: ${(error as Error).message}`) }
  validateProgram(value)
  return value
}

/** Count the operations of a program (top-level and nested in behaviours), for shrink reports. */
export function operationCount(p: Program): number {
  return p.actors.reduce((n, a) => n + a.ops.length, 0)
}
