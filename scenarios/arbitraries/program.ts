/**
 * fast-check arbitraries for whole programs and their pieces (design.md concept 2: "every
 * operation and behaviour is reachable by the random program generator"). Ids come from small
 * pools (sessions s1..s3, owners o1..o2, signals g1..g2) so operations collide.
 *
 * Every piece takes the same {@link ArbitraryOptions} so a user composes them in their own
 * properties: `fc.property(operationArbitrary({ sessions: ['s1'] }), (op) => …)`.
 * @module
 */
import fc from 'fast-check'
import type { Arbitrary } from 'fast-check'
import { EVENT_NAMES } from '../../core/contract.js'
import type { EventName } from '../../core/contract.js'
import type {
  Action, ActorSpec, CauseKind, EffectSpec, EnvironmentSpec, ListenerSpec, LoadSpec, MintingSpec, ModelStepSpec, Operation, Program, SetupSpec,
} from '../../sim/program.js'
import { OPERATION_KINDS, PROGRAM_VERSION } from '../../sim/program.js'

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
  for (const key of ['sessions', 'owners', 'signals', 'operations'] as const) {
    if (o[key].length === 0) throw new RangeError(`arbitrary options: ${key} must not be empty`)
  }
  for (const kind of o.operations) {
    if (!(OPERATION_KINDS as readonly string[]).includes(kind)) throw new RangeError(`arbitrary options: unknown operation kind ${JSON.stringify(kind)}; expected one of ${OPERATION_KINDS.join(', ')}`)
  }
  if (!(o.minActors >= 1 && o.maxActors >= o.minActors)) throw new RangeError(`arbitrary options: need 1 <= minActors <= maxActors, got ${o.minActors}..${o.maxActors}`)
  return o
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

/** Event types a `session/event` listener may filter on. */
export const SESSION_EVENT_TYPES = ['agent/inbox/spliced', 'turn/start', 'turn/end', 'step/start', 'user/message', 'assistant/message', 'step/end'] as const

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

/** What a behaviour does when it fires; `op` actions only while `depth > 0`. */
export function actionArbitrary(options: ArbitraryOptions = {}, depth = resolve(options).nesting): Arbitrary<Action> {
  const plain: Arbitrary<Action>[] = [
    fc.constant({ do: 'throw' as const }), fc.constant({ do: 'reject' as const }), fc.constant({ do: 'slow' as const }), fc.constant({ do: 'block' as const }),
  ]
  if (depth <= 0) return fc.oneof(...plain)
  return fc.oneof(...plain, operationArbitrary(options, depth - 1).map((op): Action => ({ do: 'op', op })))
}

/**
 * A listener on any event of the vocabulary, with any action, optional session/event-type filters and
 * `times`. An `agent/pre-step` listener blocks the step (`block`) one time in three.
 */
