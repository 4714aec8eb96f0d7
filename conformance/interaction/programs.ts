/**
 * The small programs of the interaction mode: one session `s1`, driven by actor `a1` through a
 * short **drive** (a create, a few inputs, a cancel or a teardown, a model reply), plus one
 * **probe**: a listener on one trigger performing one action on `s1` (optionally filtered on
 * whether input is pending and on which occurrence it acts), or, for the `actor` trigger, a second
 * actor `a2` performing the operation while `a1` drives. See `features.ts` for what a trigger and an
 * action are; every operation kind of the program language is an action ({@link actionOperation}).
 * @module
 */
import type { Action, ActorSpec, EnvironmentSpec, ListenerSpec, Operation, Program } from '../../sim/program/program.js'
import { OPERATION_KINDS, validateOperation } from '../../sim/program/program.js'
import type { EventName } from '../../core/contract.js'

/** The session every interaction program is about, its driving actor, a second actor, the creation signal. */
export const SESSION = 's1'
/** The stub an `op:announce` or `op:detach` action acts on: the program enters it first (a stub under `s1` would race its creation). */
export const STUB = 's2'
/** The operation kinds that act on a stub an `enter` made, not on `s1` (sim/program/references.ts). */
export const STUB_OPERATIONS: readonly string[] = ['announce', 'detach']
export const DRIVER = 'a1'
export const OTHER = 'a2'
export const SIGNAL = 'g1'

/** A drive: what actor `a1` does to `s1` (and actor `a3` beside it, if `also`), and the environment it needs. */
export interface Drive {
  readonly name: string
  readonly ops: readonly Operation[]
  /** Operations of a second driving actor, `a3`, racing `a1`. */
  readonly also?: readonly Operation[]
  readonly env?: EnvironmentSpec
}

/** The second driving actor. */
export const BESIDE = 'a3'

const s = SESSION
const message = (id: string): unknown => ({ id, role: 'user', content: [{ type: 'text', text: `persisted ${id}` }], source: { kind: 'user' } })
const create: Operation = { op: 'create', session: s, signal: SIGNAL }
const followup: Operation = { op: 'followup', session: s }

/**
 * The drives, each reaching different situations at the triggers: turns with input pending or not,
 * steps, tool steps, a failing model, a hung call cancelled, a maintenance task, a setup with
 * scheduling points, teardowns by dispose and by owner unload, a resume with a restored inbox.
 */
export const DRIVES: readonly Drive[] = [
  { name: 'create', ops: [create] },
  { name: 'followup', ops: [create, followup] },
  { name: 'two-followups', ops: [create, followup, followup] },
  { name: 'steer', ops: [create, followup, { op: 'steer', session: s }] },
  { name: 'inject', ops: [create, followup, { op: 'inject', session: s }] },
  { name: 'tool', ops: [create, followup, followup], env: { model: { [s]: [{ reply: 'tool' }, { reply: 'text' }] } } },
  { name: 'fail', ops: [create, followup, followup], env: { model: { [s]: [{ reply: 'fail' }] } } },
  { name: 'cancel-hung', ops: [create, followup, followup, { op: 'cancel', session: s }], env: { model: { [s]: [{ reply: 'hang' }] } } },
  { name: 'steer-hung', ops: [create, followup, { op: 'steer', session: s }, { op: 'cancel', session: s, keepInbox: true }], env: { model: { [s]: [{ reply: 'hang' }] } } },
  { name: 'remove', ops: [create, followup, followup, { op: 'remove', session: s, which: 'last' }] },
  { name: 'maintenance', ops: [create, { op: 'runMaintenance', session: s, steps: 2 }, followup, followup] },
  { name: 'maintenance-cancel', ops: [create, followup, { op: 'runMaintenance', session: s, steps: 2 }], also: [{ op: 'cancel', session: s }] },
  { name: 'maintenance-dispose', ops: [create, { op: 'runMaintenance', session: s, steps: 2 }], also: [{ op: 'dispose', session: s }] },
  { name: 'when-idle', ops: [create, followup, { op: 'whenIdle', session: s }, followup] },
  { name: 'setup', ops: [{ ...create, setup: { steps: 2 } }, followup, followup] },
  { name: 'dispose', ops: [create, followup, followup, { op: 'dispose', session: s }] },
  { name: 'dispose-hung', ops: [create, followup, followup, { op: 'dispose', session: s }], env: { model: { [s]: [{ reply: 'hang' }] } } },
  { name: 'unload', ops: [create, followup, followup, { op: 'unloadOwner', owner: DRIVER }] },
  {
    name: 'resume', ops: [{ op: 'resume', session: s, signal: SIGNAL }, followup],
    env: { persisted: [{ id: s, events: [{ type: 'agent/inbox/spliced', data: { target: 'next-turn', start: 0, inserted: [message('p1')] } }] }] },
  },
]

