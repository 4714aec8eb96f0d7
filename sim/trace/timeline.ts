/**
 * The swim-lane model of a run: every trace entry and every scheduling decision as one row, in
 * order, placed in the lane of the actor it belongs to (and, where it concerns an agent, in that
 * session's lane), with the registry snapshot in force at that step and the violations seen there.
 * The text and HTML renderings are views of this one model.
 * @module
 */
import type { Decision } from './decision-log.js'
import type { Program } from '../program/program.js'
import type { Snapshot, Trace, TraceEntry } from './trace.js'

/**
 * What a timeline shows of a violation: the checkers' `Violation` (`conformance/checkers/`) has
 * this shape; the simulator names only the fields it draws, so it need not import the layer above.
 */
export interface TimelineViolation {
  readonly key: string
  readonly message: string
  /** Index of the trace entry where it was seen (-1: at no entry). */
  readonly entry: number
  /** Decisions taken before that entry. */
  readonly decision: number
}

/**
 * Lanes for what no program actor does: operations performed from inside a dispatch, commit,
 * disposer or tool body (`inline`); listener and effect tails (`listener`); the scripted model
 * (`model`); the factory under test (its checkpoints, bus events and session appends: `factory`);
 * and the environment (persistence loads, virtual time, warnings, the final state: `env`).
 */
export const PSEUDO_ACTORS = ['inline', 'listener', 'model', 'factory', 'env'] as const

/** One row of the timeline. */
export interface TimelineRow {
  readonly kind: 'decision' | TraceEntry['k']
  /** The trace entry index, or for a decision its index in the decision log. */
  readonly index: number
  /** Decisions taken before this row (for a decision: its own index). */
  readonly d: number
  /** The world generation (restarts start a new one). */
  readonly world: number
  /** One character per kind: `>` pick or time, `+` invoke, `=` outcome, `*` event, `.` append, `^` resumed, `!` warn, `#` mark, `$` final. */
  readonly glyph: string
  /** The actor lane (a program actor or one of {@link PSEUDO_ACTORS}). */
  readonly lane: string
  /** The agent/session id the row concerns, if any. */
  readonly session?: string
  readonly text: string
  /** Both registries at this step (the latest snapshot recorded at or before it). */
  readonly snap: Snapshot
  /** Violations seen at this row (those seen at no entry attach to the last row). */
  readonly violations: readonly TimelineViolation[]
}

/** The swim-lane model of a run. */
export interface Timeline {
  /** Actor lanes: the program's actors in program order, then {@link PSEUDO_ACTORS}. */
  readonly actors: readonly string[]
  /** Agent/session lanes, in order of first appearance. */
  readonly sessions: readonly string[]
  readonly rows: readonly TimelineRow[]
  readonly violations: readonly TimelineViolation[]
}

const GLYPH: Record<TraceEntry['k'], string> = {
  invoke: '+', outcome: '=', event: '*', append: '.', resumed: '^', warn: '!', mark: '#', final: '$',
}

const EMPTY: Snapshot = { agents: [], sessions: [] }

/** The lane of a label or mark: its first segment, mapped onto the actor and pseudo-actor lanes. */
export function laneOf(label: string, actors: ReadonlySet<string>): string {
  const head = /^[^:@\s]+/.exec(label)?.[0] ?? ''
  if (actors.has(head)) return head
  switch (head) {
    case 'inline': return 'inline'
    case 'listener': case 'effect': case 'env': return 'listener'
    case 'model': return 'model'
    case 'factory': return 'factory'
    default: return 'env'
  }
}

function short(value: unknown, max = 80): string {
  const text = JSON.stringify(value) ?? ''
  return text.length > max ? `${text.slice(0, max - 3)}...` : text
}

function sessionOfSpec(e: Extract<TraceEntry, { k: 'invoke' }>): string | undefined {
  return 'session' in e.spec ? e.spec.session : undefined
}

