/**
 * The trace: a run's history (design.md concept 4). Every decision, every operation's invoke and
 * outcome, every bus event and session append, each with a snapshot of both registries.
 * Versioned JSON, a stable hash, and a one-line-per-event text rendering.
 *
 * @module
 */
import { createRequire } from 'node:module'
import type { Decision } from './decision-log.js'
import type { Operation } from '../program/program.js'

/** The trace format version. */
export const TRACE_VERSION = 1

/** Both registries at one moment: live agent ids and live session ids, in enter order. */
export interface Snapshot {
  readonly agents: readonly string[]
  readonly sessions: readonly string[]
}

/** An inbox projection by message id. */
export interface InboxSnapshot {
  readonly nextTurn: readonly string[]
  readonly nextStep: readonly string[]
}

/** One entry of a trace. `i` is its index; `d` the number of decisions taken before it. */
export type TraceEntry =
  | {
      k: 'invoke'; i: number; d: number; actor: string; op: number; what: string; world: number
      /** The operation as the program states it. */
      spec: Operation
      /** For create/resume: the transaction id that marks and outcomes share. */
      tx?: string
      /** For create/resume: the owner fiber name, or `agent:<id>` for a parent create. */
      owner?: string
    }
  | {
      k: 'outcome'; i: number; d: number; actor: string; op: number; what: string; status: 'ok' | 'fail' | 'info'; detail: string; world: number
      snap: Snapshot
      tx?: string
    }
  | {
      k: 'event'; i: number; d: number; name: string; id: string; detail: string; snap: Snapshot; world: number
      /**
       * Emitted by an agent after its own `agent/disposed` (a detached agent still running): it belongs
       * to no live lifecycle, even when a successor with the same id is live.
       */
      stale?: true
      /** The payload's agent is not the registered agent object (§1.9). On `agent/created` and `agent/session-start` only. */
      alias?: true
      /** On `agent/inbox/*` events whose payload names no message id: what it carried instead (`detail` then has no id). */
      noMessageId?: string
      /** About a stub agent the program entered directly (`enter`): its registry edges belong to no lifecycle. */
      stub?: true
      /**
       * A `stale` event that came after the program sent to the disposed agent through a kept handle
       * (an input operation with `handle`): what follows such a send is unspecified (§12 Q3).
       */
      sentAfterDisposal?: true
    }
  | {
      k: 'append'; i: number; d: number; id: string; seq: number; type: string; data: unknown; snap: Snapshot; world: number
      /** For `agent/inbox/spliced`: the live projection just before the splice is applied (§6.3). */
      inbox?: InboxSnapshot
    }
  /** A session published with history (resumed or seeded): its durable log and restored inbox at `session/created`. */
  | {
      k: 'resumed'; i: number; d: number; id: string; inbox: InboxSnapshot; events: readonly { type: string; seq: number; data: unknown }[]; world: number
      /** The restored header, recorded for a session the program persisted with header fields (`env.persisted[].header`). */
      header?: Readonly<Record<string, unknown>>
    }
  | { k: 'warn'; i: number; d: number; message: string; world: number }
  | {
      k: 'mark'; i: number; d: number; label: string; world: number
      /** The transaction (create/resume invocation) the mark belongs to, if any. */
      tx?: string
      /** The session id the mark is about, if any. */
      id?: string
    }
  | {
      k: 'final'; i: number; d: number; world: number; snap: Snapshot
      /**
       * Sessions that grew after they left the store (an append after teardown resolved, §5.3); `sent`
       * is the length when the program first sent to the disposed agent through a kept handle (what
       * follows that send is unspecified, §12 Q3).
       */
      late: readonly { id: string; detached: number; final: number; sent?: number }[]
    }

