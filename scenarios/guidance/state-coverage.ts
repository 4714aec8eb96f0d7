/**
 * State coverage: which **abstract transitions** of the runtime a run went through, derived from
 * its trace alone (so it works for every adapter kind, a foreign process included, and needs
 * nothing from the world beyond what it records).
 *
 * The abstract state of one agent id (the ids themselves are abstracted away) is:
 * - `phase`: `-` before any `agent/created`, `live` after it, `gone` after `agent/disposed`;
 * - `status`: `idle` or `run`, from `agent/status`;
 * - `inbox`: whether next-turn (`T`) and next-step (`S`) are non-empty, by applying the durable
 *   `agent/inbox/spliced` appends (and a `resumed` entry's restored inbox);
 * - `turn`: `-`, `turn` (after `turn/start`) or `step` (inside `step/start` … `step/end`), then `m`
 *   while a maintenance task of the agent runs (its start and end marks), `c` while a model call
 *   is in flight (its call mark to the step's end), `w` while a `whenIdle` of the id waits (its
 *   invoke to its outcome);
 * - `teardown`: `-`, `req` (a `dispose` of the id, an `unloadOwner` of the owner that created it, or
 *   a process-wide `unloadFactory`/`shutdown`/`restart`/`crash` was invoked), `agent` (after `agent/disposed`),
 *   `session` (after `session/disposed`), `done` (the dispose call resolved);
 * - `creation`: the stage of the newest create/resume of the id still in flight (`invoked`, `load`,
 *   `setup`, `setup-end`, `commit`, `session` after `session/created`, `agent` after
 *   `agent/created`, `started` after `agent/session-start`), `+` when more than one is in flight,
 *   `-` when none is.
 *
 * A **transition** is `before label after` for one agent, where `label` names the trace entry (the
 * operation invoked, inline `!` or by an actor; an outcome and its status; an event; an append; a
 * setup/commit/load/maintenance mark) and, inside a dispatch, the dispatch it happened in.
 * Self-loops count: "a followup invoked while the agent is idle with a pending next-step" is a
 * transition even if nothing changes.
 *
 * **Dispatches and reentrancy depth** are approximated from the trace: a listener mark
 * `<origin> listener:<event> op` (or a commit, tool, disposer or minting that performs an
 * operation) followed by an `inline` invoke opens a frame named after that event; the frame closes
 * at the inline operation's outcome, or as soon as the run takes another scheduling decision (the
 * dispatch was synchronous, so it has returned by then). The depth is the number of open frames.
 * Each `event` entry adds a dispatch transition `dispatch <frames>><event>` (with whether the event
 * is about the same id as the innermost frame's operation), and agent transitions inside a frame
 * carry `@<event>/<depth>`. This is an over-approximation of the real nesting (an inline
 * operation's synchronous part and the dispatcher's code after the listener returned are not told
 * apart), which is good enough to tell reentrant shapes from flat ones.
 * @module
 */
import type { Trace, TraceEntry } from '../../sim/trace/trace.js'

type Phase = '-' | 'live' | 'gone'
type Teardown = '-' | 'req' | 'agent' | 'session' | 'done'
type TurnState = '-' | 'turn' | 'step'

const STAGES = ['invoked', 'load', 'setup', 'setup-end', 'commit', 'session', 'agent', 'started'] as const
type Stage = (typeof STAGES)[number]

interface AgentModel {
  phase: Phase
  status: 'idle' | 'run'
  nextTurn: number
  nextStep: number
  turn: TurnState
  /** Maintenance tasks running, and whenIdle calls waiting. */
  maintenance: number
  calling: boolean
  waiting: number
  teardown: Teardown
  /** In-flight create/resume transactions of this id, in invoke order, with their stage. */
  readonly creating: Map<string, Stage>
  /** The owner the latest create/resume of this id went through. */
  owner: string | undefined
  /** {@link encode} of this state, as of the end of the last transition (state changes only inside one). */
  code: string
}

/** A dispatch frame: an operation performed from inside a dispatch (or a commit, tool, disposer, minting). */
interface Frame {
  readonly context: string
  /** The inline operation's actor-op key, to close the frame at its outcome. */
  readonly op: number
  /** The id the inline operation targets, if any. */
  readonly id: string | undefined
}

/** Depth is capped in keys: deeper nesting reads as the cap. */
const MAX_DEPTH = 3

function fresh(): AgentModel {
  const a: AgentModel = { phase: '-', status: 'idle', nextTurn: 0, nextStep: 0, turn: '-', maintenance: 0, calling: false, waiting: 0, teardown: '-', creating: new Map(), owner: undefined, code: '' }
  a.code = encode(a)
  return a
}

/** The abstract state of one agent as a short string. */
function encode(a: AgentModel): string {
  let creation = '-'
  if (a.creating.size > 0) {
    const stages = [...a.creating.values()]
    creation = `${stages[stages.length - 1]}${stages.length > 1 ? '+' : ''}`
  }
  const activity = `${a.turn}${a.maintenance > 0 ? 'm' : ''}${a.calling ? 'c' : ''}${a.waiting > 0 ? 'w' : ''}`
  return `${a.phase}|${a.status}|${a.nextTurn > 0 ? 'T' : '-'}${a.nextStep > 0 ? 'S' : '-'}|${activity}|${a.teardown}|${creation}`
}

