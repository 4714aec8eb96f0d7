/**
 * fast-check arbitraries for whole programs and their pieces (design.md concept 2: "every
 * operation and behaviour is reachable by the random program generator"). Ids come from small
 * pools (sessions s1..s3, owners o1..o2, signals g1..g2) so operations collide.
 *
 * Every piece takes the same {@link ArbitraryOptions} so a user composes them in their own
 * properties: `fc.property(operationArbitrary({ sessions: ['s1'] }), (op) => …)`.
 *
 * Longer than 500 lines because the arbitraries are mutually recursive (an action performs an
 * operation, an operation carries a setup with listeners and effects whose actions perform
 * operations), bounded by one `depth`; split, each file would import the others in a circle.
 * @module
 */
import fc from 'fast-check'
import type { Arbitrary } from 'fast-check'
import { EVENT_NAMES } from '../../core/contract.js'
import type { EventName } from '../../core/contract.js'
import type {
  Action, ActorSpec, CauseKind, EffectSpec, EnvironmentSpec, ListenerSpec, LoadSpec, MintingSpec, ModelStepSpec, Operation, PayloadFilter, PreparationSpec, Program,
  SetupSpec,
} from '../../sim/program/program.js'
import { OPERATION_KINDS, PAYLOAD_FILTER_EVENTS, PAYLOAD_FILTER_FIELDS, PROGRAM_VERSION, SIGNAL_EVENTS } from '../../sim/program/program.js'
import { SESSION_EVENT_TYPES } from '../../sim/program/references.js'
import { resolveReferences } from '../../sim/program/resolve-references.js'
import { chainOnce, Lazy, shared } from './build-scope.js'

/** An operation kind. */
export type OperationKind = (typeof OPERATION_KINDS)[number]

/** Options shared by every arbitrary of this module. */
export interface ArbitraryOptions {
  /** Session id pool (default `s1, s2, s3`). */
  readonly sessions?: readonly string[]
  /** Owner fiber name pool (default `o1, o2`). */
  readonly owners?: readonly string[]
  /** Creation signal name pool (default `g1, g2`). */
  readonly signals?: readonly string[]
  /** Gate name pool (default `k1, k2`): what `wait` actions, gated loads and preparations wait on and `openGate` opens. */
  readonly gates?: readonly string[]
  /** Actors per program (default 1..4). */
  readonly minActors?: number
  readonly maxActors?: number
  /** Operations per actor (default 1..5). */
  readonly maxOps?: number
  /**
   * How deep operations nest inside behaviours (a listener whose action is an operation whose
   * setup has a listener whose action is an operation …). Default 1.
   */
  readonly nesting?: number
  /**
   * Allow behaviours that never settle by themselves: `setup.hangAt`, model `hang`, load `hang`.
   * Default true. Without them a run can still deadlock on an operation waiting on another actor.
   */
  readonly hangs?: boolean
  /** Operation kinds to draw from (actors and nested), default all of {@link OPERATION_KINDS}. */
  readonly operations?: readonly OperationKind[]
}

/** Defaults of {@link ArbitraryOptions}. */
export const DEFAULT_ARBITRARY_OPTIONS = {
  sessions: ['s1', 's2', 's3'],
  owners: ['o1', 'o2'],
  signals: ['g1', 'g2'],
  gates: ['k1', 'k2'],
  minActors: 1,
  maxActors: 4,
  maxOps: 5,
  nesting: 1,
  hangs: true,
  operations: OPERATION_KINDS,
} as const satisfies Required<ArbitraryOptions>

type Resolved = Required<ArbitraryOptions>

function resolve(options: ArbitraryOptions): Resolved {
  const o = { ...DEFAULT_ARBITRARY_OPTIONS, ...options } as Resolved
  for (const key of ['sessions', 'owners', 'signals', 'gates', 'operations'] as const) {
    if (o[key].length === 0) throw new RangeError(`arbitrary options: ${key} must not be empty`)
  }
  for (const kind of o.operations) {
    if (!(OPERATION_KINDS as readonly string[]).includes(kind)) throw new RangeError(`arbitrary options: unknown operation kind ${JSON.stringify(kind)}; expected one of ${OPERATION_KINDS.join(', ')}`)
  }
  if (!(o.minActors >= 1 && o.maxActors >= o.minActors)) throw new RangeError(`arbitrary options: need 1 <= minActors <= maxActors, got ${o.minActors}..${o.maxActors}`)
  return o
}

/** The key of a piece in its build scope (`build-scope.ts`): its name, the options it resolves to and its other arguments. */
function pieceKey(name: string, options: ArbitraryOptions, ...args: readonly (string | number)[]): string {
  return `${name} ${args.join(' ')} ${JSON.stringify(resolve(options))}`
}