/** What a quiescence probe saw of one live agent, through its public surface. */
export interface ProbeAgent {
  readonly id: string
  /** `agent.status` as it read. */
  readonly status: string
  /**
   * For an agent reading `idle`: whether a `whenIdle()` of it had settled by the end of the probe
   * (identity-following, §7.5). Asked only where a check needs it — when it has pending input or
   * a turn its log leaves open, and at the run's last probe — and absent otherwise.
   */
  readonly idle?: boolean
  /** A maintenance task the program started on it is still running (its status then reads `idle`, §7.6). */
  readonly maintenance?: true
  /** A `whenIdle()` called in this probe while the agent read `running` settled within the probe (§7.4). */
  readonly idleWhileRunning?: true
  /** `agent.inbox.nextTurn` by message id, when not empty. */
  readonly nextTurn?: readonly string[]
  /** `agent.inbox.nextStep` by message id, when not empty. */
  readonly nextStep?: readonly string[]
}

/**
 * The state of the process at a quiescent point: after the scheduler let the process settle (every
 * microtask and immediate run, every actor waiting at a scheduling point or blocked), before its
 * next decision; the last one of a run is its end state. Probes read only the public contract, so
 * they work for foreign processes too. They are kept beside the entries, not among them, and are not
 * part of the trace hash: the entries of a run stay what they were before probes existed.
 */
export interface QuiescentProbe {
  /** Entries recorded before the probe: it sees the state after entry `at - 1`. */
  readonly at: number
  /** Decisions taken before it. */
  readonly d: number
  readonly world: number
  /** The run's last probe: its end state (nothing is pending and no timer waits). */
  readonly last?: true
  /** Every live agent (`ctx.agents.list()`), except stubs the program registered. */
  readonly agents: readonly ProbeAgent[]
  /** Live sessions whose persisted log (the disk) differs in length from `session.events`. */
  readonly logs?: readonly { readonly id: string; readonly live: number; readonly stored: number | null }[]
  /** Agents of handles the program holds that have left the registry and do not read `idle` (§1.5). */
  readonly detached?: readonly { readonly id: string; readonly status: string }[]
}

/**
 * What a fact says (see {@link Fact}):
 * - `sync`: operation `op`'s synchronous part recorded entries `ref` up to `at` (exclusive), and the
 *   facts from the `n`th up to this one;
 * - `from`: the inline operation `op` was made from the dispatch of entry `ref` (-1: not a dispatch
 *   the world recorded), by `note` (`listener`, `abort`, `commit`, `disposer`, `minting`, `tool`);
 * - `own`: the creation or stub of invoke `op` holds agent object `n` and session object `ref`
 *   (serials), as `note` saw it (`setup`: the setup's `agentCtx`, `handle`: the resolved handle,
 *   `stub`: a stub the program registered or entered);
 * - `subject`: entry `ref` (a registry edge, or an operation's invoke) is about object `n`;
 * - `abort`: the activity signal `n` of agent `id` aborted here; `note` is `<where seen>:<reason kind>`,
 *   with `:before` when it was already aborted when first seen;
 * - `hang`: an injected hang `note` of `id` began (`n` 1) or was left by an abort (`n` 0);
 * - `tail`: a listener's asynchronous tail (`slow`, `reject`, `wait`) of the dispatch of entry `ref`
 *   (or -1) about `id` began (`n` 1, at its listener's mark) or ended (`n` 0, where its promise
 *   settles); `note` is the listener's label;
 * - `fault`: an injected throw `note` (a listener's, a minting observer's, a commit's) about `id`
 *   was raised here, in the dispatch of entry `ref` (or -1), or in the commit of creation `op`: a
 *   creation it fails begins its rollback here.
 */
export type FactKind = 'sync' | 'from' | 'own' | 'subject' | 'abort' | 'hang' | 'fault' | 'tail'

/**
 * A fact the world knew and the entries do not say, kept beside them (like the probes: out of the
 * trace hash and the rendering). One shape for every kind, every key always present (-1 or '' when
 * unused), so the engine keeps one hidden class for them.
 */
