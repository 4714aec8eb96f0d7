/**
 * What the checkers declined to judge, counted per clause (issue "checkers without blind spots").
 * A checker *judges* a unit (a lifecycle, a turn, a message at a probe, a splice, an operation) when
 * it reaches its verdict on it, pass or violation, and *declines* it when the trace cannot say
 * whether the clause held there. Every decline has a reason of {@link REASONS}; a reason the contract
 * itself leaves open starts with `§` (it names the section), any other is a blind spot of the kit
 * (a fact the trace lacks). `README.md` lists every decline path (rows D1–D70) and the reason each
 * counts under.
 *
 * Counting is per run: a clause is *reached* in a run when one of its units was judged or declined
 * there, *judged* when one was judged, and declined for a reason when one was declined for it. A
 * clause none of whose checks has a decline path judges every run whole: its `judged` is the number
 * of runs.
 * @module
 */
import { CHECKED_CLAUSES, clauseKeyOf } from './violation.js'

/** Why a checker declined a unit. */
export interface DeclineReason {
  /** Position in {@link REASONS} (its cell in a tally). */
  readonly index: number
  /** What the report prints: `§…` when the contract leaves it open, else the fact the trace lacks. */
  readonly key: string
  /** The decline rows of `README.md` it counts (`D1`…). */
  readonly rows: readonly string[]
}

function reasons<K extends string>(table: Record<K, readonly [string, readonly string[]]>): Record<K, DeclineReason> {
  const out = {} as Record<K, DeclineReason>
  let index = 0
  for (const name of Object.keys(table) as K[]) {
    const [key, rows] = table[name]
    out[name] = { index: index++, key, rows }
  }
  return out
}

/** Every reason a checker may decline for, by name. */
export const R = reasons({
  stubEdge: ['F1 whether a registry edge is a stub\'s or a lifecycle\'s', ['D1', 'D2', 'D12']],
  publisher: ['F1 which of several same-id creations published', ['D3', 'D4', 'D5', 'D67', 'D70']],
  noCreation: ['F1 no creation in flight published the lifecycle', ['D5']],
  drivenFrom: ['F2 which dispatch an inline operation came from', ['D7']],
  lateOutcome: ['F11 which process a late outcome\'s snapshot shows', ['D8', 'D13']],
  storeOwner: ['F1 which creation\'s session the store holds', ['D10', 'D11']],
  disposedHandle: ['F1 which creation a dispose\'s handle belongs to', ['D15', 'D35']],
  unregisteredInbox: ['F1 the inbox of a session with no registered agent', ['D16']],
  calledAgent: ['F1 which agent object an operation called', ['D17', 'D31']],
  whenIdleSettled: ['F5 when a whenIdle() promise settled', ['D18', 'D19']],
  rollbackStart: ['F4 where the rollback of a published creation began', ['D20', 'D27', 'D29', 'D46', 'D57', 'D58']],
  sentAfterTeardown: ['§12 Q3 sent after the teardown began', ['D20', 'D21', 'D45', 'D46']],
  teardownReach: ['F3 where the teardown\'s disposed abort reached the agent', ['D21', 'D29', 'D33', 'D45', 'D53', 'D56', 'D61']],
  publishingSplice: ['F2 whether the cancel ran inside the splice\'s observer', ['D22']],
  spliceCause: ['F2 which operation\'s synchronous part appended the splice', ['D23', 'D24', 'D25', 'D26']],
  wakeSpan: ['F2 whether the status was emitted inside the quiet send', ['D30']],
  creationSettled: ['F5 when a creation promise settled (its last liveness check)', ['D32']],
  loadServed: ['F8 which resume a persistence load served', ['D34', 'D37']],
  backgroundTeardown: ['F9 when a failed creation\'s provisional scope finished unwinding', ['D36']],
  crashedWait: ['F6 what a crashed unload was waiting on', ['D38']],
  injectedHang: ['F7 whether the operation is parked at an injected hang', ['D39', 'D40', 'D66']],
  entered: ['§3.5 row L an entered agent never announced (a same-id loser)', ['D43']],
  idleSampled: ['F12 whenIdle() asked only where a check needs it', ['D44']],
  exitGap: ['§12 Q7 sent while the driver had no turn open', ['D51']],
  requestSpan: ['F2 which request\'s synchronous part opened or aborted the turn', ['D52', 'D55', 'D60']],
  cancelThrew: ['§7.3 the first cancel threw', ['D54']],
  listenerTail: ['F10 when a turn-stopping listener\'s async tail ended', ['D59']],
  stopCheck: ['§10.1 the stop check ran in the same step as the request', ['D60']],
  sentToDisposed: ['§12 Q3 sent to a disposed agent through a kept handle', ['D62']],
  preparationCrashed: ['§1.4 a crashed process releases nothing', ['D63']],
  preparationHeld: ['F8 which resume a preparation serves (one of its id never settled)', ['D63']],
  flushDispatch: ['F2 which flush a session/flush dispatch belongs to', ['D64']],
  flushTail: ['F10 when a session/flush listener\'s async tail ended', ['D64']],
  joinedUnload: ['§8 a boundary awaiting a process unload another chain started (disposal memoized)', ['D69']],
  noFacts: ['no facts recorded (a trace without them)', []],
})