/** `arb` one time in `n` (an integer >= 2), else absent (`undefined`); shrinks toward absent. */
function maybe<T>(arb: Arbitrary<T>, n: number): Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: n - 1 }, { arbitrary: arb, weight: 1 })
}

/** `arb` two times in three, else absent; shrinks toward absent. */
function often<T>(arb: Arbitrary<T>): Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: arb, weight: 2 })
}

/** Drop the keys whose value is `undefined` (programs never carry explicit `undefined`). */
function compact<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never
}

/** Event types a `session/event` listener may filter on (the program language's list). */
export { SESSION_EVENT_TYPES }

const CAUSES: readonly CauseKind[] = ['user', 'parent', 'hook', 'disposed']

/** A session id from the pool. */
export function sessionArbitrary(options: ArbitraryOptions = {}): Arbitrary<string> {
  return fc.constantFrom(...resolve(options).sessions)
}

/** An owner name from the pool. */
export function ownerArbitrary(options: ArbitraryOptions = {}): Arbitrary<string> {
  return fc.constantFrom(...resolve(options).owners)
}

/** A signal name from the pool. */
export function signalArbitrary(options: ArbitraryOptions = {}): Arbitrary<string> {
  return fc.constantFrom(...resolve(options).signals)
}

/** A gate name from the pool. */
export function gateArbitrary(options: ArbitraryOptions = {}): Arbitrary<string> {
  return fc.constantFrom(...resolve(options).gates)
}

/**
 * What a behaviour does when it fires; `op` actions only while `depth > 0`. A `wait` on a gate no
 * operation of the program opens becomes `slow` once the program is drawn (`resolveReferences`).
 */
export function actionArbitrary(options: ArbitraryOptions = {}, depth = resolve(options).nesting): Arbitrary<Action> {
  return shared(pieceKey('action', options, depth), () => buildActionArbitrary(options, depth))
}

function buildActionArbitrary(options: ArbitraryOptions, depth: number): Arbitrary<Action> {
  // (a wait counts twice: it survives only in a program that also opens a gate)
  const wait = gateArbitrary(options).map((gate): Action => ({ do: 'wait', gate }))
  const plain: Arbitrary<Action>[] = [
    fc.constant({ do: 'throw' as const }), fc.constant({ do: 'reject' as const }), fc.constant({ do: 'slow' as const }), fc.constant({ do: 'block' as const }), wait, wait,
  ]
  if (depth <= 0) return fc.oneof(...plain)
  return fc.oneof(...plain, operationArbitrary(options, depth - 1).map((op): Action => ({ do: 'op', op })))
}

/** Plausible values of each payload filter field (§1.9 payloads; turns and steps stay small). */
const FILTER_VALUES: { [K in keyof PayloadFilter]-?: Arbitrary<NonNullable<PayloadFilter[K]>> } = {
  turn: fc.integer({ min: 1, max: 3 }),
  step: fc.integer({ min: 1, max: 2 }),
  status: fc.constantFrom('idle', 'running'),
  source: fc.constantFrom('startup', 'resume'),
  target: fc.constantFrom('next-turn', 'next-step'),
  outcome: fc.constantFrom('inserted', 'claimed', 'canceled'),
  reason: fc.constantFrom('completed', 'aborted', 'blocked', 'error'),
  pending: fc.boolean(),
}

/** The filter fields an event's payload can carry (`pending` on every event). */
export function filterFieldsOf(event: EventName): (keyof PayloadFilter)[] {
  return PAYLOAD_FILTER_FIELDS.filter((f) => f === 'pending' || PAYLOAD_FILTER_EVENTS[f].includes(event))
}

/** A payload filter of one or two fields the event can carry. */
export function payloadFilterArbitrary(event: EventName): Arbitrary<PayloadFilter> {
  return shared(`payload filter ${event}`, () => buildPayloadFilterArbitrary(event))
}

function buildPayloadFilterArbitrary(event: EventName): Arbitrary<PayloadFilter> {
  const fields = filterFieldsOf(event)
  return chainOnce(
    fc.subarray(fields, { minLength: 1, maxLength: Math.min(2, fields.length) }),
    (chosen) => fc.tuple(...chosen.map((f) => FILTER_VALUES[f] as Arbitrary<unknown>)).map((values) => Object.fromEntries(chosen.map((f, i) => [f, values[i]])) as PayloadFilter),
    (chosen) => chosen.join(),
  )
}

/**
 * An abort observer's action: an operation (a throw would escape the signal's dispatch), plain ones
 * only, weighted by {@link ABORT_OPERATIONS}: a second cancel most, then sends and teardown.
 */