export interface Fact {
  readonly k: FactKind
  /** Entries recorded before it: it sits between entry `at - 1` and entry `at`. */
  readonly at: number
  /** Decisions taken before it. */
  readonly d: number
  readonly world: number
  /** The invoke entry of the operation it is about, or -1. */
  readonly op: number
  /** A second entry index or serial (kind-specific), or -1. */
  readonly ref: number
  /** An object serial or a count (kind-specific), or -1. */
  readonly n: number
  /** The session id it is about, or ''. */
  readonly id: string
  /** Kind-specific text, or ''. */
  readonly note: string
}

/** Distributes `Omit` over a union. */
type DistributiveOmit<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never

/** An entry before the recorder numbers it. */
export type NewEntry = DistributiveOmit<TraceEntry, 'i' | 'd'>

/** A run's trace. */
export interface Trace {
  readonly v: typeof TRACE_VERSION
  readonly entries: readonly TraceEntry[]
  /** The quiescence probes of the run, in order (absent in traces recorded without them). */
  readonly probes?: readonly QuiescentProbe[]
  /** The facts of the run, in order (absent in traces recorded without them: the checkers then decline what they decide). */
  readonly facts?: readonly Fact[]
}

/** Trace entries a run may record: honest runs record a few hundred; a runaway is ended long before memory runs out. */
export const DEFAULT_MAX_TRACE_ENTRIES = 200_000

/** Appends entries, numbering them and stamping the current decision count. */
export class TraceRecorder {
  readonly entries: TraceEntry[] = []
  #overflow: string | undefined
  readonly probes: QuiescentProbe[] = []
  readonly facts: Fact[] = []

  /**
   * @param decisions how many decisions the run has taken so far (stamped on each entry).
   * @param maxEntries the cap: past it entries are dropped and {@link overflow} says so (a runaway
   *   run must not exhaust memory before the scheduler can end it as a livelock).
   * @param recordFacts whether the world records {@link Fact}s (and watches what they need);
   *   off, a run records the same entries and no fact.
   */
  constructor(private readonly decisions: () => number = () => 0, private readonly maxEntries = DEFAULT_MAX_TRACE_ENTRIES, readonly recordFacts = true) {}

  /** Why the trace stopped recording (it outgrew its cap), if it did. */
  get overflow(): string | undefined {
    return this.#overflow
  }

  /** Append `entry`, which the recorder takes over: callers pass a fresh object literal. */
  add(entry: NewEntry): void {
    if (this.entries.length >= this.maxEntries) {
      this.#overflow ??= `the trace outgrew its cap of ${this.maxEntries} entries at decision ${this.decisions()}`
      return
    }
    // Numbered in place (no copy): `i` and `d` still come last, so the JSON and the hash are as before.
    const numbered = entry as TraceEntry
    numbered.i = this.entries.length
    numbered.d = this.decisions()
    this.entries.push(numbered)
  }

  /** Record a `mark`: an interesting state reached (scenario "sometimes" goals use them). */
  mark(label: string, world: number, meta: { tx?: string; id?: string } = {}): void {
    // Every key always present (undefined when absent: the JSON leaves it out): one object shape per kind.
    this.add({ k: 'mark', label, world, tx: meta.tx, id: meta.id })
  }

  /** Record a quiescence probe, which the recorder takes over, stamped with the entries and decisions so far. */
  probe(probe: Omit<QuiescentProbe, 'at' | 'd'>): void {
    const stamped = probe as { -readonly [K in keyof QuiescentProbe]: QuiescentProbe[K] }
    // Stamped in place, like entries (no copy); at and d come last in its JSON.
    stamped.at = this.entries.length
    stamped.d = this.decisions()
    this.probes.push(stamped)
  }

  /**
   * Record a fact (see {@link Fact}), stamped with the entries and decisions so far. Positional, so
   * every fact is built with its keys in one order; capped like the entries, counted apart.
   */
  fact(k: FactKind, world: number, op: number, ref: number, n: number, id: string, note: string): void {
    if (!this.recordFacts || this.facts.length >= this.maxEntries) return
    this.facts.push({ k, at: this.entries.length, d: this.decisions(), world, op, ref, n, id, note })
  }