/** Reasons in cell order. */
export const REASONS: readonly DeclineReason[] = Object.values(R)

/**
 * The clauses whose checks have decline paths: their `judged` counts the runs in which a unit was
 * judged. Every other checked clause is judged in every run.
 */
export const INSTRUMENTED_CLAUSES: readonly number[] = [
  11, 16, 19, 20, 24, 27, 31, 36, 40, 43, 45, 46, 50, 55, 56, 57, 60, 61, 65, 67, 68, 74, 76, 79, 87, 95, 96, 97, 98, 99, 103, 107,
  111, 114, 121, 122, 123, 137, 148, 149, 156, 157, 159, 163, 165,
]

/** What the checkers tell about each unit they judge or decline. */
export interface Declines {
  /** A unit of `clause` was judged (its verdict reached, pass or violation). */
  judged(clause: number): void
  /** A unit of `clause` was declined for `reason`. */
  declined(clause: number, reason: DeclineReason): void
}

/** Counts nothing (replay, explain, shrinking, tests). */
export const NO_DECLINES: Declines = { judged() {}, declined() {} }

/** Highest clause number a tally has room for. */
const MAX_CLAUSE = 199
/** Cells per clause: judged, then one per reason. */
const WIDTH = REASONS.length + 1

/**
 * Marks what one run judged and declined, per clause and reason, without allocating per call;
 * {@link takeRun} hands the run's cells over (sorted cell numbers, structured-cloneable) and resets.
 */
export class DeclineTally implements Declines {
  readonly #flags = new Uint8Array((MAX_CLAUSE + 1) * WIDTH)
  #touched: number[] = []

  judged(clause: number): void {
    this.#mark(clause * WIDTH)
  }

  declined(clause: number, reason: DeclineReason): void {
    this.#mark(clause * WIDTH + 1 + reason.index)
  }

  #mark(cell: number): void {
    if (this.#flags[cell] === 1) return
    this.#flags[cell] = 1
    this.#touched.push(cell)
  }

  /** The cells the run marked, in order, and a fresh start for the next run. */
  takeRun(): number[] {
    const cells = this.#touched
    for (const cell of cells) this.#flags[cell] = 0
    this.#touched = []
    return cells.sort((x, y) => x - y)
  }
}

/** One clause's counts over a campaign or certification. */
export interface ClauseDeclines {
  /** Runs in which one of its units was judged. */
  readonly judged: number
  /** Runs in which one of its units was judged or declined (the runs that reached its shape). */
  readonly reached: number
  /** Per reason, the runs in which a unit was declined for it. */
  readonly declined: Readonly<Record<string, number>>
  /** Runs in which a unit was declined, for any reason. */
  readonly declinedRuns: number
  /** Runs in which a unit was declined for a reason that is not the contract's (a blind spot). */
  readonly blind: number
}