function abortActionArbitrary(options: ArbitraryOptions): Arbitrary<Action> {
  return shared(pieceKey('abort action', options), () => buildAbortActionArbitrary(options))
}

function buildAbortActionArbitrary(options: ArbitraryOptions): Arbitrary<Action> {
  const o = resolve(options)
  const kinds = o.operations.filter((k) => ABORT_OPERATIONS[k] !== undefined)
  if (kinds.length === 0) return operationArbitrary({ ...options, operations: o.operations }, 0).map((op): Action => ({ do: 'op', op }))
  return fc.oneof(...kinds.map((k) => ({ arbitrary: operationArbitrary({ ...options, operations: [k] }, 0), weight: ABORT_OPERATIONS[k]! })))
    .map((op): Action => ({ do: 'op', op }))
}

/**
 * A listener on any event of the vocabulary, with any action, optional session/event-type and
 * payload filters, an occurrence index (`nth`) and `times`; a listener on an event that carries the
 * activity signal sometimes observes its abort (`onAbort`). An `agent/pre-step` listener blocks the
 * step (`block`) one time in three.
 */
export function listenerArbitrary(options: ArbitraryOptions = {}, depth = resolve(options).nesting): Arbitrary<ListenerSpec> {
  return shared(pieceKey('listener', options, depth), () => buildListenerArbitrary(options, depth))
}

function buildListenerArbitrary(options: ArbitraryOptions, depth: number): Arbitrary<ListenerSpec> {
  const action = actionArbitrary(options, depth)
  const preStepAction = fc.oneof({ arbitrary: fc.constant<Action>({ do: 'block' }), weight: 1 }, { arbitrary: action, weight: 2 })
  return chainOnce(fc.constantFrom<EventName>(...EVENT_NAMES), (event) => fc.record({
    action: event === 'agent/pre-step' ? preStepAction : action,
    session: maybe(sessionArbitrary(options), 2),
    eventType: maybe(fc.constantFrom(...SESSION_EVENT_TYPES), 2),
    where: maybe(payloadFilterArbitrary(event), 3),
    nth: maybe(fc.integer({ min: 2, max: 3 }), 4),
    times: maybe(fc.integer({ min: 1, max: 3 }), 3),
    onAbort: SIGNAL_EVENTS.includes(event) && depth > 0 ? maybe(abortActionArbitrary(options), 2) : fc.constant(undefined),
  }, { noNullPrototype: true }).map((l): ListenerSpec => compact({
    event,
    ...l,
    // An event-type filter only means something on session/event.
    eventType: event === 'session/event' ? l.eventType : undefined,
  })))
}

/**
 * Operations a reentrant listener performs from inside a dispatch, with their weights: teardowns,
 * unloads, cancels and sends first (the shapes that break lifecycles when work is pending).
 */
export const REENTRANT_OPERATIONS: Readonly<Partial<Record<OperationKind, number>>> = {
  dispose: 4, unloadOwner: 1, unloadFactory: 1, shutdown: 1, cancel: 4, followup: 3, steer: 2, inject: 1, remove: 1, runMaintenance: 2, whenIdle: 1, flush: 1,
}

/** Operations an abort observer performs, with their weights. */
const ABORT_OPERATIONS: Readonly<Partial<Record<OperationKind, number>>> = { cancel: 4, followup: 2, steer: 2, inject: 1, dispose: 1, remove: 1 }

/**
 * Where a reentrant listener fires on agent `s`: the dispatches a lifecycle bug hides in, with the
 * filters that make them fire while work is pending (the 2nd insertion, a splice observed with
 * items already pending, a claim, a discard, a status flip, a turn boundary, an abort, a creation
 * edge).
 */
