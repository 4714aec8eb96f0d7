/**
 * A small builder for programs: one function per operation, `actor`, `program` and `on` (a
 * listener). Scenarios are written with it and {@link printProgram} prints programs back in the
 * same form, so a shrunk program from a report can be pasted into a scenario file.
 * @module
 */
import type { EventName } from '../../core/contract.js'
import type { Action, ActorSpec, CauseKind, EnvironmentSpec, ListenerSpec, Operation, Program, SetupSpec } from './program.js'
import { PROGRAM_VERSION } from './program.js'

type Extra<K extends Operation['op']> = Omit<Extract<Operation, { op: K }>, 'op' | 'session'>

/** `create` of `session`, with an optional setup, owner, parent, signal, `maxTokens` or empty seed. */
export function create(session: string, extra: Extra<'create'> = {}): Operation {
  return { op: 'create', session, ...extra }
}

/** `resume` of a persisted `session`. */
export function resume(session: string, extra: Extra<'resume'> = {}): Operation {
  return { op: 'resume', session, ...extra }
}

/** `handle.dispose()` of the latest handle of `session`. */
export function dispose(session: string): Operation {
  return { op: 'dispose', session }
}

/** `agent.cancel(cause, {keepInbox})` (cause `user` by default). */
export function cancel(session: string, extra: { cause?: CauseKind; keepInbox?: boolean } = {}): Operation {
  return { op: 'cancel', session, ...extra }
}

/**
 * Options of the input operations: `mutate` sends a mutable copy and changes its text after the send;
 * `handle` sends through the handle this actor's own create or resume returned, kept after disposal
 * (not through the registry), so a program can send after `dispose()` resolved (§12 Q3).
 */
export type InputExtra = { mutate?: true; handle?: true }

/** `agent.followup(message)`; with `mutate`, a mutable copy whose text changes right after the send. */
export function followup(session: string, text?: string, extra: InputExtra = {}): Operation {
  return { op: 'followup', session, ...(text === undefined ? {} : { text }), ...extra }
}

/** `agent.steer(message)`; with `mutate`, a mutable copy whose text changes right after the send. */
export function steer(session: string, text?: string, extra: InputExtra = {}): Operation {
  return { op: 'steer', session, ...(text === undefined ? {} : { text }), ...extra }
}

/** `agent.inject(message)`; with `mutate`, a mutable copy whose text changes right after the send. */
export function inject(session: string, text?: string, extra: InputExtra = {}): Operation {
  return { op: 'inject', session, ...(text === undefined ? {} : { text }), ...extra }
}

/** `agent.queue(message)` (the optional R-AG alias); with `mutate`, a mutable copy whose text changes right after the send. */
export function queue(session: string, text?: string, extra: InputExtra = {}): Operation {
  return { op: 'queue', session, ...(text === undefined ? {} : { text }), ...extra }
}

/**
 * `agent.runMaintenance(task)` with a task of `steps` scheduling points; `onAbort` (an `act(…)`)
 * is played synchronously when the task's signal aborts.
 */
export function runMaintenance(session: string, steps?: number, extra: { onAbort?: Action } = {}): Operation {
  return { op: 'runMaintenance', session, ...(steps === undefined ? {} : { steps }), ...extra }
}

/** `agent.inbox.remove(id)` of the first (default) or last pending message. */
export function remove(session: string, which?: 'first' | 'last'): Operation {
  return which === undefined ? { op: 'remove', session } : { op: 'remove', session, which }
}

/** Perform `ops` inside an initiator boundary of the live agent `session`, each awaited. */
export function boundary(session: string, ...ops: Operation[]): Operation {
  return { op: 'boundary', session, ops }
}

/** Re-send the id of the first message pending in `session`'s inbox (it must be rejected, §9 120). */
export function resend(session: string, via?: 'followup' | 'inject'): Operation {
  return via === undefined ? { op: 'resend', session } : { op: 'resend', session, via }
}

/** Register a stub agent `session` directly in the agent registry (every method throws but `whenIdle`). */
export function register(session: string): Operation {
  return { op: 'register', session }
}

/** `agent.whenIdle()`. */
/** Enter a fresh stub agent under `session` without announcing it (§4). */
export function enter(session: string): Operation {
  return { op: 'enter', session }
}

/** Announce the stub entered last under `session` (§4). */
export function announce(session: string): Operation {
  return { op: 'announce', session }
}