function advance(a: AgentModel, tx: string | undefined, stage: Stage): void {
  const key = tx ?? [...a.creating.keys()].at(-1)
  if (key === undefined || !a.creating.has(key)) return
  if (STAGES.indexOf(stage) > STAGES.indexOf(a.creating.get(key)!)) a.creating.set(key, stage)
}

/** Where a frame comes from, by the origin an inline invoke names (`<op> from <origin>`). */
function originContext(what: string, listenerEvent: string | undefined): string {
  const origin = what.slice(what.indexOf(' from ') + ' from '.length)
  if (origin.endsWith('.commit')) return 'commit'
  if (origin.endsWith('.tool')) return 'tool'
  if (origin === 'minting') return 'minting'
  if (/effect|^env:/.test(origin)) return 'disposer'
  return listenerEvent ?? 'listener'
}

/** What a mark means for the agent it names, if anything (setup, commit, load and maintenance marks). */
function markLabel(label: string): { label: string; stage?: Stage; maintenance?: 1 | -1; call?: true } | undefined {
  if (label.endsWith('@setup:start')) return { label: '#setup', stage: 'setup' }
  if (label.endsWith('@setup:end')) return { label: '#setup-end', stage: 'setup-end' }
  if (label.endsWith('@commit')) return { label: '#commit', stage: 'commit' }
  const load = /^load:[^@]*@(\w+)/.exec(label)
  if (load) return { label: `#load:${load[1]}`, stage: 'load' }
  if (label.endsWith('@maintenance:start')) return { label: '#maintenance', maintenance: 1 }
  if (label.endsWith('@maintenance:end')) return { label: '#maintenance-end', maintenance: -1 }
  if (/ aborting initiator=/.test(label)) return { label: '#model-abort' }
  if (/^model:[^:]*:call\d+ /.test(label)) return { label: '#model-call', call: true }
  return undefined
}

/** The id an operation spec targets (the session of most operations). */
function targetOf(spec: { readonly op: string; readonly session?: string }): string | undefined {
  return spec.session
}

/**
 * The abstract transitions `trace` went through, sorted and without duplicates (see the module
 * documentation for the state and what a transition is).
 */
export function stateTransitions(trace: Trace): string[] {
  return [...stateTransitionSet(trace)].sort()
}