function reentrantSiteArbitrary(s: string): Arbitrary<Omit<ListenerSpec, 'action'>> {
  const splice = (where: PayloadFilter): Omit<ListenerSpec, 'action'> => ({ event: 'session/event', session: s, eventType: 'agent/inbox/spliced', where })
  return fc.oneof(
    { arbitrary: fc.constant({ event: 'agent/inbox/inserted' as const, session: s, nth: 2 }), weight: 3 },
    { arbitrary: fc.constant(splice({ pending: true })), weight: 3 },
    { arbitrary: fc.constantFrom(splice({ outcome: 'claimed' }), splice({ outcome: 'canceled' }), splice({ target: 'next-step' })), weight: 1 },
    { arbitrary: fc.constantFrom<Omit<ListenerSpec, 'action'>>(
      { event: 'agent/inbox/claimed', session: s }, { event: 'agent/inbox/discarded', session: s }, { event: 'agent/inbox/inserted', session: s, where: { pending: true } },
    ), weight: 2 },
    { arbitrary: fc.constantFrom<Omit<ListenerSpec, 'action'>>(
      { event: 'agent/status', session: s, where: { status: 'running' } }, { event: 'agent/status', session: s, where: { status: 'idle' } },
    ), weight: 2 },
    { arbitrary: fc.constantFrom<Omit<ListenerSpec, 'action'>>(
      { event: 'session/event', session: s, eventType: 'turn/start' }, { event: 'session/event', session: s, eventType: 'turn/end' },
      { event: 'session/event', session: s, eventType: 'step/start' }, { event: 'agent/turn-stopping', session: s },
      { event: 'session/event', session: s, eventType: 'turn/start', nth: 2 },
    ), weight: 2 },
    { arbitrary: fc.constantFrom<Omit<ListenerSpec, 'action'>>(
      { event: 'agent/created', session: s }, { event: 'agent/session-start', session: s }, { event: 'session/created', session: s },
    ), weight: 1 },
  )
}

/**
 * A listener aimed at agent `s` that performs a teardown, unload, cancel or send on `s` from
 * inside a dispatch (weighted by {@link REENTRANT_OPERATIONS}), or observes the abort of its
 * activity and acts from inside that abort. Only kinds `options.operations` allows.
 */
export function reentrantListenerArbitrary(s: string, options: ArbitraryOptions = {}): Arbitrary<ListenerSpec> {
  const o = resolve({ ...options, sessions: [s] })
  const kinds = o.operations.filter((k) => REENTRANT_OPERATIONS[k] !== undefined)
  if (kinds.length === 0) return listenerArbitrary({ ...options, sessions: [s] })
  const one = { ...options, sessions: [s] }
  const op = fc.oneof(...kinds.map((k) => ({ arbitrary: operationArbitrary({ ...one, operations: [k] }, 0), weight: REENTRANT_OPERATIONS[k]! })))
  const acting = fc.tuple(reentrantSiteArbitrary(s), op, maybe(fc.constant(2), 3)).map(([site, operation, times]): ListenerSpec => compact({ ...site, action: { do: 'op', op: operation }, times }))
  const observing = fc.tuple(fc.constantFrom<EventName>(...SIGNAL_EVENTS), abortActionArbitrary(one), fc.constantFrom<Action>({ do: 'slow' }, { do: 'slow' }, { do: 'throw' }))
    .map(([event, onAbort, action]): ListenerSpec => ({ event, session: s, action, onAbort }))
  return fc.oneof({ arbitrary: acting, weight: 3 }, { arbitrary: observing, weight: 1 })
}

/** Operations a minting behaviour usually performs: the ones that race the creation being built (§9 59, 104). */
const MINTING_OPERATIONS = ['unloadOwner', 'abortSignal', 'dispose'] as const

/**
 * A behaviour played when the process mints an agent scope: usually an operation racing the
 * creation (owner unload, creation-signal abort, dispose of the id's handle), else a plain action.
 */
export function mintingArbitrary(options: ArbitraryOptions = {}, depth = resolve(options).nesting): Arbitrary<MintingSpec> {
  const o = resolve(options)
  const actions: { arbitrary: Arbitrary<Action>; weight: number }[] = [{ arbitrary: actionArbitrary(options, 0), weight: 1 }]
  const kinds = MINTING_OPERATIONS.filter((k) => o.operations.includes(k))
  if (depth > 0 && kinds.length > 0) {
    actions.push({ arbitrary: operationArbitrary({ ...options, operations: kinds }, depth - 1).map((op): Action => ({ do: 'op', op })), weight: 3 })
  }
  return fc.record({
    action: fc.oneof(...actions),
    times: maybe(fc.integer({ min: 1, max: 3 }), 3),
  }, { noNullPrototype: true }).map((m): MintingSpec => compact(m))
}

/** An effect whose disposer plays any action. */
export function effectArbitrary(options: ArbitraryOptions = {}, depth = resolve(options).nesting): Arbitrary<EffectSpec> {
  return actionArbitrary(options, depth).map((disposer) => ({ disposer }))
}

/** An effect on the root fiber or on a named owner fiber. */
export function environmentEffectArbitrary(options: ArbitraryOptions = {}, depth = resolve(options).nesting): Arbitrary<EffectSpec & { on: 'root' | `owner:${string}` }> {
  const on = fc.oneof(fc.constant('root' as const), ownerArbitrary(options).map((o) => `owner:${o}` as const))
  return fc.tuple(on, effectArbitrary(options, depth)).map(([where, effect]) => ({ on: where, ...effect }))
}