export function listenerArbitrary(options: ArbitraryOptions = {}, depth = resolve(options).nesting): Arbitrary<ListenerSpec> {
  const action = actionArbitrary(options, depth)
  const preStepAction = fc.oneof({ arbitrary: fc.constant<Action>({ do: 'block' }), weight: 1 }, { arbitrary: action, weight: 2 })
  return fc.constantFrom<EventName>(...EVENT_NAMES).chain((event) => fc.record({
    action: event === 'agent/pre-step' ? preStepAction : action,
    session: maybe(sessionArbitrary(options), 2),
    eventType: maybe(fc.constantFrom(...SESSION_EVENT_TYPES), 2),
    times: maybe(fc.integer({ min: 1, max: 3 }), 3),
  }, { noNullPrototype: true }).map((l): ListenerSpec => compact({
    event,
    ...l,
    // An event-type filter only means something on session/event.
    eventType: event === 'session/event' ? l.eventType : undefined,
  })))
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
  const o = resolve(options)
  return fc.integer({ min: 0, max: 3 }).chain((steps) => fc.record({
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

/** A persistence load behaviour: every kind (`hang` only with `hangs`). */
export function loadArbitrary(options: ArbitraryOptions = {}): Arbitrary<LoadSpec> {
  const loads: Arbitrary<LoadSpec>[] = [
    fc.constant({ load: 'ok' as const }),
    fc.integer({ min: 1, max: 3 }).map((steps) => ({ load: 'slow' as const, steps })),
    fc.constant({ load: 'fail' as const }),
  ]
  if (resolve(options).hangs) loads.push(fc.constant({ load: 'hang' as const }))
  return fc.oneof(...loads)
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
    runMaintenance: () => fc.record({ session, steps: maybe(fc.integer({ min: 0, max: 3 }), 2) }, { noNullPrototype: true })
      .map((rest): Operation => compact({ op: 'runMaintenance', ...rest })),
    whenIdle: () => session.map((s): Operation => ({ op: 'whenIdle', session: s })),
    remove: () => fc.record({ session, which: maybe(fc.constant('last' as const), 2) }, { noNullPrototype: true })
      .map((rest): Operation => compact({ op: 'remove', ...rest })),
    register: () => session.map((s): Operation => ({ op: 'register', session: s })),
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
  }
  function input(op: 'followup' | 'steer' | 'inject' | 'queue'): Arbitrary<Operation> {
    return fc.record({ session, text: maybe(text, 4), mutate: maybe(fc.constant(true as const), 4) }, { noNullPrototype: true })
      .map((rest): Operation => compact({ op, ...rest }))
  }
  // Process-wide operations end most of a run's interest, so they are drawn less often.
  // A registered stub holds its id for the rest of the process, so it is drawn rarely too.
  const weight: Partial<Record<OperationKind, number>> = { create: 6, followup: 3, steer: 2, inject: 2, cancel: 2, unloadFactory: 1, shutdown: 1, restart: 1, register: 1, boundary: 1 }
  return fc.oneof(...o.operations.map((kind) => ({ arbitrary: byKind[kind](), weight: weight[kind] ?? 2 })))
}

/** An actor with 1..`maxOps` operations. */
export function actorArbitrary(id: string, options: ArbitraryOptions = {}): Arbitrary<ActorSpec> {
  const o = resolve(options)
  return fc.array(operationArbitrary(options), { minLength: 1, maxLength: o.maxOps }).map((ops) => ({ id, ops }))
}

/** The environment: listeners, effects, model scripts, loads and persisted logs keyed by the session pool, minting behaviours. */
export function environmentArbitrary(options: ArbitraryOptions = {}): Arbitrary<EnvironmentSpec> {
  const o = resolve(options)
  const perSession = <T>(arb: Arbitrary<T>): Arbitrary<Record<string, T>> =>
    fc.subarray([...o.sessions], { minLength: 1 }).chain((ids) => fc.tuple(...ids.map(() => arb)).map((values) => Object.fromEntries(ids.map((id, i) => [id, values[i]!]))))
  return fc.record({
    listeners: often(fc.array(listenerArbitrary(options), { minLength: 1, maxLength: 4 })),
    effects: maybe(fc.array(environmentEffectArbitrary(options), { minLength: 1, maxLength: 2 }), 3),
    model: often(perSession(fc.array(modelStepArbitrary(options), { minLength: 1, maxLength: 4 }))),
    loads: maybe(perSession(loadArbitrary(options)), 2),
    persisted: maybe(fc.subarray([...o.sessions], { minLength: 1 }).chain((ids) =>
      fc.tuple(...ids.map(() => persistedLogArbitrary())).map((logs) => ids.map((id, i) => ({ id, events: logs[i]! })))), 2),
    minting: maybe(fc.array(mintingArbitrary(options), { minLength: 1, maxLength: 1 }), 4),
  }, { noNullPrototype: true }).map((env): EnvironmentSpec => compact(env))
}

/** A whole program: 1..4 actors (`a1`..), each 1..`maxOps` operations, and an environment. */
export function programArbitrary(options: ArbitraryOptions = {}): Arbitrary<Program> {
  const o = resolve(options)
  return fc.integer({ min: o.minActors, max: o.maxActors })
    .chain((n) => fc.tuple(fc.tuple(...Array.from({ length: n }, (_, i) => actorArbitrary(`a${i + 1}`, options))), environmentArbitrary(options)))
    .map(([actors, env]): Program => (Object.keys(env).length === 0 ? { v: PROGRAM_VERSION, actors } : { v: PROGRAM_VERSION, actors, env }))
}
