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
import { TransitionHasher } from './transition-table.js'

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
    // The stage of the newest creation in flight (the map's last), `+` when there are more.
    let last: Stage | undefined
    for (const stage of a.creating.values()) last = stage
    creation = a.creating.size > 1 ? `${last}+` : last!
  }
  const activity = `${a.turn}${a.maintenance > 0 ? 'm' : ''}${a.calling ? 'c' : ''}${a.waiting > 0 ? 'w' : ''}`
  return `${a.phase}|${a.status}|${a.nextTurn > 0 ? 'T' : '-'}${a.nextStep > 0 ? 'S' : '-'}|${activity}|${a.teardown}|${creation}`
}

function advance(a: AgentModel, tx: string | undefined, stage: Stage): void {
  let key = tx
  if (key === undefined) for (const k of a.creating.keys()) key = k
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
  if (label.endsWith('@setup:start')) return SETUP_START
  if (label.endsWith('@setup:end')) return SETUP_END
  if (label.endsWith('@commit')) return COMMIT
  const load = /^load:[^@]*@(\w+)/.exec(label)
  if (load) return { label: `#load:${load[1]}`, stage: 'load' }
  if (label.endsWith('@maintenance:start')) return MAINTENANCE_START
  if (label.endsWith('@maintenance:end')) return MAINTENANCE_END
  if (/ aborting initiator=/.test(label)) return MODEL_ABORT
  if (/^model:[^:]*:call\d+ /.test(label)) return MODEL_CALL
  return undefined
}

const SETUP_START = { label: '#setup', stage: 'setup' } as const
const SETUP_END = { label: '#setup-end', stage: 'setup-end' } as const
const COMMIT = { label: '#commit', stage: 'commit' } as const
const MAINTENANCE_START = { label: '#maintenance', maintenance: 1 } as const
const MAINTENANCE_END = { label: '#maintenance-end', maintenance: -1 } as const
const MODEL_ABORT = { label: '#model-abort' } as const
const MODEL_CALL = { label: '#model-call', call: true } as const

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

/** Where a walk puts each transition: its text, in up to seven pieces (unused pieces are empty). */
interface TransitionSink {
  add(a: string, b: string, c: string, d: string, e: string, f: string, g: string): void
}

/** {@link stateTransitions} as a set, in the order first reached. */
export function stateTransitionSet(trace: Trace): Set<string> {
  const out = new Set<string>()
  walk(trace, { add: (a, b, c, d, e, f, g) => { out.add(a + b + c + d + e + f + g) } })
  return out
}

/**
 * The hashes (`transitionHash`) of the transitions of one or more traces, sorted ascending and
 * without duplicates: what a campaign counts and ships. The texts are hashed as they are walked,
 * piece by piece, never built: the same keys as `transitionKeys(stateTransitionSet(trace))`.
 */
export function stateTransitionKeys(traces: Iterable<Trace>): Float64Array {
  const hasher = new TransitionHasher()
  for (const trace of traces) walk(trace, hasher)
  return hasher.keys()
}

/** One walk over a trace's entries, feeding `sink` (see the module documentation). */
function walk(trace: Trace, sink: TransitionSink): void {
  new TransitionWalk(sink).run(trace.entries as readonly TraceEntry[])
}

/** The state of one walk: the agents by id and the open dispatch frames. */
class TransitionWalk {
  readonly #agents = new Map<string, AgentModel>()
  readonly #frames: Frame[] = []
  #listenerEvent: string | undefined
  #pendingOpFrame = false

  constructor(private readonly sink: TransitionSink) {}

