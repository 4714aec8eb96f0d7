/**
 * Operation windows: each operation's invoke entry paired with its outcome. A synchronous call
 * (a send, a cancel, an `inbox.remove`) does all its work between the two, so "which operations
 * were open at entry i" tells a checker who caused what it sees there.
 * @module
 */
import type { Operation } from '../../sim/program/program.js'
import type { TraceEntry } from '../../sim/trace/trace.js'
import type { Analysis, Life, Tx } from './analysis.js'
import { Derived } from './analysis.js'
import { ownerOf } from './facts.js'

type Entry<K extends TraceEntry['k']> = Extract<TraceEntry, { k: K }>

/** One operation from its invoke to its outcome (absent when it never settled). */
export interface OpWindow {
  readonly invoke: Entry<'invoke'>
  readonly outcome: Entry<'outcome'> | undefined
  readonly spec: Operation
  readonly world: number
}

/** The session an operation targets, if it targets one. */
export function sessionOf(spec: Operation): string | undefined {
  return 'session' in spec ? spec.session : undefined
}

/** Every operation window of the run, in invoke order (computed once per analysis). */
export function windowsOf(a: Analysis): OpWindow[] {
  return WINDOWS.of(a)
}

const WINDOWS = new Derived((a: Analysis): OpWindow[] => {
  const byKey = new Map<string, { invoke: Entry<'invoke'>; outcome: Entry<'outcome'> | undefined }>()
  const list: { invoke: Entry<'invoke'>; outcome: Entry<'outcome'> | undefined }[] = []
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    if (e.k === 'invoke') {
      const w = { invoke: e, outcome: undefined }
      byKey.set(`${e.world}/${e.actor}/${e.op}`, w)
      list.push(w)
    } else if (e.k === 'outcome') {
      const w = byKey.get(`${e.world}/${e.actor}/${e.op}`)
      if (w && !w.outcome) w.outcome = e
    }
  }
  return list.map((w) => ({ invoke: w.invoke, outcome: w.outcome, spec: w.invoke.spec, world: w.invoke.world }))
})

/**
 * The invoke entry an outcome settles, found by its `world/actor/op` key; where a key repeats in a
 * run, the run's last invoke of it (the reading the runtime and teardown checks have always used,
 * unlike {@link windowsOf}, which pairs an outcome with the latest invoke before it). Computed once
 * per analysis for every outcome, so no checker builds its own map of the run's invokes.
 */
export function invokeOfOutcome(a: Analysis, outcome: Entry<'outcome'>): Entry<'invoke'> | undefined {
  return LAST_INVOKES.of(a).get(outcome)
}

const LAST_INVOKES = new Derived((a: Analysis): Map<Entry<'outcome'>, Entry<'invoke'>> => {
  const byKey = new Map<string, Entry<'invoke'>>()
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    if (e.k === 'invoke') byKey.set(`${e.world}/${e.actor}/${e.op}`, e)
  }
  const byOutcome = new Map<Entry<'outcome'>, Entry<'invoke'>>()
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    if (e.k !== 'outcome') continue
    const invoke = byKey.get(`${e.world}/${e.actor}/${e.op}`)
    if (invoke !== undefined) byOutcome.set(e, invoke)
  }
  return byOutcome
})

/** Whether the window is open at entry index `i` (invoked before it, not settled before it). */
export function openAt(w: OpWindow, i: number): boolean {
  return w.invoke.i < i && (w.outcome === undefined || w.outcome.i > i)
}

/** The windows open at entry `i` in `world` that target `session`, optionally of the given kinds. */
export function openOn(a: Analysis, world: number, session: string, i: number, kinds?: readonly Operation['op'][]): OpWindow[] {
  return windowsOf(a).filter((w) => w.world === world && openAt(w, i) && sessionOf(w.spec) === session && (!kinds || kinds.includes(w.spec.op)))
}

/** Ids (`world/id`) the program holds with an agent it registered directly (a stub, §3.5 L). */
export function stubKeys(a: Analysis): Set<string> {
  // Whatever its outcome: a registration whose announcement a listener vetoed may still hold the id.
  return new Set(windowsOf(a).filter((w) => w.spec.op === 'register' || w.spec.op === 'enter').map((w) => `${w.world}/${sessionOf(w.spec)}`))
}

/**
 * The first request to tear `life` down made before entry `before` (and after its creation was
 * invoked: an earlier request tore down something else): a `dispose` of its handle, an unload of
 * its owner, a factory unload, shutdown or restart of its process, or (for a child created through
 * a parent agent's ctx) the first such request for its parent. Undefined when nothing asked (a
 * rollback, or a teardown nobody requested).
 */