/**
 * The operation an action `op:<kind>` performs on `s1`: a fixed template per kind, so every kind
 * is drivable; a kind added to the language later is tried as `{op, session: 's1'}`, then `{op}`.
 * Returns undefined when neither validates (the kind then stays uncovered, which the scope reports).
 */
export function actionOperation(kind: string): Operation | undefined {
  const known: Partial<Record<(typeof OPERATION_KINDS)[number], Operation>> = {
    remove: { op: 'remove', session: s },
    runMaintenance: { op: 'runMaintenance', session: s, steps: 1 },
    boundary: { op: 'boundary', session: s, ops: [followup] },
    abortSignal: { op: 'abortSignal', signal: SIGNAL },
    unloadOwner: { op: 'unloadOwner', owner: DRIVER },
    announce: { op: 'announce', session: STUB },
    detach: { op: 'detach', session: STUB },
  }
  const candidates = [known[kind as keyof typeof known], { op: kind, session: s }, { op: kind }]
  for (const c of candidates) {
    if (c === undefined) continue
    try {
      validateOperation(c, '')
      return c as Operation
    } catch {
      // not this shape: try the next
    }
  }
  return undefined
}

/** The listener action of an action value (`throw`, `op:dispose`, …). */
export function actionOf(action: string): Action | undefined {
  if (action.startsWith('op:')) {
    const op = actionOperation(action.slice(3))
    return op && { do: 'op', op }
  }
  return action === 'throw' || action === 'reject' || action === 'slow' || action === 'block' ? { do: action } : undefined
}

/**
 * How a probe is filtered: on pending input (a `where.pending`), and on which occurrence it acts
 * (`nth`). For the `actor` trigger, `at` instead: `a1` performs the operation after its `at`-th
 * operation (absent: actor `a2` performs it, racing `a1`).
 */
export interface ProbeFilter {
  readonly pending?: boolean
  readonly nth?: number
  readonly at?: number
}

/** The filters a probe may carry, coarse first. */
export const FILTERS: readonly ProbeFilter[] = [{}, { pending: true }, { pending: false }, { nth: 2 }, { pending: true, nth: 2 }, { pending: false, nth: 2 }]

/** What an interaction program is made of. */
export interface InteractionSpec {
  readonly drive: Drive
  readonly trigger: string
  readonly action: string
  readonly filter: ProbeFilter
}

/** A variant's name: its drive and filter (`two-followups pending=true nth=2`). */
export function variantName(v: { readonly drive: Drive; readonly filter: ProbeFilter }): string {
  const f = v.filter
  return `${v.drive.name}${f.at === undefined ? '' : ` at=${f.at}`}${f.pending === undefined ? '' : ` pending=${f.pending}`}${f.nth ? ` nth=${f.nth}` : ''}`
}

/**
 * The variants a trigger can be probed in: every drive with every filter; for `actor`, every
 * position in the drive and the racing actor; for `abort:maintenance`, the drives with a
 * maintenance task.
 */