/** Detach the stub entered last under `session`; with `stale`, the one entered before it (§4). */
export function detach(session: string, extra: { stale?: true } = {}): Operation {
  return { op: 'detach', session, ...extra }
}

export function whenIdle(session: string): Operation {
  return { op: 'whenIdle', session }
}

/** Abort the named creation signal. */
export function abortSignal(signal: string): Operation {
  return { op: 'abortSignal', signal }
}

/** Dispose the named owner fiber. */
export function unloadOwner(owner: string): Operation {
  return { op: 'unloadOwner', owner }
}

/** Unload the factory plugin. */
export function unloadFactory(): Operation {
  return { op: 'unloadFactory' }
}

/** Unload the root. */
export function shutdown(): Operation {
  return { op: 'shutdown' }
}

/** Persist, drop the process and boot a fresh one over the same disk. */
export function restart(): Operation {
  return { op: 'restart' }
}

/** Nothing but a scheduling point: the actor's next operation comes later. */
export function pause(): Operation {
  return { op: 'pause' }
}

/** `ctx.sessions.flush(session)` of the live session `session` (§1.3). */
export function flush(session: string): Operation {
  return { op: 'flush', session }
}

/** Open the named gate: what waits on it goes on (a `wait(gate)` action, a gated load or preparation). */
export function openGate(gate: string): Operation {
  return { op: 'openGate', gate }
}

/** An action that resolves once the named gate is opened (then one scheduling point): an async tail ended at a chosen point. */
export function wait(gate: string): Action {
  return { do: 'wait', gate }
}

/** The process dies without shutdown and a new one boots over the disk. */
export function crash(): Operation {
  return { op: 'crash' }
}

/** An actor: operations run one after another. */
export function actor(id: string, ...ops: Operation[]): ActorSpec {
  return { id, ops }
}

/**
 * A listener on `event` playing `action` on its first match (unless `nth` says which), once unless
 * `times` says otherwise; `where` filters on the payload, `onAbort` observes the activity signal of
 * an `agent/pre-step` or `agent/turn-stopping` payload.
 */
export function on(event: EventName, action: Action, extra: Omit<ListenerSpec, 'event' | 'action'> = {}): ListenerSpec {
  return { event, action, ...extra }
}

/** Perform `operation` from inside a dispatch, commit, disposer or tool body. */
export function act(operation: Operation): Action {
  return { do: 'op', op: operation }
}

/** The other actions. */
export const THROW: Action = { do: 'throw' }
export const REJECT: Action = { do: 'reject' }
export const SLOW: Action = { do: 'slow' }
/** On an `agent/pre-step` listener: decide `{kind: 'reject'}` without calling `next()`; elsewhere only a mark. */
export const BLOCK: Action = { do: 'block' }

/** A setup of `steps` scheduling points with optional faults and registrations. */
export function setup(steps: number, extra: Omit<SetupSpec, 'steps'> = {}): SetupSpec {
  return { steps, ...extra }
}

/** A whole program. */
export function program(actors: ActorSpec[], env?: EnvironmentSpec, name?: string): Program {
  return { v: PROGRAM_VERSION, ...(name === undefined ? {} : { name }), actors, ...(env === undefined ? {} : { env }) }
}

/** A user message as persisted in a splice (`content, id, role, source`). */
export function message(id: string, text = `persisted ${id}`): { id: string; role: 'user'; content: { type: 'text'; text: string }[]; source: { kind: 'user' } } {
  return { id, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } }
}

/** A persisted `agent/inbox/spliced` event (valid or not: nothing is checked here). */
export function spliced(target: string, start: number, inserted: unknown[], removedCount?: number): { type: string; data: unknown } {
  return { type: 'agent/inbox/spliced', data: removedCount === undefined ? { target, start, inserted } : { target, start, removedCount, inserted } }
}

/** One completed persisted turn (`turn/start` … `turn/end`) with a user message `id`. */
export function persistedTurn(turn: number, id: string): Array<{ type: string; data: unknown }> {
  return [
    spliced('next-turn', 0, [message(id)]),
    { type: 'turn/start', data: { turn } },
    spliced('next-turn', 0, [], 1),
    { type: 'step/start', data: { turn, step: 1 } },
    { type: 'user/message', data: message(id) },
    { type: 'assistant/message', data: { turn, step: 1, text: `persisted reply ${turn}` } },
    { type: 'step/end', data: { turn, step: 1 } },
    { type: 'turn/end', data: { turn, reason: { kind: 'completed' } } },
  ]
}