/** An async setup of 0..3 steps with any combination of faults, a commit operation, effects and listeners. */
export function setupArbitrary(options: ArbitraryOptions = {}, depth = resolve(options).nesting): Arbitrary<SetupSpec> {
  return shared(pieceKey('setup', options, depth), () => buildSetupArbitrary(options, depth))
}

function buildSetupArbitrary(options: ArbitraryOptions, depth: number): Arbitrary<SetupSpec> {
  const o = resolve(options)
  return chainOnce(fc.integer({ min: 0, max: 3 }), (steps) => fc.record({
    throwSync: maybe(fc.constant(true), 8),
    rejectAt: steps > 0 ? maybe(fc.integer({ min: 1, max: steps }), 6) : fc.constant(undefined),
    hangAt: o.hangs ? maybe(fc.integer({ min: 0, max: steps }), 8) : fc.constant(undefined),
    commitThrows: maybe(fc.constant(true), 8),
    commitOp: depth > 0 ? maybe(operationArbitrary(options, depth - 1), 5) : fc.constant(undefined),
    effects: maybe(fc.array(effectArbitrary(options, depth), { minLength: 1, maxLength: 2 }), 3),
    listeners: maybe(fc.array(listenerArbitrary(options, depth), { minLength: 1, maxLength: 2 }), 3),
  }, { noNullPrototype: true }).map((extra): SetupSpec => compact({ steps, ...extra })))
}

/** One model call's behaviour: every reply kind (`hang` only with `hangs`), tool replies with an optional operation. */
export function modelStepArbitrary(options: ArbitraryOptions = {}, depth = resolve(options).nesting): Arbitrary<ModelStepSpec> {
  const o = resolve(options)
  const steps: Arbitrary<ModelStepSpec>[] = [
    fc.constant({ reply: 'text' as const }),
    fc.constant({ reply: 'fail' as const }),
    fc.integer({ min: 0, max: 20 }).map((ms) => ({ reply: 'delay' as const, ms })),
    fc.constant({ reply: 'tool' as const }),
  ]
  if (depth > 0) steps.push(operationArbitrary(options, depth - 1).map((op) => ({ reply: 'tool' as const, op })))
  if (o.hangs) steps.push(fc.constant({ reply: 'hang' as const }))
  return fc.oneof(...steps)
}

/**
 * A persistence load behaviour: every kind (`hang` only with `hangs`); an `ok`, `slow` or `fail`
 * load sometimes finishes only when a gate opens (a gate no operation opens is dropped once the
 * program is drawn).
 */
export function loadArbitrary(options: ArbitraryOptions = {}): Arbitrary<LoadSpec> {
  const gate = maybe(gateArbitrary(options), 3)
  const loads: Arbitrary<LoadSpec>[] = [
    gate.map((g): LoadSpec => compact({ load: 'ok' as const, gate: g })),
    fc.tuple(fc.integer({ min: 1, max: 3 }), gate).map(([steps, g]): LoadSpec => compact({ load: 'slow' as const, steps, gate: g })),
    gate.map((g): LoadSpec => compact({ load: 'fail' as const, gate: g })),
  ]
  if (resolve(options).hangs) loads.push(fc.constant({ load: 'hang' as const }))
  return fc.oneof(...loads)
}

/**
 * A persistence preparation's hand-over and release: arriving after 0..2 more points, sometimes
 * only when a gate opens (ignoring the load's signal: a preparation that arrives after the caller
 * gave up), sometimes with an operation played inside its release.
 */
export function preparationArbitrary(options: ArbitraryOptions = {}, depth = resolve(options).nesting): Arbitrary<PreparationSpec> {
  return fc.record({
    steps: maybe(fc.integer({ min: 0, max: 2 }), 2),
    gate: maybe(gateArbitrary(options), 2),
    onRelease: depth > 0 ? maybe(abortActionArbitrary(options), 4) : fc.constant(undefined),
  }, { noNullPrototype: true }).map((p): PreparationSpec => compact(p))
}

function persistedMessage(id: string): { id: string; role: 'user'; content: { type: 'text'; text: string }[]; source: { kind: 'user' } } {
  return { id, role: 'user', content: [{ type: 'text', text: `persisted ${id}` }], source: { kind: 'user' } }
}

type RawEvent = { type: string; data: unknown }

const splice = (target: string, start: number, inserted: unknown[], removedCount?: number): RawEvent =>
  ({ type: 'agent/inbox/spliced', data: removedCount === undefined ? { target, start, inserted } : { target, start, removedCount, inserted } })