/** {@link stateTransitions} as a set, in the order first reached (what a campaign hashes). */
export function stateTransitionSet(trace: Trace): Set<string> {
  const out = new Set<string>()
  const agents = new Map<string, AgentModel>()
  const frames: Frame[] = []
  let listenerEvent: string | undefined
  let pendingOpFrame = false
  let lastD = -1
  const agent = (id: string): AgentModel => {
    let a = agents.get(id)
    if (!a) agents.set(id, (a = fresh()))
    return a
  }
  const context = (): string => (frames.length === 0 ? '' : `@${frames[frames.length - 1]!.context}/${Math.min(frames.length, MAX_DEPTH)}`)
  /** Record one agent's transition around `change`. */
  const step = (id: string, label: string, change: (a: AgentModel) => void = () => {}): void => {
    const a = agent(id)
    const before = a.code
    change(a)
    a.code = encode(a)
    out.add(`${before} ${label}${context()} ${a.code}`)
  }
  /** A process-wide or owner-wide teardown: a transition of every agent it reaches, or one of the process when none. */
  const tearDownAll = (label: string, which: (a: AgentModel) => boolean): void => {
    let reached = 0
    for (const [id, a] of agents) {
      if (a.phase !== 'live' && a.creating.size === 0) continue
      if (!which(a)) continue
      reached++
      step(id, label, (m) => { if (m.teardown === '-' || m.teardown === 'done') m.teardown = 'req' })
    }
    if (reached === 0) out.add(`process ${label}${context()} reaches no agent`)
  }

  for (const e of trace.entries as readonly TraceEntry[]) {
    // A scheduling decision was taken: every synchronous dispatch has returned.
    if (e.d !== lastD) {
      frames.length = 0
      listenerEvent = undefined
      pendingOpFrame = false
      lastD = e.d
    }
    switch (e.k) {
      case 'invoke': {
        const inline = e.actor === 'inline'
        if (inline && pendingOpFrame) {
          frames.push({ context: originContext(e.what, listenerEvent), op: e.op, id: targetOf(e.spec as never) })
          pendingOpFrame = false
        } else if (inline) {
          // An inline operation with no mark before it: a commit or a tool body.
          frames.push({ context: originContext(e.what, undefined), op: e.op, id: targetOf(e.spec as never) })
        }
        const spec = e.spec
        const label = `+${spec.op}${inline ? '!' : ''}`
        const id = targetOf(spec as never)
        if (spec.op === 'unloadOwner') tearDownAll(label, (a) => a.owner === spec.owner)
        else if (spec.op === 'unloadFactory' || spec.op === 'shutdown' || spec.op === 'restart' || spec.op === 'crash') tearDownAll(label, () => true)
        else if (id !== undefined) {
          step(id, label, (a) => {
            if (spec.op === 'create' || spec.op === 'resume') {
              if (e.tx !== undefined) a.creating.set(e.tx, 'invoked')
              a.owner = e.owner
            }
            if (spec.op === 'dispose' && (a.phase === 'live' || a.creating.size > 0) && (a.teardown === '-' || a.teardown === 'done')) a.teardown = 'req'
            if (spec.op === 'whenIdle') a.waiting++
          })
        }
        break
      }
      case 'outcome': {
        const inline = e.actor === 'inline'
        const op = e.what.slice(0, e.what.search(/[( ]|$/))
        const id = /^\w+\(([^,)]+)/.exec(e.what)?.[1]
        const label = `=${op}${inline ? '!' : ''}:${e.status}`
        if (id !== undefined && agents.has(id)) {
          step(id, label, (a) => {
            if (e.tx !== undefined) a.creating.delete(e.tx)
            if (op === 'dispose' && a.teardown !== '-') a.teardown = 'done'
            if (op === 'whenIdle') a.waiting = Math.max(0, a.waiting - 1)
          })
        }
        if (inline) {
          const at = frames.findIndex((f) => f.op === e.op)
          if (at >= 0) frames.length = at
        }
        break
      }
      case 'event': {
        // The innermost frames only: a runaway recursion of listeners reads as the cap.
        const chain = frames.slice(-MAX_DEPTH).map((f) => f.context).join('>')
        const inner = frames[frames.length - 1]
        if (chain) out.add(`dispatch ${chain}>${e.name} ${inner?.id === e.id ? 'same' : 'other'}`)
        else out.add(`dispatch ${e.name}`)
        step(e.id, `*${e.name}${e.stale ? '~stale' : ''}`, (a) => {
          if (e.stale) return
          switch (e.name) {
            case 'agent/created':
              if (a.phase === 'gone' || a.teardown !== '-') Object.assign(a, { status: 'idle', nextTurn: 0, nextStep: 0, turn: '-', maintenance: 0, calling: false, teardown: '-' })
              a.phase = 'live'
              advance(a, undefined, 'agent')
              break
            case 'session/created': advance(a, undefined, 'session'); break
            case 'agent/session-start': advance(a, undefined, 'started'); break
            case 'agent/status': a.status = e.detail === 'running' ? 'run' : 'idle'; break
            case 'agent/disposed': a.phase = 'gone'; a.teardown = 'agent'; break
            case 'session/disposed': if (a.teardown !== 'done') a.teardown = 'session'; break
          }
        })
        // The world observes before program listeners: a listener mark after this names its event.
        listenerEvent = e.name
        break
      }
      case 'append': {
        const data = e.type === 'agent/inbox/spliced' ? e.data as { target?: string; removedCount?: number; inserted?: unknown[] } | null : undefined
        const removed = typeof data?.removedCount === 'number' ? data.removedCount : 0
        const inserted = Array.isArray(data?.inserted) ? data.inserted.length : 0
        const label = e.type === 'agent/inbox/spliced' ? `.splice:${data?.target ?? '?'}${removed > 0 ? '-' : ''}${inserted > 0 ? '+' : ''}` : `.${e.type}`
        step(e.id, label, (a) => {
          switch (e.type) {
            case 'agent/inbox/spliced': {
              const key = data?.target === 'next-step' ? 'nextStep' : 'nextTurn'
              a[key] = Math.max(0, a[key] - removed + inserted)
              break
            }
            case 'turn/start': a.turn = 'turn'; break
            case 'step/start': a.turn = 'step'; break
            case 'step/end': a.turn = 'turn'; a.calling = false; break
            case 'turn/end': a.turn = '-'; a.calling = false; break
          }
        })
        break
      }
      case 'resumed':
        step(e.id, '^resumed', (a) => {
          a.nextTurn = e.inbox.nextTurn.length
          a.nextStep = e.inbox.nextStep.length
        })
        break
      case 'mark': {
        const listener = /^(\S+) listener:(\S+) (\w+)$/.exec(e.label)
        if (listener) {
          listenerEvent = listener[2]
          pendingOpFrame = listener[3] === 'op'
          out.add(`listener ${listener[2]} ${listener[3]}${context()}`)
          break
        }
        if (/ (op)$/.test(e.label)) {
          // A disposer or a minting behaviour about to perform an operation.
          pendingOpFrame = true
          listenerEvent = e.label.startsWith('minting') ? 'minting' : 'disposer'
        }
        const meaning = markLabel(e.label)
        if (meaning && e.id !== undefined) {
          step(e.id, meaning.label, (a) => {
            if (meaning.stage) advance(a, e.tx, meaning.stage)
            if (meaning.maintenance) a.maintenance = Math.max(0, a.maintenance + meaning.maintenance)
            if (meaning.call) a.calling = true
          })
        }
        break
      }
      case 'final':
        for (const id of agents.keys()) step(id, '$final')
        break
      default:
        // Entries this module does not know (newer trace kinds) carry no agent state.
        break
    }
  }
  return out
}