  toTrace(): Trace {
    return this.recordFacts ? { v: TRACE_VERSION, entries: this.entries, probes: this.probes, facts: this.facts } : { v: TRACE_VERSION, entries: this.entries, probes: this.probes }
  }
}

let cryptoModule: typeof import('node:crypto') | undefined

/**
 * node:crypto, loaded on first use: most threads that load this module never hash a trace, and
 * loading it cost each one about 5 ms of its start.
 */
function nodeCrypto(): typeof import('node:crypto') {
  return (cryptoModule ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'))
}

/**
 * A stable hash of a trace (sha256 of the JSON of its version and entries, first 16 hex digits). Entries are built with a
 * fixed key order and event data is a frozen snapshot built in a fixed order, so plain
 * `JSON.stringify` is already canonical for the same code; sorting keys cost a third of a run.
 */
export function traceHash(trace: Trace): string {
  const { createHash } = nodeCrypto()
  // The probes are left out: a run's hash is that of its entries, as before probes existed.
  return createHash('sha256').update(JSON.stringify({ v: trace.v, entries: trace.entries })).digest('hex').slice(0, 16)
}

const GLYPHS: Record<TraceEntry['k'], string> = {
  invoke: '+', outcome: '=', event: '*', append: '.', resumed: '^', warn: '!', mark: '#', final: '$',
}

function snap(s: Snapshot): string {
  return `agents=[${s.agents.join(',')}] sessions=[${s.sessions.join(',')}]`
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? ''
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/** One fixed-width line for an entry, TigerBeetle-style: diffable across runs. */
export function renderEntry(e: TraceEntry): string {
  const head = `#${String(e.i).padStart(4, '0')} d${String(e.d).padStart(3, '0')} w${'world' in e ? e.world : 0} ${GLYPHS[e.k]}`
  switch (e.k) {
    case 'invoke': return `${head} ${e.actor.padEnd(6)} invoke   ${e.what}`
    case 'outcome': return `${head} ${e.actor.padEnd(6)} ${e.status.padEnd(8)} ${e.what} ${e.detail} ${snap(e.snap)}`
    case 'event': return `${head} ${''.padEnd(6)} event    ${e.name} ${e.id} ${e.detail} ${snap(e.snap)}${e.stale ? ' (from the detached agent)' : ''}${e.alias ? ' (not the registered agent object)' : ''}${e.stub ? ' (a stub the program entered)' : ''}`
    case 'append': return `${head} ${''.padEnd(6)} append   ${e.id}#${e.seq} ${e.type} ${short(e.data)}`
    case 'resumed': return `${head} ${''.padEnd(6)} resumed  ${e.id} next-turn=[${e.inbox.nextTurn.join(',')}] next-step=[${e.inbox.nextStep.join(',')}]`
    case 'warn': return `${head} ${''.padEnd(6)} warn     ${e.message}`
    case 'mark': return `${head} ${''.padEnd(6)} mark     ${e.label}`
    case 'final': return `${head} ${''.padEnd(6)} final    ${snap(e.snap)}${e.late.length ? ` late=${short(e.late)}` : ''}`
  }
}

/**
 * The whole trace as text, one line per entry; with the run's decisions, each `pick` and `time`
 * decision is printed where it was taken (entries carry the decision count `d`).
 */
export function renderTrace(trace: Trace, decisions: readonly Decision[] = []): string {
  const lines: string[] = []
  let next = 0
  const flush = (upTo: number): void => {
    for (; next < upTo && next < decisions.length; next++) {
      const d = decisions[next]!
      const what = d.kind === 'pick' ? `pick     ${d.label}` : d.kind === 'time' ? `time     ${d.at}ms` : `random   ${d.value}/${d.n}`
      lines.push(`      d${String(next).padStart(3, '0')}    >        ${what}`)
    }
  }
  for (const entry of trace.entries) {
    flush(entry.d)
    lines.push(renderEntry(entry))
  }
  flush(decisions.length)
  return lines.join('\n')
}