function completedTurn(turn: number): RawEvent[] {
  const m = persistedMessage(`p${turn}`)
  return [
    splice('next-turn', 0, [m]),
    { type: 'turn/start', data: { turn } },
    splice('next-turn', 0, [], 1),
    { type: 'step/start', data: { turn, step: 1 } },
    { type: 'user/message', data: m },
    { type: 'assistant/message', data: { turn, step: 1, text: `persisted reply ${turn}` } },
    { type: 'step/end', data: { turn, step: 1 } },
    { type: 'turn/end', data: { turn, reason: { kind: 'completed' } } },
  ]
}

/**
 * A persisted log: empty, completed turns, turns plus pending inbox items, or a log whose
 * inbox replay must fail (a splice past the end, an unknown target, a duplicate pending id, an
 * over-long removal).
 */
export function persistedLogArbitrary(): Arbitrary<RawEvent[]> {
  const turns = fc.integer({ min: 0, max: 2 }).map((n) => Array.from({ length: n }, (_, k) => completedTurn(k + 1)).flat())
  return fc.oneof(
    fc.constant([] as RawEvent[]),
    turns.filter((t) => t.length > 0),
    fc.tuple(turns, fc.constantFrom('next-turn', 'next-step')).map(([t, target]) => [...t, splice(target, 0, [persistedMessage('q1')])]),
    fc.tuple(turns, fc.constantFrom(
      [splice('next-turn', 1, [])],
      [splice('elsewhere', 0, [persistedMessage('q1')])],
      [splice('next-turn', 0, [persistedMessage('q1')]), splice('next-step', 0, [persistedMessage('q1')])],
      [splice('next-step', 0, [persistedMessage('q1')]), splice('next-step', 0, [], 2)],
    )).map(([t, bad]) => [...t, ...bad]),
  )
}

/** One operation of any allowed kind; nested setups/actions only while `depth > 0`. */
export function operationArbitrary(options: ArbitraryOptions = {}, depth = resolve(options).nesting): Arbitrary<Operation> {
  return shared(pieceKey('operation', options, depth), () => buildOperationArbitrary(options, depth))
}

