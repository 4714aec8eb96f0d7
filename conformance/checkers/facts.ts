/**
 * The trace's facts (`sim/trace/trace.ts`, `Fact`), indexed once per analysis: the synchronous span
 * of each operation, the dispatch each inline operation came from, the objects each creation and
 * stub holds and each registry edge and operation is about, the aborts of activity signals and the
 * injected hangs. A trace recorded without facts gives empty indexes (`present` false): the checks
 * that need a fact then decline, as they did before facts existed.
 * @module
 */
import type { Fact, Trace } from '../../sim/trace/trace.js'

/** One operation's synchronous part: entries `start` up to `end` (exclusive), facts `factStart` up to `factEnd`. */
export interface Span {
  readonly invoke: number
  readonly start: number
  readonly end: number
  readonly factStart: number
  readonly factEnd: number
}

/** An activity signal's abort. */
export interface AbortFact {
  /** Its place among the facts (which spans it lies in). */
  readonly index: number
  /** Entries recorded before it. */
  readonly at: number
  readonly d: number
  readonly world: number
  readonly id: string
  /** The signal's serial: the facts of one activity share it. */
  readonly signal: number
  /** Where the world was handed the signal: `model`, `maintenance`, `turn-stopping`, `pre-step`. */
  readonly source: string
  /** The reason's `kind` (`other` when it has none). */
  readonly kind: string
  /** The signal was already aborted when the world first saw it: the abort came earlier. */
  readonly before: boolean
}

/** What the facts say, indexed. */
export interface Facts {
  /** The trace carries facts. */
  readonly present: boolean
  /** By invoke entry. */
  readonly spans: ReadonlyMap<number, Span>
  /** By inline invoke entry: the dispatch entry it was made from (-1: none recorded) and what made it. */
  readonly from: ReadonlyMap<number, { readonly ref: number; readonly kind: string }>
  /** By entry (a registry edge or an operation's invoke): the serial of the object it is about, and whether that is a program stub. */
  readonly subjects: ReadonlyMap<number, { readonly serial: number; readonly stub: boolean }>
  /** By object serial: the invoke entry of the creation (or stub) that holds it. */
  readonly owners: ReadonlyMap<number, number>
  /** By invoke entry of a creation: the serials of the agent and session objects it holds. */
  readonly held: ReadonlyMap<number, { readonly agents: readonly number[]; readonly sessions: readonly number[] }>
  /** Serials of the stubs the program registered or entered. */
  readonly stubs: ReadonlySet<number>
  readonly aborts: readonly AbortFact[]
  /** Injected throws, in order: where (entries before it), about which id, in which world. */
  readonly faults: readonly { readonly at: number; readonly world: number; readonly id: string; readonly note: string }[]
  /** Hangs still open at the end of the run (begun, never left), by label. */
  readonly openHangs: ReadonlySet<string>
  /** Every sync span, by start. */
  readonly spanList: readonly Span[]
  /** Listeners' asynchronous tails, each beginning and end, in order. */
  readonly tails: readonly TailFact[]
}

/** Where a listener's asynchronous tail began or ended (`tail` facts). */
export interface TailFact {
  /** Entries recorded before it. */
  readonly at: number
  /** Decisions taken before it. */
  readonly d: number
  readonly world: number
  /** The entry of the dispatch the listener ran in, or -1. */
  readonly dispatch: number
  /** Its beginning (else its end). */
  readonly began: boolean
  /** The listener's label (`listener:agent/turn-stopping`). */
  readonly note: string
}

const EMPTY: Facts = {
  present: false, spans: new Map(), from: new Map(), subjects: new Map(), owners: new Map(), held: new Map(), stubs: new Set(), aborts: [], faults: [], openHangs: new Set(), spanList: [], tails: [],
}