  #agent(id: string): AgentModel {
    let a = this.#agents.get(id)
    if (!a) this.#agents.set(id, (a = fresh()))
    return a
  }

  #context(): string {
    const frames = this.#frames
    return frames.length === 0 ? '' : `@${frames[frames.length - 1]!.context}/${Math.min(frames.length, MAX_DEPTH)}`
  }

  /** Record one agent's transition: `a` was in state `before` and has just been changed (or not) by `label`. */
  #step(a: AgentModel, before: string, label: string): void {
    a.code = encode(a)
    this.sink.add(before, ' ', label, this.#context(), ' ', a.code, '')
  }

  /** A process-wide or owner-wide teardown (`owner` undefined: every agent): a transition of every agent it reaches, or one of the process when none. */
  #tearDownAll(label: string, owner: string | undefined, everyAgent: boolean): void {
    let reached = 0
    for (const a of this.#agents.values()) {
      if (a.phase !== 'live' && a.creating.size === 0) continue
      if (!everyAgent && a.owner !== owner) continue
      reached++
      const before = a.code
      if (a.teardown === '-' || a.teardown === 'done') a.teardown = 'req'
      this.#step(a, before, label)
    }
    if (reached === 0) this.sink.add('process ', label, this.#context(), ' reaches no agent', '', '', '')
  }

  run(entries: readonly TraceEntry[]): void {
    let lastD = -1
    for (const e of entries) {
      // A scheduling decision was taken: every synchronous dispatch has returned.
      if (e.d !== lastD) {
        this.#frames.length = 0
        this.#listenerEvent = undefined
        this.#pendingOpFrame = false
        lastD = e.d
      }
      switch (e.k) {
        case 'invoke': this.#invoke(e); break
        case 'outcome': this.#outcome(e); break
        case 'event': this.#event(e); break
        case 'append': this.#append(e); break
        case 'resumed': {
          const a = this.#agent(e.id)
          const before = a.code
          a.nextTurn = e.inbox.nextTurn.length
          a.nextStep = e.inbox.nextStep.length
          this.#step(a, before, '^resumed')
          break
        }
        case 'mark': this.#mark(e); break
        case 'final':
          for (const a of this.#agents.values()) this.#step(a, a.code, '$final')
          break
        default:
          // Entries this module does not know (newer trace kinds) carry no agent state.
          break
      }
    }
  }

  #invoke(e: Extract<TraceEntry, { k: 'invoke' }>): void {
    const inline = e.actor === 'inline'
    if (inline && this.#pendingOpFrame) {
      this.#frames.push({ context: originContext(e.what, this.#listenerEvent), op: e.op, id: targetOf(e.spec as never) })
      this.#pendingOpFrame = false
    } else if (inline) {
      // An inline operation with no mark before it: a commit or a tool body.
      this.#frames.push({ context: originContext(e.what, undefined), op: e.op, id: targetOf(e.spec as never) })
    }
    const spec = e.spec
    const label = inline ? `+${spec.op}!` : `+${spec.op}`
    const id = targetOf(spec as never)
    if (spec.op === 'unloadOwner') this.#tearDownAll(label, spec.owner, false)
    else if (spec.op === 'unloadFactory' || spec.op === 'shutdown' || spec.op === 'restart' || spec.op === 'crash') this.#tearDownAll(label, undefined, true)
    else if (id !== undefined) {
      const a = this.#agent(id)
      const before = a.code
      if (spec.op === 'create' || spec.op === 'resume') {
        if (e.tx !== undefined) a.creating.set(e.tx, 'invoked')
        a.owner = e.owner
      }
      if (spec.op === 'dispose' && (a.phase === 'live' || a.creating.size > 0) && (a.teardown === '-' || a.teardown === 'done')) a.teardown = 'req'
      if (spec.op === 'whenIdle') a.waiting++
      this.#step(a, before, label)
    }
  }

  #outcome(e: Extract<TraceEntry, { k: 'outcome' }>): void {
    const inline = e.actor === 'inline'
    const op = e.what.slice(0, e.what.search(/[( ]|$/))
    const id = /^\w+\(([^,)]+)/.exec(e.what)?.[1]
    if (id !== undefined) {
      const a = this.#agents.get(id)
      if (a !== undefined) {
        const before = a.code
        if (e.tx !== undefined) a.creating.delete(e.tx)
        if (op === 'dispose' && a.teardown !== '-') a.teardown = 'done'
        if (op === 'whenIdle') a.waiting = Math.max(0, a.waiting - 1)
        this.#step(a, before, `=${op}${inline ? '!' : ''}:${e.status}`)
      }
    }
    if (inline) {
      const at = this.#frames.findIndex((f) => f.op === e.op)
      if (at >= 0) this.#frames.length = at
    }
  }

  #event(e: Extract<TraceEntry, { k: 'event' }>): void {
    const frames = this.#frames
    // The innermost frames only: a runaway recursion of listeners reads as the cap.
    let chain = ''
    const first = Math.max(0, frames.length - MAX_DEPTH)
    for (let i = first; i < frames.length; i++) chain = i === first ? frames[i]!.context : `${chain}>${frames[i]!.context}`
    if (chain !== '') this.sink.add('dispatch ', chain, '>', e.name, ' ', frames[frames.length - 1]!.id === e.id ? 'same' : 'other', '')
    else this.sink.add('dispatch ', e.name, '', '', '', '', '')
    const a = this.#agent(e.id)
    const before = a.code
    if (!e.stale) {
      switch (e.name) {
        case 'agent/created':
          if (a.phase === 'gone' || a.teardown !== '-') {
            a.status = 'idle'; a.nextTurn = 0; a.nextStep = 0; a.turn = '-'; a.maintenance = 0; a.calling = false; a.teardown = '-'
          }
          a.phase = 'live'
          advance(a, undefined, 'agent')
          break
        case 'session/created': advance(a, undefined, 'session'); break
        case 'agent/session-start': advance(a, undefined, 'started'); break
        case 'agent/status': a.status = e.detail === 'running' ? 'run' : 'idle'; break
        case 'agent/disposed': a.phase = 'gone'; a.teardown = 'agent'; break
        case 'session/disposed': if (a.teardown !== 'done') a.teardown = 'session'; break
      }
    }
    this.#step(a, before, e.stale ? `*${e.name}~stale` : `*${e.name}`)
    // The world observes before program listeners: a listener mark after this names its event.
    this.#listenerEvent = e.name
  }

  #append(e: Extract<TraceEntry, { k: 'append' }>): void {
    const spliced = e.type === 'agent/inbox/spliced'
    const data = spliced ? e.data as { target?: string; removedCount?: number; inserted?: unknown[] } | null : undefined
    const removed = typeof data?.removedCount === 'number' ? data.removedCount : 0
    const inserted = Array.isArray(data?.inserted) ? data.inserted.length : 0
    const label = spliced ? `.splice:${data?.target ?? '?'}${removed > 0 ? '-' : ''}${inserted > 0 ? '+' : ''}` : `.${e.type}`
    const a = this.#agent(e.id)
    const before = a.code
    switch (e.type) {
      case 'agent/inbox/spliced':
        if (data?.target === 'next-step') a.nextStep = Math.max(0, a.nextStep - removed + inserted)
        else a.nextTurn = Math.max(0, a.nextTurn - removed + inserted)
        break
      case 'turn/start': a.turn = 'turn'; break
      case 'step/start': a.turn = 'step'; break
      case 'step/end': a.turn = 'turn'; a.calling = false; break
      case 'turn/end': a.turn = '-'; a.calling = false; break
    }
    this.#step(a, before, label)
  }

  #mark(e: Extract<TraceEntry, { k: 'mark' }>): void {
    const listener = /^(\S+) listener:(\S+) (\w+)$/.exec(e.label)
    if (listener) {
      this.#listenerEvent = listener[2]
      this.#pendingOpFrame = listener[3] === 'op'
      this.sink.add('listener ', listener[2]!, ' ', listener[3]!, this.#context(), '', '')
      return
    }
    if (/ (op)$/.test(e.label)) {
      // A disposer or a minting behaviour about to perform an operation.
      this.#pendingOpFrame = true
      this.#listenerEvent = e.label.startsWith('minting') ? 'minting' : 'disposer'
    }
    const meaning = markLabel(e.label)
    if (meaning && e.id !== undefined) {
      const a = this.#agent(e.id)
      const before = a.code
      if (meaning.stage) advance(a, e.tx, meaning.stage)
      if (meaning.maintenance) a.maintenance = Math.max(0, a.maintenance + meaning.maintenance)
      if (meaning.call) a.calling = true
      this.#step(a, before, meaning.label)
    }
  }
}