function buildOperationArbitrary(options: ArbitraryOptions, depth: number): Arbitrary<Operation> {
  const o = resolve(options)
  const session = sessionArbitrary(options)
  const text = fc.constantFrom('hello', 'again', 'more')
  const byKind: Record<OperationKind, () => Arbitrary<Operation>> = {
    create: () => fc.record({
      session,
      setup: maybe(setupArbitrary(options, depth), 2),
      link: maybe(fc.oneof({ arbitrary: ownerArbitrary(options).map((owner) => ({ owner })), weight: 2 }, { arbitrary: session.map((parent) => ({ parent })), weight: 1 }), 2),
      signal: maybe(signalArbitrary(options), 4),
      maxTokens: maybe(fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(0, -1, 1.5)), 6),
      seeded: maybe(fc.constant(true), 6),
    }, { noNullPrototype: true }).map(({ link, ...rest }): Operation => compact({ op: 'create', ...rest, ...link })),
    resume: () => fc.record({
      session,
      setup: maybe(setupArbitrary(options, depth), 2),
      owner: maybe(ownerArbitrary(options), 2),
      signal: maybe(signalArbitrary(options), 4),
    }, { noNullPrototype: true }).map((rest): Operation => compact({ op: 'resume', ...rest })),
    dispose: () => session.map((s): Operation => ({ op: 'dispose', session: s })),
    cancel: () => fc.record({
      session,
      cause: maybe(fc.constantFrom(...CAUSES), 2),
      keepInbox: maybe(fc.constant(true), 2),
    }, { noNullPrototype: true }).map((rest): Operation => compact({ op: 'cancel', ...rest })),
    followup: () => input('followup'),
    steer: () => input('steer'),
    inject: () => input('inject'),
    queue: () => input('queue'),
    runMaintenance: () => fc.record({
      session,
      steps: maybe(fc.integer({ min: 0, max: 3 }), 2),
      onAbort: depth > 0 ? maybe(abortActionArbitrary(options), 4) : fc.constant(undefined),
    }, { noNullPrototype: true }).map((rest): Operation => compact({ op: 'runMaintenance', ...rest })),
    whenIdle: () => session.map((s): Operation => ({ op: 'whenIdle', session: s })),
    remove: () => fc.record({ session, which: maybe(fc.constant('last' as const), 2) }, { noNullPrototype: true })
      .map((rest): Operation => compact({ op: 'remove', ...rest })),
    register: () => session.map((s): Operation => ({ op: 'register', session: s })),
    enter: () => session.map((s): Operation => ({ op: 'enter', session: s })),
    announce: () => session.map((s): Operation => ({ op: 'announce', session: s })),
    detach: () => fc.record({ session, stale: maybe(fc.constant(true as const), 3) }, { noNullPrototype: true })
      .map((rest): Operation => compact({ op: 'detach', ...rest })),
    boundary: () => fc.record({
      session,
      ops: depth > 0 ? fc.array(operationArbitrary(options, depth - 1), { minLength: 1, maxLength: 2 }) : fc.constant([] as Operation[]),
    }, { noNullPrototype: true }).map((rest): Operation => ({ op: 'boundary', ...rest })),
    resend: () => fc.record({ session, via: maybe(fc.constant('inject' as const), 2) }, { noNullPrototype: true })
      .map((rest): Operation => compact({ op: 'resend', ...rest })),
    abortSignal: () => signalArbitrary(options).map((signal): Operation => ({ op: 'abortSignal', signal })),
    unloadOwner: () => ownerArbitrary(options).map((owner): Operation => ({ op: 'unloadOwner', owner })),
    unloadFactory: () => fc.constant<Operation>({ op: 'unloadFactory' }),
    shutdown: () => fc.constant<Operation>({ op: 'shutdown' }),
    restart: () => fc.constant<Operation>({ op: 'restart' }),
    crash: () => fc.constant<Operation>({ op: 'crash' }),
    pause: () => fc.constant<Operation>({ op: 'pause' }),
    flush: () => session.map((s): Operation => ({ op: 'flush', session: s })),
    openGate: () => gateArbitrary(options).map((gate): Operation => ({ op: 'openGate', gate })),
  }
  function input(op: 'followup' | 'steer' | 'inject' | 'queue'): Arbitrary<Operation> {
    return fc.record({ session, text: maybe(text, 4), mutate: maybe(fc.constant(true as const), 4), handle: maybe(fc.constant(true as const), 8) }, { noNullPrototype: true })
      .map((rest): Operation => compact({ op, ...rest }))
  }
  // Process-wide operations end most of a run's interest, so they are drawn less often.
  // A registered or entered stub holds its id for the rest of the process, so it is drawn rarely too.
  const weight: Partial<Record<OperationKind, number>> = {
    create: 6, followup: 3, steer: 2, inject: 2, cancel: 2, unloadFactory: 1, shutdown: 1, restart: 1, crash: 1, register: 1, boundary: 1,
    enter: 1, announce: 1, detach: 1, pause: 1, openGate: 4,
  }
  return fc.oneof(...o.operations.map((kind) => ({ arbitrary: new Lazy(byKind[kind]), weight: weight[kind] ?? 2 })))
}

/** An actor with 1..`maxOps` operations. */
export function actorArbitrary(id: string, options: ArbitraryOptions = {}): Arbitrary<ActorSpec> {
  const o = resolve(options)
  return fc.array(operationArbitrary(options), { minLength: 1, maxLength: o.maxOps }).map((ops) => ({ id, ops }))
}

/**
 * The environment: listeners, effects, model scripts, loads, preparations and persisted logs keyed
 * by the session pool, minting behaviours, and now and then a process with no persistence.
 */
export function environmentArbitrary(options: ArbitraryOptions = {}): Arbitrary<EnvironmentSpec> {
  const o = resolve(options)
  const perSession = <T>(arb: Arbitrary<T>): Arbitrary<Record<string, T>> =>
    chainOnce(fc.subarray([...o.sessions], { minLength: 1 }), (ids) => fc.tuple(...ids.map(() => arb)).map((values) => Object.fromEntries(ids.map((id, i) => [id, values[i]!]))), (ids) => ids.join())
  return fc.record({
    listeners: often(fc.array(listenerArbitrary(options), { minLength: 1, maxLength: 4 })),
    effects: maybe(fc.array(environmentEffectArbitrary(options), { minLength: 1, maxLength: 2 }), 3),
    model: often(perSession(fc.array(modelStepArbitrary(options), { minLength: 1, maxLength: 4 }))),
    loads: maybe(perSession(loadArbitrary(options)), 2),
    preparations: maybe(perSession(preparationArbitrary(options)), 3),
    persistence: maybe(fc.constant(false as const), 12),
    persisted: maybe(chainOnce(fc.subarray([...o.sessions], { minLength: 1 }), (ids) =>
      fc.tuple(...ids.map(() => persistedLogArbitrary())).map((logs) => ids.map((id, i) => ({ id, events: logs[i]! }))), (ids) => ids.join()), 2),
    minting: maybe(fc.array(mintingArbitrary(options), { minLength: 1, maxLength: 1 }), 4),
  }, { noNullPrototype: true }).map((env): EnvironmentSpec => compact(env))
}