/** Index a trace's facts (one pass). */
export function indexFacts(trace: Trace): Facts {
  const list: readonly Fact[] | undefined = trace.facts
  if (list === undefined) return EMPTY
  const spans = new Map<number, Span>()
  const from = new Map<number, { ref: number; kind: string }>()
  const subjects = new Map<number, { serial: number; stub: boolean }>()
  const owners = new Map<number, number>()
  const held = new Map<number, { agents: number[]; sessions: number[] }>()
  const stubs = new Set<number>()
  const aborts: AbortFact[] = []
  const hanging = new Map<string, number>()
  const faults: { at: number; world: number; id: string; note: string }[] = []
  const tails: TailFact[] = []
  // (by index: a campaign runs this unoptimized, where each destructured entry is an array and an iterator step)
  for (let index = 0; index < list.length; index++) {
    const f = list[index]!
    switch (f.k) {
      case 'sync': spans.set(f.op, { invoke: f.op, start: f.ref, end: f.at, factStart: f.n, factEnd: index }); break
      case 'from': from.set(f.op, { ref: f.ref, kind: f.note }); break
      case 'subject': subjects.set(f.ref, { serial: f.n, stub: f.note === 'stub' }); break
      case 'own': {
        if (f.note === 'stub') stubs.add(f.n)
        if (f.op < 0) break
        owners.set(f.n, f.op)
        if (f.ref >= 0) owners.set(f.ref, f.op)
        let h = held.get(f.op)
        if (!h) held.set(f.op, (h = { agents: [], sessions: [] }))
        if (!h.agents.includes(f.n)) h.agents.push(f.n)
        if (f.ref >= 0 && !h.sessions.includes(f.ref)) h.sessions.push(f.ref)
        break
      }
      case 'abort': {
        const [source = '', kind = 'other', before] = f.note.split(':')
        aborts.push({ index, at: f.at, d: f.d, world: f.world, id: f.id, signal: f.n, source, kind, before: before === 'before' })
        break
      }
      case 'fault': faults.push({ at: f.at, world: f.world, id: f.id, note: f.note }); break
      case 'tail': tails.push({ at: f.at, d: f.d, world: f.world, dispatch: f.ref, began: f.n === 1, note: f.note }); break
      case 'hang': {
        // (one label may hang twice at once: two resumes of one id loading)
        const key = `${f.world}/${f.note}`
        hanging.set(key, (hanging.get(key) ?? 0) + (f.n === 1 ? 1 : -1))
        break
      }
    }
  }
  const openHangs = new Set([...hanging].filter(([, n]) => n > 0).map(([key]) => key))
  const spanList = [...spans.values()].sort((x, y) => x.start - y.start || y.end - x.end)
  return { present: true, spans, from, subjects, owners, held, stubs, aborts, faults, openHangs, spanList, tails }
}

/** Whether entry `i` was recorded in `span`. */
export function inSpan(span: Span | undefined, i: number): boolean {
  return span !== undefined && span.start <= i && i < span.end
}

/** Whether the fact at `index` was recorded in `span`. */
export function factInSpan(span: Span | undefined, index: number): boolean {
  return span !== undefined && span.factStart <= index && index < span.factEnd
}

/** The spans the fact at `index` was recorded in, outermost first. */
export function spansOfFact(facts: Facts, index: number): Span[] {
  return facts.spanList.filter((s) => factInSpan(s, index)).sort((x, y) => x.factStart - y.factStart || y.factEnd - x.factEnd)
}

/** The spans entry `i` was recorded in, outermost first. */
export function spansAt(facts: Facts, i: number): Span[] {
  const out: Span[] = []
  for (const s of facts.spanList) {
    if (s.start > i) break
    if (i < s.end) out.push(s)
  }
  return out
}

/**
 * The invoke entry of the creation (or stub) that holds the object the operation or edge at entry
 * `i` is about, or undefined when the facts do not say.
 */
export function ownerOf(facts: Facts, i: number): number | undefined {
  const subject = facts.subjects.get(i)
  return subject === undefined ? undefined : facts.owners.get(subject.serial)
}

/**
 * Whether the operation invoked at entry `invoke` was made inside the dispatch recorded at entry
 * `dispatch`: it, or an operation whose synchronous part it ran in, was made from that dispatch.
 */
export function invokedInDispatch(facts: Facts, dispatch: number, invoke: number): boolean {
  if (facts.from.get(invoke)?.ref === dispatch) return true
  return spansAt(facts, invoke).some((span) => span.invoke !== invoke && facts.from.get(span.invoke)?.ref === dispatch)
}

/** The throws that fail a creation after its publication began: the veto edges' listeners (§1.9). */
const VETO_FAULTS: ReadonlySet<string> = new Set(['listener:session/created', 'listener:agent/created'])

/**
 * Where the rollback of `life`'s published creation may have begun, at the latest: the first
 * injected throw about its id after its publication began (a throwing creation listener, minting
 * observer or commit), else undefined (the facts do not say: none was injected, or no facts).
 */
export function rollbackBegan(facts: Facts, life: { readonly world: number; readonly id: string; readonly sessionCreated: { readonly i: number } }): number | undefined {
  return facts.faults.find((f) => f.world === life.world && f.id === life.id && f.at > life.sessionCreated.i && VETO_FAULTS.has(f.note))?.at
}