export function variantsOf(trigger: string): { drive: Drive; filter: ProbeFilter }[] {
  if (trigger === 'actor') return DRIVES.flatMap((drive) => [{}, ...drive.ops.map((_, k) => ({ at: k + 1 }))].map((filter) => ({ drive, filter })))
  if (trigger === 'abort:maintenance') return DRIVES.filter((d) => d.ops.some((o) => o.op === 'runMaintenance')).map((drive) => ({ drive, filter: {} }))
  return DRIVES.flatMap((drive) => FILTERS.map((filter) => ({ drive, filter })))
}

/** A listener on the event of a refined trigger, filtered to `s1` and to what the trigger names. */
function listenerOf(trigger: string, action: Action, filter: ProbeFilter): ListenerSpec | undefined {
  const [event, ...rest] = trigger.split(':') as [string, ...string[]]
  const detail = rest.join(':')
  const where: Record<string, unknown> = {}
  const extra: Partial<ListenerSpec> = { session: s }
  if (event === 'agent/status') where.status = detail
  if (event === 'session/event') {
    const [type, outcome] = detail.startsWith('agent/inbox/spliced:') ? ['agent/inbox/spliced', detail.slice('agent/inbox/spliced:'.length)] : [detail, undefined]
    Object.assign(extra, { eventType: type })
    if (outcome) where.outcome = outcome
  }
  if (filter.pending !== undefined) where.pending = filter.pending
  return {
    event: event as EventName, action, ...extra, ...(Object.keys(where).length ? { where } : {}), ...(filter.nth && filter.nth > 1 ? { nth: filter.nth } : {}),
  } as ListenerSpec
}

/** A no-op the probe's own listener plays when it only carries an abort observer. */
const PASS: Action = { do: 'slow' }

/**
 * The program of one interaction: the drive, and the probe on its trigger. Undefined when the
 * action cannot be performed from that trigger (an actor or abort observer only performs
 * operations) or the drive offers no maintenance task for `abort:maintenance`.
 */
export function interactionProgram(spec: InteractionSpec): Program | undefined {
  const { drive, trigger, filter } = spec
  const action = actionOf(spec.action)
  if (action === undefined) return undefined
  const name = `interaction ${trigger} ${spec.action} ${variantName(spec)}`
  const env: EnvironmentSpec = { ...drive.env }
  const actors: ActorSpec[] = [{ id: DRIVER, ops: [...drive.ops] }]
  if (drive.also) actors.push({ id: BESIDE, ops: [...drive.also] })
  if (trigger === 'actor') {
    if (action.do !== 'op') return undefined
    if (filter.at === undefined) actors.push({ id: OTHER, ops: [action.op] })
    else if (filter.at >= 1 && filter.at <= drive.ops.length) actors[0]!.ops.splice(filter.at, 0, action.op)
    else return undefined
  } else if (trigger === 'abort:maintenance') {
    if (action.do !== 'op') return undefined
    const at = actors[0]!.ops.findIndex((o) => o.op === 'runMaintenance')
    if (at < 0) return undefined
    actors[0]!.ops[at] = { ...actors[0]!.ops[at]!, onAbort: action } as Operation
  } else if (trigger.startsWith('abort:')) {
    if (action.do !== 'op') return undefined
    const listener = listenerOf(trigger.slice('abort:'.length), PASS, filter)!
    env.listeners = [{ ...listener, onAbort: action }]
  } else {
    env.listeners = [listenerOf(trigger, action, filter)!]
  }
  // announce and detach act on a stub an enter made (sim/program/references.ts): the driver enters it first.
  if (action.do === 'op' && STUB_OPERATIONS.includes(action.op.op)) actors[0]!.ops.unshift({ op: 'enter', session: STUB })
  return { v: 1, name, actors, ...(Object.keys(env).length ? { env } : {}) }
}
