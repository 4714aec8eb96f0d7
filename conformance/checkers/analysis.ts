/**
 * One linear pass over a trace that reconstructs, per session id and process, the lifecycles the
 * checkers reason about: which transaction (create/resume invocation) published which entry, and
 * where each creation and disposal edge happened.
 * @module
 */
import type { Operation, Program } from '../../sim/program/program.js'
import type { QuiescentProbe, Trace, TraceEntry } from '../../sim/trace/trace.js'
import type { Declines } from './declines.js'
import { NO_DECLINES, R } from './declines.js'
import type { Facts } from './facts.js'
import { indexFacts } from './facts.js'

type Entry<K extends TraceEntry['k']> = Extract<TraceEntry, { k: K }>

/** One create or resume invocation. */
export interface Tx {
  readonly tx: string
  readonly id: string
  readonly world: number
  readonly actor: string
  readonly spec: Operation
  readonly owner: string | undefined
  readonly invoke: Entry<'invoke'>
  outcome: Entry<'outcome'> | undefined
  /** The program gave it a setup (so setup/commit marks exist). */
  readonly hasSetup: boolean
  commits: Entry<'mark'>[]
  life: Life | undefined
}

/** One published lifecycle of an id in one process: from `session/created` to `session/disposed`. */
export interface Life {
  readonly id: string
  readonly world: number
  readonly tx: Tx | undefined
  /**
   * Other creations of the id that the trace cannot tell from `tx` as its publisher (same rank in
   * {@link attribute}: no commit mark, neither settled, say). A check that blames the publisher
   * for something fires only if it holds for each of them too.
   */
  readonly alsoPossible: readonly Tx[]
  /**
   * When its publisher was picked by rank among several same-id creations open at its
   * `session/created` (none committed in that step, the facts did not say), the others: a check
   * that blames the publisher judges a guess unless it gives the same verdict for each of them.
   */
  readonly rivals: readonly Tx[]
  readonly sessionCreated: Entry<'event'>
  agentCreated: Entry<'event'> | undefined
  sessionStart: Entry<'event'> | undefined
  agentDisposed: Entry<'event'> | undefined
  sessionDisposed: Entry<'event'> | undefined
  /** Extra creation edges (a second `session/created` or `agent/created` in one lifecycle). */
  readonly repeats: Entry<'event'>[]
  readonly statuses: Entry<'event'>[]
  readonly appends: Entry<'append'>[]
}

/** What the checkers share. */
export interface Analysis {
  readonly program: Program
  readonly entries: readonly TraceEntry[]
  readonly txs: Map<string, Tx>
  readonly lives: Life[]
  /** Disposal edges with no lifecycle to close (an edge for an entry never announced). */
  readonly strayDisposals: Entry<'event'>[]
  /** Events an agent emitted after its own `agent/disposed` (a detached agent still running). */
  readonly staleEvents: Entry<'event'>[]
  /** Sessions' appends by process and id, in order. */
  readonly appendsBySession: Map<string, Entry<'append'>[]>
  /** The run's quiescence probes, in order (none for a trace recorded without them). */
  readonly probes: readonly QuiescentProbe[]
  /** Where the checkers count what they judged and declined (`declines.ts`). */
  readonly declines: Declines
  /** The trace's facts, indexed (`facts.ts`). */
  readonly facts: Facts
  /** What checkers derived from it and share, by {@link Derived} slot. */
  readonly memo: unknown[]
}

/**
 * A value derived from an analysis that several checkers use (its operation windows, say): computed
 * on first use and kept on the analysis, so each run computes it once and no checker keeps a copy.
 * (On the analysis rather than in a WeakMap: a WeakMap entry per run costs its set and the
 * collector's ephemeron pass.)
 */
export class Derived<T> {
  static #slots = 0
  readonly #slot = Derived.#slots++
  readonly #compute: (a: Analysis) => T

  constructor(compute: (a: Analysis) => T) {
    this.#compute = compute
  }

