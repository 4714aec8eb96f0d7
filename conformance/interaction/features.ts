/**
 * The interaction features of a run, read from its trace (so they describe what a run *did*, not
 * what its program text contains, and work for every adapter kind, a foreign process included).
 *
 * An **interaction** is one operation performed in the run, either by an actor (in its own order)
 * or by a listener of the program (`env.listeners`, a setup's `listeners`) or an abort observer as
 * its action, described by five factors:
 * - `trigger`: `actor`, or the event the listener observed, refined by what a payload filter can
 *   select (`agent/status:idle`, `session/event:turn/end`, `session/event:agent/inbox/spliced:claimed`, …),
 *   or `abort:<event>` / `abort:maintenance` for an abort observer;
 * - `action`: what was performed: `op:<kind>` for every operation kind of the program language,
 *   or a listener's `throw`, `reject`, `slow`, `block`;
 * - `phase`: the target agent's activity when the action began: `absent` (no live agent of the id),
 *   `idle`, `running` (status running with no turn open), `turn` (a turn open, no step), `step`;
 * - `pending`: whether its inbox had pending input then (`yes`/`no`, from the durable splices);
 * - `stage`: its lifecycle stage then: `none` (never created), `creating` (a create/resume in
 *   flight before its `session/created`), `session` (after `session/created`), `agent` (after
 *   `agent/created`, before `agent/session-start`), `live`, `disposing` (a teardown requested by a
 *   dispose, an owner unload or a process-wide unload, before `agent/disposed`), `agent-gone`
 *   (after `agent/disposed`), `gone` (after `session/disposed`, or a crash).
 *
 * The target is the operation's `session`; an operation without one (an owner or process-wide
 * unload, an abort of a signal) and a listener's non-operation action take the event's subject (the
 * id of the last event or append recorded before the action).
 *
 * Operations performed by a setup's commit, a tool body, an effect disposer or the scope minting,
 * and the operations nested in a `boundary`, are outside the scope (they are not interactions here).
 * @module
 */
import { EVENT_NAMES } from '../../core/contract.js'
import { OPERATION_KINDS } from '../../sim/program/program.js'
import type { Trace, TraceEntry } from '../../sim/trace/trace.js'

/** The factors of an interaction, in the order keys list them. */
export const FACTORS = ['trigger', 'action', 'phase', 'pending', 'stage'] as const
export type Factor = (typeof FACTORS)[number]

/** The types of `session/event` a trigger distinguishes (the splice further by its outcome). */
export const SESSION_EVENT_TYPES = ['turn/start', 'user/message', 'step/start', 'assistant/message', 'step/end', 'turn/end'] as const

/** What a splice does, as the `outcome` filter tells it (§6.3, §6.4). */
export const SPLICE_OUTCOMES = ['inserted', 'claimed', 'canceled'] as const

/** Events whose activity signal an abort observer watches, and the maintenance task's own signal. */
export const ABORT_TRIGGERS = ['abort:agent/pre-step', 'abort:agent/turn-stopping', 'abort:maintenance'] as const

/** Every trigger value: actors, every event of the vocabulary (refined), abort observers. */
export const TRIGGERS: readonly string[] = [
  'actor',
  ...EVENT_NAMES.flatMap((e) => e === 'session/event'
    ? [...SESSION_EVENT_TYPES.map((t) => `session/event:${t}`), ...SPLICE_OUTCOMES.map((o) => `session/event:agent/inbox/spliced:${o}`)]
    : e === 'agent/status' ? ['agent/status:running', 'agent/status:idle'] : [e]),
  ...ABORT_TRIGGERS,
]

/** A listener's actions that are not operations. */
export const PLAIN_ACTIONS = ['throw', 'reject', 'slow', 'block'] as const

/**
 * Operation kinds that are no action on the lifecycle: `openGate` only releases the program's own
 * `wait`s (a program-control operation), so no situation of the system under test can differ by it.
 */
export const NON_LIFECYCLE_OPERATIONS: readonly string[] = ['openGate']

/** Every action value: the plain listener actions, then one per lifecycle operation kind of the program language. */
export const ACTIONS: readonly string[] = [...PLAIN_ACTIONS, ...OPERATION_KINDS.filter((k) => !NON_LIFECYCLE_OPERATIONS.includes(k)).map((k) => `op:${k}`)]

export const PHASES = ['absent', 'idle', 'running', 'turn', 'step'] as const
export const PENDING = ['no', 'yes'] as const
export const STAGES = ['none', 'creating', 'session', 'agent', 'live', 'disposing', 'agent-gone', 'gone'] as const

/** The values each factor takes. */
export const FACTOR_VALUES: Readonly<Record<Factor, readonly string[]>> = {
  trigger: TRIGGERS, action: ACTIONS, phase: PHASES, pending: PENDING, stage: STAGES,
}

/** One interaction a run exercised. */
export interface Interaction {
  readonly trigger: string
  readonly action: string
  readonly phase: string
  readonly pending: string
  readonly stage: string
}