/** A program from every feature at once. */
function plainProgramArbitrary(options: ArbitraryOptions): Arbitrary<Program> {
  const o = resolve(options)
  // One actor arbitrary per position and one environment, whatever the number of actors drawn.
  const actors: Arbitrary<ActorSpec>[] = []
  const environment = environmentArbitrary(options)
  const actor = (i: number): Arbitrary<ActorSpec> => (actors[i] ??= actorArbitrary(`a${i + 1}`, options))
  return chainOnce(fc.integer({ min: o.minActors, max: o.maxActors }), (n) => fc.tuple(fc.tuple(...Array.from({ length: n }, (_, i) => actor(i))), environment))
    .map(([actors, env]): Program => resolveReferences(Object.keys(env).length === 0 ? { v: PROGRAM_VERSION, actors } : { v: PROGRAM_VERSION, actors, env }))
}

/** Sends a feeding actor makes, with their weights: waking input first, quiet input too. */
const FEEDING_SENDS: Readonly<Partial<Record<OperationKind, number>>> = { followup: 3, steer: 2, inject: 2, queue: 1 }

/**
 * A program aimed at one agent from inside its dispatches (swarm-style focus): actor `a1` creates
 * session `s`, feeds it two to four sends and half the time cancels it, the other actors work on `s` alone (so input piles
 * up on it), its model often hangs or runs tools (so turns stay open), and one or two
 * {@link reentrantListenerArbitrary} listeners tear down, unload, cancel or send from inside its
 * dispatches while that work is pending.
 */
export function reentrantProgramArbitrary(options: ArbitraryOptions = {}): Arbitrary<Program> {
  const o = resolve(options)
  return chainOnce(sessionArbitrary(options), (s) => {
    const one = { ...options, sessions: [s] }
    const slowModel = fc.array(fc.oneof(
      { arbitrary: modelStepArbitrary(one), weight: 2 },
      { arbitrary: fc.constant<ModelStepSpec>({ reply: 'tool' }), weight: 1 },
      ...(o.hangs ? [{ arbitrary: fc.constant<ModelStepSpec>({ reply: 'hang' }), weight: 1 }] : []),
    ), { minLength: 1, maxLength: 3 })
    const sends = o.operations.filter((k) => FEEDING_SENDS[k] !== undefined)
    const send = sends.length > 0
      ? fc.oneof(...sends.map((k) => ({ arbitrary: operationArbitrary({ ...one, operations: [k] }, 0), weight: FEEDING_SENDS[k]! })))
      : fc.constant(undefined)
    // Half the time the feeder ends by cancelling (any cause): an abort for observers to see.
    const cancel = o.operations.includes('cancel') ? maybe(operationArbitrary({ ...one, operations: ['cancel'] }, 0), 2) : fc.constant(undefined)
    const feeder = fc.tuple(fc.array(send, { minLength: 2, maxLength: 4 }), cancel)
      .map(([ops, last]): Operation[] => [...(o.operations.includes('create') ? [{ op: 'create' as const, session: s }] : []), ...[...ops, last].filter((x) => x !== undefined)])
    const others = plainProgramArbitrary({ ...one, minActors: 1, maxActors: Math.max(1, o.maxActors - 1) })
    return fc.tuple(feeder, others, fc.array(reentrantListenerArbitrary(s, options), { minLength: 1, maxLength: 2 }), maybe(slowModel, 2))
      .map(([feeding, program, listeners, model]): Program => {
        // (a feeder with nothing to do — neither create nor sends allowed — is left out)
        const actors = [...(feeding.length > 0 ? [{ id: 'a1', ops: feeding }] : []), ...program.actors].map((a, i) => ({ ...a, id: `a${i + 1}` }))
        const env: EnvironmentSpec = { ...program.env, listeners: [...listeners, ...(program.env?.listeners ?? [])] }
        if (model) env.model = { ...env.model, [s]: model }
        return resolveReferences({ ...program, actors, env })
      })
  })
}

/**
 * A whole program: 1..4 actors (`a1`..), each 1..`maxOps` operations, and an environment — one
 * time in three a {@link reentrantProgramArbitrary} one, aimed at one agent from inside its
 * dispatches. What it names resolves (`resolveReferences`): a send to an id no operation creates
 * goes to one that some operation does, so every program passes `validateProgram`.
 */
export function programArbitrary(options: ArbitraryOptions = {}): Arbitrary<Program> {
  resolve(options)
  return fc.oneof({ arbitrary: plainProgramArbitrary(options), weight: 2 }, { arbitrary: reentrantProgramArbitrary(options), weight: 1 })
}