/** Whether a reason is the contract's (it leaves the shape open). */
export function contractReason(key: string): boolean {
  return key.startsWith('§')
}

/** Per cell slot (0: judged, then one per reason), 1 when it is a decline for a reason that is not the contract's. */
const BLIND_SLOT = Uint8Array.from({ length: WIDTH }, (_, slot) => (slot > 0 && !contractReason(REASONS[slot - 1]!.key) ? 1 : 0))

/**
 * Sums the cells of many runs (in any order: the sums do not depend on it). Counts live in flat
 * integer arrays indexed by cell and by clause: a campaign's feeding thread adds every run's cells,
 * mostly in V8's baseline code, where a count read as a double would be allocated on the heap.
 */
export class DeclineCounts {
  runs = 0
  readonly #cells = new Int32Array((MAX_CLAUSE + 1) * WIDTH)
  readonly #reached = new Int32Array(MAX_CLAUSE + 1)
  readonly #any = new Int32Array(MAX_CLAUSE + 1)
  readonly #blind = new Int32Array(MAX_CLAUSE + 1)

  /** Add one run's cells (from {@link DeclineTally.takeRun}: sorted, so a clause's cells are together). */
  addRun(cells: readonly number[]): void {
    this.runs++
    let clause = -1
    let any = 0
    let blind = 0
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]!
      const c = Math.floor(cell / WIDTH)
      if (c !== clause) {
        if (clause >= 0) this.#close(clause, any, blind)
        clause = c
        any = blind = 0
      }
      const slot = cell - c * WIDTH
      if (slot > 0) any = 1
      blind |= BLIND_SLOT[slot]!
      this.#cells[cell]!++
    }
    if (clause >= 0) this.#close(clause, any, blind)
  }

  #close(clause: number, any: number, blind: number): void {
    this.#reached[clause]!++
    this.#any[clause]! += any
    this.#blind[clause]! += blind
  }

  /** One clause's counts (a clause without decline paths is judged in every run). */
  of(clause: number): ClauseDeclines {
    if (!INSTRUMENTED_CLAUSES.includes(clause)) return { judged: this.runs, reached: this.runs, declined: {}, declinedRuns: 0, blind: 0 }
    const declined: Record<string, number> = {}
    for (const r of REASONS) {
      const n = this.#cells[clause * WIDTH + 1 + r.index]
      if (n) declined[r.key] = n
    }
    return {
      judged: this.#cells[clause * WIDTH] ?? 0, reached: this.#reached[clause] ?? 0, declined,
      declinedRuns: this.#any[clause] ?? 0, blind: this.#blind[clause] ?? 0,
    }
  }
}

/** A clause that reached its shape and was declined every time: the report must not call it passed. */
export function unjudged(c: ClauseDeclines): boolean {
  return c.reached > 0 && c.judged === 0
}

/**
 * `judged in 40 of 52 runs, declined in 12 (F2 …: 10; §12 Q7 …: 2)`, reasons most frequent first;
 * '' for a clause that declined nothing.
 */
export function describeDeclines(c: ClauseDeclines, max = 3): string {
  const reasons = Object.entries(c.declined).sort((x, y) => y[1] - x[1])
  if (reasons.length === 0) return ''
  const shown = reasons.slice(0, max).map(([k, n]) => `${k}: ${n}`)
  const more = reasons.length > max ? `; and ${reasons.length - max} more` : ''
  return `judged in ${c.judged} of ${c.reached} runs that reached it, declined in ${c.declinedRuns} (${shown.join('; ')}${more})`
}

/** One checked clause's counts as a report lists them. */
export interface ClauseTally extends ClauseDeclines {
  /** `"<group> <clause>"`, as violations name it. */
  readonly key: string
}

/** Every checked clause's counts, in clause order (a `clauses` list of a fuzz or run report). */
export function clauseTallies(counts: DeclineCounts): ClauseTally[] {
  return CHECKED_CLAUSES.map((clause) => ({ key: clauseKeyOf(clause), ...counts.of(clause) }))
}
