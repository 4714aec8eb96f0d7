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
 * @module
 */
import type { Program } from '../../sim/program.js'
import type { Rng } from '../../sim/streams.js'
import { operationSlots } from './mutate.js'

/** One corpus entry. */
export interface CorpusEntry {
  readonly program: Program
  /** The run seed that reached something new with it. */
  readonly r: number
  /** The transitions it reached first. */
  readonly novel: readonly string[]
  /** Times it was drawn as a parent. */
  picked: number
  /** Its operations, nested ones included. */
  readonly size: number
}

/** An entry with its rarity sum cached: Σ 1 / hits(t) over its novel transitions, as last computed. */
interface Kept extends CorpusEntry {
  rarity: number
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
  /** Runs that reached each transition. */
  readonly hits = new Map<string, number>()
  readonly #entries: Kept[] = []
  /**
   * The entry each transition is novel for. A transition is novel for the first seed that reached
   * it only, so this is a function: when a run reaches `t` again, only `owner(t)`'s rarity changes.
   * Caching the rarity keeps a draw O(corpus) arithmetic instead of O(corpus × novel) map lookups
   * (a 1,000,000-run campaign's corpus reaches thousands of entries).
   */
  readonly #owner = new Map<string, Kept>()
  /** The growth curve: one point each time coverage grew. */
  readonly growth: GrowthPoint[] = []
  #runs = 0

  /** @param keep whether programs reaching something new are kept (a guided campaign) or only coverage is counted. */
  constructor(private readonly keep: boolean) {}

  /** Transitions covered so far. */
  get covered(): number {
    return this.hits.size
  }

  get runs(): number {
    return this.#runs
  }

  /**
   * Take one seed's result: its program (when it may enter the corpus), the runs it made and the
   * transitions they reached (a union over its runs).
   */
  take(r: number, program: Program | undefined, runs: number, transitions: readonly string[]): void {
    const novel: string[] = []
    const stale = new Set<Kept>()
    for (const t of transitions) {
      const n = this.hits.get(t)
      if (n === undefined) novel.push(t)
      else {
        const owner = this.#owner.get(t)
        if (owner) stale.add(owner)
      }
      this.hits.set(t, (n ?? 0) + 1)
    }
    for (const e of stale) e.rarity = this.#rarity(e.novel)
    this.#runs += runs
    if (novel.length > 0) this.growth.push({ runs: this.#runs, transitions: this.hits.size })
    if (this.keep && program !== undefined && novel.length > 0) {
      const entry: Kept = { program, r, novel, picked: 0, size: operationSlots(program).length, rarity: this.#rarity(novel) }
      this.#entries.push(entry)
      for (const t of novel) this.#owner.set(t, entry)
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

  #rarity(novel: readonly string[]): number {
    let w = 0
    for (const t of novel) w += 1 / (this.hits.get(t) ?? 1)
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
    for (const t of gone!.novel) if (this.#owner.get(t) === gone) this.#owner.delete(t)
  }
}