/** The compact form of an interaction: its values in {@link FACTORS} order, joined by `|`. */
export function interactionKey(i: Interaction): string {
  return `${i.trigger}|${i.action}|${i.phase}|${i.pending}|${i.stage}`
}

/** An interaction back from its key. */
export function parseInteraction(key: string): Interaction {
  const [trigger = '', action = '', phase = '', pending = '', stage = ''] = key.split('|')
  return { trigger, action, phase, pending, stage }
}

/** Whether every value of `i` is one of its factor's values (an interaction outside the scope is not counted). */
export function inScope(i: Interaction): boolean {
  const v = FACTOR_SETS
  return v.trigger.has(i.trigger) && v.action.has(i.action) && v.phase.has(i.phase) && v.pending.has(i.pending) && v.stage.has(i.stage)
}

/** {@link FACTOR_VALUES} as sets: a campaign asks {@link inScope} of every interaction of every run. */
const FACTOR_SETS: Readonly<Record<Factor, ReadonlySet<string>>> = {
  trigger: new Set(TRIGGERS), action: new Set(ACTIONS), phase: new Set(PHASES), pending: new Set(PENDING), stage: new Set(STAGES),
}

type Stage = (typeof STAGES)[number]

interface TargetModel {
  live: boolean
  status: 'idle' | 'running'
  turn: '-' | 'turn' | 'step'
  pending: number
  /** Create/resume transactions in flight, with how far their publication went. */
  readonly creating: Map<string, 'creating' | 'session' | 'agent' | 'started'>
  teardown: '-' | 'disposing' | 'agent-gone' | 'gone'
  owner: string | undefined
}

function fresh(): TargetModel {
  return { live: false, status: 'idle', turn: '-', pending: 0, creating: new Map(), teardown: '-', owner: undefined }
}

/** The situation of an id no entry has named yet (read only: never a target of the walk). */
const UNSEEN: TargetModel = fresh()

function stageOf(t: TargetModel): Stage {
  if (t.teardown === 'disposing' || t.teardown === 'agent-gone') return t.teardown
  // The newest creation in flight not yet started (walked without copying: this runs per interaction).
  let newest: Stage | undefined
  for (const stage of t.creating.values()) if (stage !== 'started') newest = stage
  if (newest !== undefined) return newest
  if (t.live) return 'live'
  return t.teardown === 'gone' ? 'gone' : 'none'
}

function phaseOf(t: TargetModel): string {
  if (!t.live) return 'absent'
  if (t.turn !== '-') return t.turn
  return t.status === 'running' ? 'running' : 'idle'
}

/** Move the newest creation of `t` in flight to `stage` (publication edges name no transaction). */
function advance(t: TargetModel, stage: 'session' | 'agent' | 'started'): void {
  // The newest one not yet at `stage`: the last such in insertion order.
  let newest: string | undefined
  for (const [tx, at] of t.creating) if (CREATION_ORDER.indexOf(at) < CREATION_ORDER.indexOf(stage)) newest = tx
  if (newest !== undefined) t.creating.set(newest, stage)
}

const CREATION_ORDER: readonly string[] = ['creating', 'session', 'agent', 'started']

/** The refined trigger of a listener on `event`, from the entry it observed. */
function refine(event: string, observed: TraceEntry | undefined): string {
  if (event === 'agent/status') return observed?.k === 'event' && observed.name === 'agent/status' ? `agent/status:${observed.detail === 'running' ? 'running' : 'idle'}` : event
  if (event !== 'session/event') return event
  if (observed?.k !== 'append') return event
  if (observed.type !== 'agent/inbox/spliced') return `session/event:${observed.type}`
  const d = observed.data as { outcome?: unknown; inserted?: unknown; removedCount?: unknown } | null
  const outcome = d?.outcome === 'canceled' ? 'canceled'
    : Array.isArray(d?.inserted) && d.inserted.length > 0 ? 'inserted'
      : typeof d?.removedCount === 'number' && d.removedCount > 0 ? 'claimed' : 'other'
  return `session/event:agent/inbox/spliced:${outcome}`
}

/** A listener (`<origin> listener:<event> <do>`) or abort observer (`<origin> abort:<what> <do>`) mark. */
const LISTENER_MARK = /^.* (listener|abort):(\S+) (\w+)$/

/** Operation indexes at and above this are the nested operations of a `boundary` (`sim/operations`). */
const BOUNDARY_OP_BASE = 1_000_000

/** An interaction as {@link interactionsOf} finds it: with the index of the trace entry that performed it. */
export type TracedInteraction = Interaction & { readonly i: number }

/**
 * The interactions `trace` exercised, in order (duplicates included; see the module documentation).
 */
