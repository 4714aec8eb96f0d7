/**
 * The durable inbox projection of every session, rebuilt from the trace's `agent/inbox/spliced`
 * appends (§6.3): what a checker means by "pending" at any entry. A session starts empty at
 * `session/created`, or from its persisted log when it was resumed.
 * @module
 */
import type { TraceEntry } from '../../sim/trace/trace.js'
import type { Analysis } from './analysis.js'
import { Derived, keyOf } from './analysis.js'
import { applySplice } from './inbox.js'

/** One session's projection by message id. */
export interface Projection {
  'next-turn': string[]
  'next-step': string[]
}

/** A splice payload as logged. */
export interface SplicePayload {
  target: 'next-turn' | 'next-step'
  start: number
  removedCount?: number
  inserted: { id: string; content?: unknown }[]
  outcome?: string
}

/** A claim: a pure deletion with no outcome (§6.4). */
export function isClaim(s: SplicePayload): boolean {
  return !!s.removedCount && s.outcome === undefined && Array.isArray(s.inserted) && s.inserted.length === 0
}

/** An ordinary removal: `outcome: 'canceled'`. */
export function isCanceled(s: SplicePayload): boolean {
  return s.outcome === 'canceled' && !!s.removedCount
}

/** What one entry does to the projections: the projection it leaves to one session (by key). */
interface Step {
  readonly key: string
  readonly projection: Projection
}

/** Projections of every session of the run, advanced entry by entry. */
export class Projections {
  readonly #byKey = new Map<string, Projection>()

  /** The projection of `id` in `world` (empty when never seen). */
  get(world: number, id: string): Projection {
    const key = keyOf(world, id)
    let p = this.#byKey.get(key)
    if (!p) this.#byKey.set(key, (p = { 'next-turn': [], 'next-step': [] }))
    return p
  }

  /** Every pending message id of `id` in `world`. */
  pending(world: number, id: string): string[] {
    const p = this.get(world, id)
    return [...p['next-turn'], ...p['next-step']]
  }

  /**
   * Advance over one entry; returns what it changed. Invalid splices leave the projection as it was
   * (the inbox checker reports them). A projection, once handed out, never changes: a splice
   * replaces it by an updated copy.
   */
  apply(e: TraceEntry): Step | undefined {
    if (e.k === 'resumed') {
      const p: Projection = { 'next-turn': [], 'next-step': [] }
      for (const ev of e.events) if (ev.type === 'agent/inbox/spliced' && applySplice(p, ev.data) !== undefined) break
      return this.#set(keyOf(e.world, e.id), p)
    } else if (e.k === 'event' && e.name === 'session/created') {
      return this.#set(keyOf(e.world, e.id), { 'next-turn': [], 'next-step': [] })
    } else if (e.k === 'append' && e.type === 'agent/inbox/spliced') {
      const p = this.get(e.world, e.id)
      const copy: Projection = { 'next-turn': [...p['next-turn']], 'next-step': [...p['next-step']] }
      if (applySplice(copy, e.data) === undefined) return this.#set(keyOf(e.world, e.id), copy)
    }
    return undefined
  }

  /** Replay a step {@link apply} returned. */
  replay(step: Step): void {
    this.#byKey.set(step.key, step.projection)
  }

  #set(key: string, projection: Projection): Step {
    this.#byKey.set(key, projection)
    return { key, projection }
  }
}

function isEntries(run: Analysis | readonly TraceEntry[]): run is readonly TraceEntry[] {
  return Array.isArray(run)
}

/** What each entry changes, applying every splice once. */
function timelineOf(entries: readonly TraceEntry[]): (Step | undefined)[] {
  const projections = new Projections()
  return entries.map((e) => projections.apply(e))
}

// Several checkers walk the projections of one run: its splices are applied (and validated) once,
// and each walk replays what they changed.
const TIMELINE = new Derived((a: Analysis) => timelineOf(a.entries))

/**
 * Visit every entry of an analysed run (or of a trace's entries) with the projections as they
 * stood just before it.
 */
export function walkProjections(run: Analysis | readonly TraceEntry[], visit: (e: TraceEntry, projections: Projections) => void): void {
  const [entries, steps] = isEntries(run) ? [run, timelineOf(run)] : [run.entries, TIMELINE.of(run)]
  const projections = new Projections()
  for (let i = 0; i < entries.length; i++) {
    visit(entries[i]!, projections)
    const step = steps[i]
    if (step) projections.replay(step)
  }
}
