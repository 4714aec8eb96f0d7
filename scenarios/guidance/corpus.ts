/**
 * The corpus of a guided campaign: the programs whose runs reached an abstract transition no
 * earlier run had reached (`state-coverage.ts`), as a coverage-guided fuzzer keeps the inputs that
 * reached new edges. It is fed **in seed order** (by the campaign's ledger), so its contents after
 * seed `j` do not depend on how many workers ran the seeds.
 *
 * Which entry to mutate next is drawn with a weight favouring entries that reached rare
 * transitions and were picked less often (AFLFast's idea): an entry's weight is the sum, over the
 * transitions it first reached, of 1 / (runs that reached that transition), divided by
 * √(1 + times it was picked) and by `1 + operations / 10` (small programs mutate into the precise
 * races; large ones mostly into noise), as they stand at the draw.
 *
 * Transitions are known by their hashes (`transition-table.ts`), in the order the run gave them.
 * @module
 */
import type { Program } from '../../sim/program.js'
import type { Rng } from '../../sim/streams.js'
import { operationSlots } from './mutate.js'
import { TransitionTable } from './transition-table.js'

/** One corpus entry. */
export interface CorpusEntry {
  readonly program: Program
  /** The run seed that reached something new with it. */
  readonly r: number
  /** The transitions it reached first (their hashes). */
  readonly novel: readonly number[]
  /** Times it was drawn as a parent. */
  picked: number
  /** Its operations, nested ones included. */
  readonly size: number
}

/** An entry with its rarity sum cached: Σ 1 / hits(t) over its novel transitions, as last computed. */
interface Kept extends CorpusEntry {
  rarity: number
  /** Its number in the table of owners (entries are numbered as they are kept). */
  readonly serial: number
}

/** Entries kept at most; past it the lowest-weight entry (the oldest among ties) leaves. */
export const MAX_CORPUS = 4096

/** A point of the state-coverage growth curve: after `runs` runs, `transitions` were covered. */
export interface GrowthPoint {
  readonly runs: number
  readonly transitions: number
}

/** The state coverage of a campaign and, when guided, its corpus. */
export class Corpus {
  /** Runs that reached each transition, and the entry each is novel for. */
  readonly #table = new TransitionTable()
  readonly #entries: Kept[] = []
  /**
   * The kept entries by serial. A transition is novel for the first seed that reached it only, so
   * its owner is a function: when a run reaches `t` again, only `owner(t)`'s rarity changes.
   * Caching the rarity keeps a draw O(corpus) arithmetic instead of O(corpus × novel) lookups (a
   * 1,000,000-run campaign's corpus reaches thousands of entries).
   */
  readonly #live = new Map<number, Kept>()
  #serial = 0
  /** The growth curve: one point each time coverage grew. */
  readonly growth: GrowthPoint[] = []
  #runs = 0

  /** @param keep whether programs reaching something new are kept (a guided campaign) or only coverage is counted. */
  constructor(private readonly keep: boolean) {}

  /** Transitions covered so far. */
  get covered(): number {
    return this.#table.size
  }

  get runs(): number {
    return this.#runs
  }

  /** Runs that reached the transition with hash `key` so far. */
  hits(key: number): number {
    return this.#table.hits(key)
  }

  /**
   * Take one seed's result: its program (when it may enter the corpus; a function is called only
   * when it does), the runs it made and the hashes of the transitions they reached (a union over
   * its runs, in a fixed order).
   */
  take(r: number, program: Program | (() => Program) | undefined, runs: number, transitions: ArrayLike<number>): void {
    const novel: number[] = []
    const stale = new Set<Kept>()
    const table = this.#table
    for (let i = 0; i < transitions.length; i++) {
      const t = transitions[i]!
      if (table.hit(t) === 0) novel.push(t)
      else {
        const owner = table.owner(t)
        if (owner >= 0) stale.add(this.#live.get(owner)!)
      }
    }
    for (const e of stale) e.rarity = this.#rarity(e.novel)
    this.#runs += runs
    if (novel.length > 0) this.growth.push({ runs: this.#runs, transitions: table.size })
    if (this.keep && program !== undefined && novel.length > 0) {
      const kept = typeof program === 'function' ? program() : program
      const entry: Kept = { program: kept, r, novel, picked: 0, size: operationSlots(kept).length, rarity: this.#rarity(novel), serial: this.#serial++ }
      this.#entries.push(entry)
      this.#live.set(entry.serial, entry)
      for (const t of novel) table.setOwner(t, entry.serial)
      if (this.#entries.length > MAX_CORPUS) this.#evict()
    }
  }

  /** The kept entries, oldest first. */
  get entries(): readonly CorpusEntry[] {
    return this.#entries
  }

  /** Draw a parent (weighted), or `undefined` when the corpus is empty. */
  choose(rng: Rng): CorpusEntry | undefined {
    const entries = this.#entries
    if (entries.length === 0) return undefined
    const weights = entries.map((e) => this.#weight(e))
    let x = rng.float() * weights.reduce((a, b) => a + b, 0)
    let chosen = entries[entries.length - 1]!
    for (let i = 0; i < entries.length; i++) {
      x -= weights[i]!
      if (x < 0) {
        chosen = entries[i]!
        break
      }
    }
    chosen.picked++
    return chosen
  }

  /** Covered transitions after `runs` runs (the growth curve read at that point). */
  coveredAt(runs: number): number {
    let covered = 0
    for (const p of this.growth) {
      if (p.runs > runs) break
      covered = p.transitions
    }
    return covered
  }

  #rarity(novel: readonly number[]): number {
    let w = 0
    for (const t of novel) w += 1 / (this.#table.hits(t) || 1)
    return w
  }

  #weight(e: Kept): number {
    return e.rarity / Math.sqrt(1 + e.picked) / (1 + e.size / 10)
  }

  #evict(): void {
    let worst = 0
    let lowest = Number.POSITIVE_INFINITY
    this.#entries.forEach((e, i) => {
      const w = this.#weight(e)
      if (w < lowest) {
        lowest = w
        worst = i
      }
    })
    const [gone] = this.#entries.splice(worst, 1)
    this.#live.delete(gone!.serial)
    for (const t of gone!.novel) if (this.#table.owner(t) === gone!.serial) this.#table.setOwner(t, -1)
  }
}