export function interactionsOf(trace: Trace): TracedInteraction[] {
  const out: TracedInteraction[] = []
  const targets = new Map<string, TargetModel>()
  const target = (id: string): TargetModel => {
    let t = targets.get(id)
    if (!t) targets.set(id, (t = fresh()))
    return t
  }
  /** The last event entry per event name, and the last append (what a listener observed). */
  const lastEvent = new Map<string, TraceEntry>()
  let lastAppend: TraceEntry | undefined
  let lastId: string | undefined
  /** A listener that is about to perform an operation: its interaction is recorded at the inline invoke. */
  let awaiting: { trigger: string; d: number } | undefined
  /** Record an interaction in the situation of the target `id` as it stands. */
  const record = (trigger: string, action: string, id: string | undefined, i: number): void => {
    const t = id === undefined ? UNSEEN : targets.get(id) ?? UNSEEN
    out.push({ trigger, action, phase: phaseOf(t), pending: t.pending > 0 ? 'yes' : 'no', stage: stageOf(t), i })
  }
  const tearDown = (which: (t: TargetModel) => boolean): void => {
    for (const t of targets.values()) {
      if ((t.live || t.creating.size > 0) && t.teardown !== 'disposing' && t.teardown !== 'agent-gone' && which(t)) t.teardown = 'disposing'
    }
  }

  for (const e of trace.entries) {
    if (awaiting && e.d !== awaiting.d) awaiting = undefined
    switch (e.k) {
      case 'invoke': {
        const spec = e.spec as { op: string; session?: string; owner?: string }
        const id = spec.session ?? lastId
        const nested = e.op >= BOUNDARY_OP_BASE
        if (e.actor === 'inline' && awaiting && !nested) {
          record(awaiting.trigger, `op:${spec.op}`, id, e.i)
          awaiting = undefined
        } else if (e.actor !== 'inline' && !nested) {
          record('actor', `op:${spec.op}`, id, e.i)
        }
        if (spec.session !== undefined) lastId = spec.session
        if (spec.op === 'create' || spec.op === 'resume') {
          const t = target(spec.session!)
          if (e.tx !== undefined) t.creating.set(e.tx, 'creating')
          t.owner = e.owner
        } else if (spec.op === 'dispose') tearDown((t) => t === targets.get(spec.session!) && t.live)
        else if (spec.op === 'unloadOwner') tearDown((t) => t.owner === spec.owner)
        else if (spec.op === 'unloadFactory' || spec.op === 'shutdown' || spec.op === 'restart' || spec.op === 'crash') tearDown(() => true)
        break
      }
      case 'outcome':
        if (e.tx !== undefined) for (const t of targets.values()) t.creating.delete(e.tx)
        break
      case 'event': {
        lastEvent.set(e.name, e)
        lastId = e.id
        if (e.stale || e.stub) break
        const t = target(e.id)
        switch (e.name) {
          case 'session/created': advance(t, 'session'); break
          case 'agent/created':
            t.live = true; t.status = 'idle'; t.turn = '-'; t.teardown = '-'
            advance(t, 'agent')
            break
          case 'agent/session-start': advance(t, 'started'); break
          case 'agent/status': t.status = e.detail === 'running' ? 'running' : 'idle'; break
          case 'agent/disposed': t.live = false; t.turn = '-'; t.status = 'idle'; t.teardown = 'agent-gone'; break
          case 'session/disposed':
            if (!t.live) { t.teardown = 'gone'; t.pending = 0 }
            break
        }
        break
      }
      case 'append': {
        lastAppend = e
        lastId = e.id
        const t = target(e.id)
        if (e.type === 'agent/inbox/spliced') {
          const d = e.data as { removedCount?: unknown; inserted?: unknown } | null
          const removed = typeof d?.removedCount === 'number' ? d.removedCount : 0
          const inserted = Array.isArray(d?.inserted) ? d.inserted.length : 0
          t.pending = Math.max(0, t.pending - removed + inserted)
        } else if (e.type === 'turn/start') t.turn = 'turn'
        else if (e.type === 'step/start') t.turn = 'step'
        else if (e.type === 'step/end') t.turn = 'turn'
        else if (e.type === 'turn/end') t.turn = '-'
        break
      }
      case 'resumed':
        target(e.id).pending = e.inbox.nextTurn.length + e.inbox.nextStep.length
        break
      case 'mark': {
        const m = LISTENER_MARK.exec(e.label)
        if (!m) break
        const [, kind, what, action] = m as unknown as [string, string, string, string]
        const trigger = kind === 'abort' ? `abort:${what}` : refine(what, what === 'session/event' ? lastAppend : lastEvent.get(what))
        if (action === 'op') awaiting = { trigger, d: e.d }
        else record(trigger, action, e.id ?? lastId, e.i)
        break
      }
      case 'final':
        // A process ended (a restart or a crash): the next one starts with no agent and no creation.
        for (const t of targets.values()) {
          if (t.live || t.creating.size > 0 || t.teardown !== '-') t.teardown = 'gone'
          t.live = false; t.status = 'idle'; t.turn = '-'; t.pending = 0
          t.creating.clear()
        }
        break
      default:
        break
    }
  }
  return out
}