  /** Its value for `a`. */
  of(a: Analysis): T {
    const memo = a.memo
    if (this.#slot in memo) return memo[this.#slot] as T
    const value = this.#compute(a)
    memo[this.#slot] = value
    return value
  }
}

/** The run's entries of one kind, in trace order (sorted once per analysis: most checks read one kind). */
export function entriesOf<K extends TraceEntry['k']>(a: Analysis, kind: K): readonly Entry<K>[] {
  // (each list holds only entries of its kind)
  return (BY_KIND.of(a)[kind] ?? []) as unknown as readonly Entry<K>[]
}

const BY_KIND = new Derived((a: Analysis): Partial<Record<TraceEntry['k'], TraceEntry[]>> => {
  const byKind: Partial<Record<TraceEntry['k'], TraceEntry[]>> = {}
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    const list = byKind[e.k]
    if (list) list.push(e)
    else byKind[e.k] = [e]
  }
  return byKind
})

/** The key of an id within one process. */
export function keyOf(world: number, id: string): string {
  return `${world}/${id}`
}

/**
 * Put back an `agent/created` edge set aside for a register that failed, in trace order (`onlyIfMissing`:
 * only to a lifecycle still live at the edge that has no `agent/created` of its own).
 */
function restoreAgentCreated(lives: Life[], edge: Entry<'event'>, onlyIfMissing = false): void {
  const life = lives.findLast((l) => l.world === edge.world && l.id === edge.id && l.sessionCreated.i < edge.i)
  if (!life) return
  if (onlyIfMissing && (life.agentCreated !== undefined || (life.sessionDisposed !== undefined && life.sessionDisposed.i < edge.i))) return
  if (life.agentCreated === undefined || life.agentCreated.i > edge.i) {
    if (life.agentCreated) life.repeats.push(life.agentCreated)
    life.agentCreated = edge
  } else {
    life.repeats.push(edge)
  }
}

/** Analyse a trace (linear). */
export function analyse(trace: Trace, program: Program, declines: Declines = NO_DECLINES): Analysis {
  const facts = indexFacts(trace)
  const txs = new Map<string, Tx>()
  const lives: Life[] = []
  const open = new Map<string, Life>()
  const strayDisposals: Entry<'event'>[] = []
  const staleEvents: Entry<'event'>[] = []
  const appendsBySession = new Map<string, Entry<'append'>[]>()
  const inFlight = new Map<string, Tx[]>()
  const candidates = new Map<Life, Tx[]>()
  // Register operations in flight, by invoke key: the id their stub takes.
  const registering = new Map<string, string>()
  // `agent/created` edges set aside while a register of the same id was in flight, by invoke key: the
  // stub's own announcement if the register succeeds, a real lifecycle's edge if it failed — unless
  // the stub was announced and then removed inside the register (a throwing `agent/created`
  // listener fails the register after the announcement): its `agent/disposed` is set aside too.
  const setAside = new Map<string, Entry<'event'>[]>()

  for (const e of trace.entries) {
    switch (e.k) {
      case 'invoke': {
        if (e.spec.op === 'register') registering.set(`${e.world}/${e.actor}/${e.op}`, keyOf(e.world, e.spec.session))
        if (!e.tx || (e.spec.op !== 'create' && e.spec.op !== 'resume')) break
        const tx: Tx = {
          tx: e.tx, id: e.spec.session, world: e.world, actor: e.actor, spec: e.spec, owner: e.owner, invoke: e,
          outcome: undefined, hasSetup: e.spec.setup !== undefined, commits: [], life: undefined,
        }
        txs.set(e.tx, tx)
        const key = keyOf(e.world, tx.id)
        const sameId = inFlight.get(key)
        if (sameId) sameId.push(tx)
        else inFlight.set(key, [tx])
        break
      }
      case 'outcome': {
        // (settling a register: only while one is in flight, which few runs have)
        if (registering.size > 0) {
          const invokeKey = `${e.world}/${e.actor}/${e.op}`
          registering.delete(invokeKey)
          // A failed register announced nothing (what was set aside for it was a lifecycle's own edge),
          // unless its stub was announced and removed again inside it: both edges were the stub's.
          const aside = setAside.get(invokeKey) ?? []
          const stubRemoved = aside.some((edge) => edge.name === 'agent/disposed')
          for (const edge of aside) if (e.status === 'fail' && !stubRemoved) restoreAgentCreated(lives, edge)
          // (an edge set aside for the stub may have been the lifecycle's: an event names the id, not the object)
          if (aside.length > 0 && (e.status !== 'fail' || stubRemoved)) stubEdgeDeclined(declines, [36, 55, 74])
          setAside.delete(invokeKey)
        }
        const tx = e.tx ? txs.get(e.tx) : undefined
        if (tx) tx.outcome = e
        break
      }
      case 'mark': {
        if (e.tx && e.label.endsWith('@commit')) txs.get(e.tx)?.commits.push(e)
        break
      }
      case 'append': {
        const key = keyOf(e.world, e.id)
        const appends = appendsBySession.get(key)
        if (appends) appends.push(e)
        else appendsBySession.set(key, [e])
        open.get(key)?.appends.push(e)
        break
      }
      case 'event': {
        if (e.stale) {
          staleEvents.push(e)
          break
        }
        const key = keyOf(e.world, e.id)
        const life = open.get(key)
        // A stub the program entered (`enter`, §4 split driven step by step): its edges are its own.
        if (e.stub) break
        // With facts, an edge names its object: a stub the program registered is its own (no
        // lifecycle's), any other edge is a lifecycle's, whatever register is in flight.
        const subject = facts.subjects.get(e.i)
        if (subject?.stub) break
        const known = subject !== undefined
        // A stub the program registers directly announces itself: not an edge of any lifecycle (set
        // aside until the register's outcome says whether it announced anything).
        if (e.name === 'agent/created' && !known) {
          // (a register whose stub was already announced and removed again announces nothing more:
          // a later edge is the lifecycle publishing meanwhile)
          const registrar = [...registering].find(([invoke, id]) => id === key && !setAside.get(invoke)?.some((edge) => edge.name === 'agent/disposed'))?.[0]
          if (registrar !== undefined) {
            setAside.set(registrar, [...(setAside.get(registrar) ?? []), e])
            break
          }
        }
        if (e.name === 'agent/disposed' && !known) {
          // The stub announced inside its register being removed again, inside the same register.
          const registrar = [...registering].find(([invoke, id]) => id === key && setAside.get(invoke)?.some((edge) => edge.name === 'agent/created'))?.[0]
          if (registrar !== undefined) {
            setAside.get(registrar)!.push(e)
            break
          }
        }
        if (e.name === 'session/created') {
          if (life && !life.sessionDisposed) {
            life.repeats.push(e)
            break
          }
          const created: Life = {
            id: e.id, world: e.world, tx: undefined, sessionCreated: e, agentCreated: undefined, sessionStart: undefined,
            agentDisposed: undefined, sessionDisposed: undefined, alsoPossible: [], rivals: [], repeats: [], statuses: [], appends: [],
          }
          // (those invoked so far: the list grows on)
          candidates.set(created, [...(inFlight.get(key) ?? [])])
          lives.push(created)
          open.set(key, created)
          break
        }
        if (!life) {
          if (e.name === 'agent/disposed' || e.name === 'session/disposed') strayDisposals.push(e)
          break
        }
        switch (e.name) {
          case 'agent/created':
            if (life.agentCreated) life.repeats.push(e)
            else life.agentCreated = e
            break
          case 'agent/session-start':
            if (life.sessionStart) life.repeats.push(e)
            else life.sessionStart = e
            break
          case 'agent/status':
            life.statuses.push(e)
            break
          case 'agent/disposed':
            if (life.agentDisposed || !life.agentCreated) strayDisposals.push(e)
            else life.agentDisposed = e
            break
          case 'session/disposed':
            life.sessionDisposed = e
            open.delete(key)
            break
        }
        break
      }
    }
  }
  // A register that never settled (its process crashed first) leaves it unknown whether its stub was
  // announced. An `agent/created` set aside for it goes to the lifecycle of that id if that lifecycle
  // was live then and has none of its own: a registry refuses the stub while that lifecycle's agent
  // is entered, and the trace cannot tell the two edges apart, so it must not blame the lifecycle for a
  // missing one (§9 36). A stub registered after the lifecycle ended announced itself.
  for (const [invoke] of registering) {
    const aside = setAside.get(invoke) ?? []
    if (aside.length > 0) stubEdgeDeclined(declines, [36, 55, 95, 96, 103])
    if (aside.some((edge) => edge.name === 'agent/disposed')) continue
    for (const edge of aside) restoreAgentCreated(lives, edge, true)
  }
  // Attribution needs the whole trace (commit marks and outcomes), so it runs after the pass.
  for (const life of lives) {
    const { tx, ties, rivals } = attribute(byFacts(facts, candidates.get(life) ?? [], life), life.sessionCreated, life, trace.entries)
    if (tx) {
      tx.life = life
      ;(life as { tx: Tx | undefined }).tx = tx
      ;(life as { alsoPossible: readonly Tx[] }).alsoPossible = ties
      ;(life as { rivals: readonly Tx[] }).rivals = rivals
    }
  }
  return { program, entries: trace.entries, txs, lives, strayDisposals, staleEvents, appendsBySession, probes: trace.probes ?? [], declines, facts, memo: [] }
}

/**
 * The creations that may have published `life`, as the facts narrow them: the one holding the
 * session or agent object its edges carry (its setup's `agentCtx` or its resolved handle), else
 * those not known to hold other objects. Without facts (or when they rule out every candidate),
 * all of them.
 */
function byFacts(facts: Facts, candidates: readonly Tx[], life: Life): readonly Tx[] {
  if (!facts.present || candidates.length < 2) return candidates
  // Loops, not map, filter and find: their intermediate lists hold numbers or also undefined, two
  // hidden classes, and `analyse`, which this is inlined into, was deoptimized at the second.
  const serials: number[] = []
  let owner: number | undefined
  for (const edge of [life.sessionCreated, life.agentCreated, life.sessionStart]) {
    const serial = edge === undefined ? undefined : facts.subjects.get(edge.i)?.serial
    if (serial === undefined) continue
    serials.push(serial)
    owner ??= facts.owners.get(serial)
  }
  const owning = owner === undefined ? undefined : candidates.find((t) => t.invoke.i === owner)
  if (owning) return [owning]
  const possible = candidates.filter((t) => {
    const held = facts.held.get(t.invoke.i)
    return held === undefined || serials.some((n) => held.agents.includes(n) || held.sessions.includes(n))
  })
  return possible.length > 0 ? possible : candidates
}

/** An `agent/created` (and its `agent/disposed`) went to a stub the trace cannot tell from the lifecycle's agent. */
function stubEdgeDeclined(declines: Declines, clauses: readonly number[]): void {
  for (const clause of clauses) declines.declined(clause, R.stubEdge)
}

/** Whether the operation invoked at `invoke` aborts `tx`'s creation: its owner unloading, or its signal aborting. */
export function abortsCreation(invoke: Entry<'invoke'>, tx: Tx): boolean {
  if (invoke.world !== tx.world) return false
  const signal = 'signal' in tx.spec ? tx.spec.signal : undefined
  return (invoke.spec.op === 'unloadOwner' && invoke.spec.owner === tx.owner) ||
    (invoke.spec.op === 'abortSignal' && signal !== undefined && invoke.spec.signal === signal)
}

/**
 * Whether a lifecycle's publication had not reached agent/session-start by entry `at`. Publication is
 * one synchronous stretch, so seen from a later point it was broken off (by a throwing creation
 * listener, say) and is being rolled back, even when its creation never settled (a crash came first).
 */
/**
 * Whether a check that blames `life`'s publisher gives one verdict whichever of its possible
 * publishers it was (`verdict`: whether the check fails for that one).
 */
export function sameVerdict(life: Life, verdict: (tx: Tx) => boolean): boolean {
  if (!life.tx || life.rivals.length === 0) return true
  const chosen = verdict(life.tx)
  return life.rivals.every((t) => verdict(t) === chosen)
}

export function publicationBrokenOff(life: Life, at = Number.POSITIVE_INFINITY): boolean {
  return life.sessionStart === undefined || life.sessionStart.i > at
}

/**
 * The transaction that published a `session/created`: the one whose `commit()` ran in the same
 * decision step just before it (commit is synchronous with publication, §3.4); else the open one
 * that settles first.
 */
function attribute(candidates: readonly Tx[], created: Entry<'event'>, life: Life, entries: readonly TraceEntry[]): { tx: Tx | undefined; ties: Tx[]; rivals: Tx[] } {
  const at = created.i
  // A same-id loser (`already exists/registered`) never published anything of its own.
  const lost = (tx: Tx): boolean => tx.outcome?.status === 'fail' && /already (exists|registered)/.test(tx.outcome.detail)
  const open = (tx: Tx): boolean => !tx.life && !lost(tx) && tx.invoke.i < at && !(tx.outcome && tx.outcome.i < at)
  let best: Tx | undefined
  let bestCommit = -1
  for (const tx of candidates) {
    if (!open(tx)) continue
    // commit() runs in the same synchronous stretch as publication: same decision step.
    const commit = tx.commits.filter((m) => m.i < at && m.d === created.d).at(-1)
    if (commit && commit.i > bestCommit) {
      best = tx
      bestCommit = commit.i
    }
  }
  if (best) return { tx: best, ties: [], rivals: [] }
  // Otherwise the publishing transaction is the one that settles first after its creation edges
  // (resolution right after agent/session-start, or rejection after the rollback) — among those
  // that could publish here: a transaction with a setup whose commit has not yet run cannot (that is
  // what clause 36 looks for when it is the only candidate), so a same-id create without a setup
  // (one started from the first one's rollback, say) is preferred to it.
  // Ranked: a transaction that resolved while this lifecycle was live, then one that rejected only
  // after it was rolled back (a publisher rejects after its rollback, §3.5), then one that never
  // settled (its process crashed, say), then one that rejected while this lifecycle was still live
  // (which a publisher does only by breaking clause 95), then any; the earliest to settle within a
  // rank.
  let first: Tx | undefined
  const settles = (t: Tx): number => t.outcome?.i ?? Number.POSITIVE_INFINITY
  // (A commit the program makes throw cannot publish either: preferring another candidate keeps a
  // same-id create's publication off it; alone, it is still blamed, which is what clause 40 checks.)
  const commitThrows = (t: Tx): boolean => 'setup' in t.spec && t.spec.setup?.commitThrows === true
  // (Nor does a create publish a session-start of source `resume`, or a resume one of `startup`.)
  const source = life.sessionStart?.detail
  const sourceFits = (t: Tx): boolean => (source !== 'startup' && source !== 'resume') || (source === 'resume') === (t.spec.op === 'resume')
  const plausible = (t: Tx): boolean => (!t.hasSetup || t.commits.some((m) => m.i < at)) && !commitThrows(t) && sourceFits(t)
  const disposedAt = life.sessionDisposed?.i
  // Among creations that never settled, one whose owner began unloading (or whose signal aborted)
  // before this publication is the less likely publisher: a conforming factory stops it (§3.1), so
  // blaming it for another same-id creation's publication would be a false §9 60.
  const abortedBefore = (t: Tx): boolean => entries.some((e) => e.k === 'invoke' && e.i > t.invoke.i && e.i < at && abortsCreation(e, t))
  // A transaction that resolved only after this lifecycle was gone published another one (a
  // publisher resolves right after its agent/session-start, while its agent is live).
  const rank = (t: Tx): number => {
    const settledAfterDisposal = disposedAt !== undefined && t.outcome !== undefined && t.outcome.i > disposedAt
    const settled = t.outcome === undefined ? (abortedBefore(t) ? 2.5 : 2) : t.outcome.status === 'ok' ? (settledAfterDisposal ? 4 : 0) : settledAfterDisposal ? 1 : 3
    return (plausible(t) ? 0 : 5) + settled
  }
  for (const tx of candidates) {
    if (!open(tx)) continue
    if (!first || rank(tx) < rank(first) || (rank(tx) === rank(first) && settles(tx) < settles(first))) first = tx
  }
  const chosen = first
  const ties = chosen ? candidates.filter((t) => t !== chosen && open(t) && rank(t) === rank(chosen) && settles(t) === settles(chosen)) : []
  return { tx: chosen, ties, rivals: chosen === undefined ? [] : candidates.filter((t) => t !== chosen && open(t)) }
}