export function teardownRequest(a: Analysis, life: Life, before: number, depth = 0): OpWindow | undefined {
  const owner = life.tx?.owner
  const after = lowerBound(a, life)
  let first = windowsOf(a).find((w) => w.world === life.world && w.invoke.i < before && w.invoke.i > after && (
    (w.spec.op === 'dispose' && w.spec.session === life.id && disposes(a, w, life)) || (w.spec.op === 'unloadOwner' && w.spec.owner === owner) ||
    w.spec.op === 'unloadFactory' || w.spec.op === 'shutdown' || w.spec.op === 'restart'))
  if (depth > 8 || !owner?.startsWith('agent:')) return first
  const parent = a.lives.find((p) => p.world === life.world && p.id === owner.slice('agent:'.length) && p.sessionCreated.i < life.sessionCreated.i && (!p.sessionDisposed || p.sessionDisposed.i > life.sessionCreated.i))
  const inherited = parent ? teardownRequest(a, parent, before, depth + 1) : undefined
  if (inherited && (!first || inherited.invoke.i < first.invoke.i)) first = inherited
  return first
}

/**
 * An owner unload before `before` of another creation that may have published `life` (its ties and
 * rivals, with another owner): had that one published, it was a teardown request of `life`.
 */
export function rivalOwnerUnload(a: Analysis, life: Life, before: number): OpWindow | undefined {
  const owners = new Set([...life.alsoPossible, ...life.rivals].map((t) => t.owner).filter((o) => o !== undefined && o !== life.tx?.owner))
  if (owners.size === 0) return undefined
  const after = lowerBound(a, life)
  return windowsOf(a).find((w) => w.world === life.world && w.invoke.i < before && w.invoke.i > after && w.spec.op === 'unloadOwner' && owners.has(w.spec.owner))
}

/**
 * The entry after which a request may be `life`'s: its creation's invoke, or (no creation
 * attributed) the end of the lifecycle of its id before it.
 */
function lowerBound(a: Analysis, life: Life): number {
  if (life.tx) return life.tx.invoke.i
  return a.lives.filter((l) => l.world === life.world && l.id === life.id && l.sessionCreated.i < life.sessionCreated.i).at(-1)?.sessionDisposed?.i ?? -1
}

/**
 * Whether the `dispose` of window `w` acted on `life`'s handle: by the handle's agent (a fact), else
 * the handle of the id the world held then (the latest creation of the id resolved before it). A
 * dispose that found no handle tore nothing down.
 */
export function disposes(a: Analysis, w: OpWindow, life: Life): boolean {
  if (w.outcome?.status === 'info') return false
  const held = ownerOf(a.facts, w.invoke.i)
  if (held !== undefined || (a.facts.present && w.outcome !== undefined)) return held !== undefined && held === life.tx?.invoke.i
  if (!life.tx) return true
  let latest: Tx | undefined
  for (const tx of a.txs.values()) {
    if (tx.world !== w.world || tx.id !== life.id || tx.outcome?.status !== 'ok' || tx.outcome.i > w.invoke.i) continue
    if (!latest || tx.outcome.i > latest.outcome!.i) latest = tx
  }
  return latest === undefined || latest === life.tx
}

/** A request that aborts an agent's current activity: a cancel (with its cause kind) or a teardown request (`disposed`). */
export interface AbortRequest {
  readonly window: OpWindow
  /** The cause kind the request aborts with: the cancel's (default `user`), or `disposed` for a teardown. */
  readonly cause: string
  readonly teardown: boolean
  /**
   * A cancel that threw (e.g. its inbox clear reentered an append from inside an observer): the
   * reference aborts nothing then, another implementation may have aborted before throwing.
   */
  readonly failed: boolean
}

/**
 * The requests invoked in `life`'s process after entry `from` and before entry `to` that may abort
 * its agent's activity: a cancel of its id that reached a live agent (even one that threw), and the teardown requests of
 * {@link teardownRequest} (a dispose of its id, an unload of its owner, a factory unload, shutdown,
 * restart). In invoke order. A child's teardown through its parent's scope is not listed (it
 * reaches the child only after the parent's driver is quiescent).
 */
export function abortRequests(a: Analysis, life: Life, from: number, to: number): AbortRequest[] {
  const owner = life.tx?.owner
  const out: AbortRequest[] = []
  for (const w of windowsOf(a)) {
    if (w.world !== life.world || w.invoke.i <= from || w.invoke.i >= to) continue
    const s = w.spec
    if (s.op === 'cancel' && s.session === life.id && w.outcome?.status !== 'info') out.push({ window: w, cause: s.cause ?? 'user', teardown: false, failed: w.outcome?.status === 'fail' })
    else if ((s.op === 'dispose' && s.session === life.id && disposes(a, w, life)) || (s.op === 'unloadOwner' && s.owner === owner) || s.op === 'unloadFactory' || s.op === 'shutdown' || s.op === 'restart') {
      out.push({ window: w, cause: 'disposed', teardown: true, failed: false })
    }
  }
  return out
}