/** Build the swim-lane model of a run from its trace, its decisions and its violations. */
export function buildTimeline(program: Program, trace: Trace, decisions: readonly Decision[], violations: readonly TimelineViolation[] = []): Timeline {
  const actorIds = program.actors.map((a) => a.id)
  const actorSet = new Set(actorIds)
  const sessions: string[] = []
  const seeSession = (id: string | undefined): string | undefined => {
    if (id !== undefined && id !== '' && !sessions.includes(id)) sessions.push(id)
    return id === '' ? undefined : id
  }
  const rows: TimelineRow[] = []
  const byEntry = new Map<number, TimelineViolation[]>()
  const atEnd: TimelineViolation[] = []
  for (const v of violations) {
    if (v.entry < 0) atEnd.push(v)
    else byEntry.set(v.entry, [...(byEntry.get(v.entry) ?? []), v])
  }
  const opSession = new Map<string, string>()
  let snap = EMPTY
  let world = 0
  let next = 0
  const flush = (upTo: number): void => {
    for (; next < upTo && next < decisions.length; next++) {
      const d = decisions[next]!
      const lane = d.kind === 'pick' ? laneOf(d.label, actorSet) : 'env'
      const text = d.kind === 'pick' ? `pick ${d.label}` : d.kind === 'time' ? `time advances to ${d.at}ms` : `random(${d.n}) = ${d.value}`
      rows.push({ kind: 'decision', index: next, d: next, world, glyph: '>', lane, text, snap, violations: [] })
    }
  }
  for (const e of trace.entries) {
    flush(e.d)
    world = e.world
    if ('snap' in e) snap = e.snap
    const base = { kind: e.k, index: e.i, d: e.d, world: e.world, glyph: GLYPH[e.k], snap, violations: byEntry.get(e.i) ?? [] }
    switch (e.k) {
      case 'invoke': {
        const session = seeSession(sessionOfSpec(e))
        if (session) opSession.set(`${e.world}/${e.actor}/${e.op}`, session)
        rows.push({ ...base, lane: e.actor, ...(session ? { session } : {}), text: `${e.actor} invoke ${e.what}${e.owner && e.owner !== e.actor ? ` owner=${e.owner}` : ''}` })
        break
      }
      case 'outcome': {
        const session = opSession.get(`${e.world}/${e.actor}/${e.op}`)
        rows.push({ ...base, lane: e.actor, ...(session ? { session } : {}), text: `${e.actor} ${e.status} ${e.what}${e.detail ? `: ${e.detail}` : ''}` })
        break
      }
      case 'event': {
        const session = seeSession(e.id)
        rows.push({ ...base, lane: 'factory', ...(session ? { session } : {}), text: `event ${e.name} ${e.id}${e.detail ? ` ${e.detail}` : ''}` })
        break
      }
      case 'append': {
        const session = seeSession(e.id)
        rows.push({ ...base, lane: 'factory', ...(session ? { session } : {}), text: `append ${e.id}#${e.seq} ${e.type} ${short(e.data)}` })
        break
      }
      case 'resumed': {
        const session = seeSession(e.id)
        rows.push({ ...base, lane: 'factory', ...(session ? { session } : {}), text: `resumed ${e.id} with ${e.events.length} events, next-turn=[${e.inbox.nextTurn.join(',')}] next-step=[${e.inbox.nextStep.join(',')}]` })
        break
      }
      case 'warn':
        rows.push({ ...base, lane: 'env', text: `warn ${e.message}` })
        break
      case 'mark': {
        const session = seeSession(e.id)
        rows.push({ ...base, lane: laneOf(e.label, actorSet), ...(session ? { session } : {}), text: `mark ${e.label}` })
        break
      }
      case 'final':
        rows.push({ ...base, lane: 'env', text: `final${e.late.length ? ` late appends ${short(e.late)}` : ''}` })
        break
    }
  }
  flush(decisions.length)
  if (atEnd.length > 0) {
    if (rows.length === 0) rows.push({ kind: 'final', index: -1, d: decisions.length, world, glyph: '$', lane: 'env', text: 'end of run', snap, violations: [] })
    const last = rows[rows.length - 1]!
    rows[rows.length - 1] = { ...last, violations: [...last.violations, ...atEnd] }
  }
  return { actors: [...actorIds, ...PSEUDO_ACTORS], sessions, rows, violations }
}
