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
  readonly entries: CorpusEntry[] = []
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
    for (const t of transitions) {
      const n = this.hits.get(t)
      if (n === undefined) novel.push(t)
      this.hits.set(t, (n ?? 0) + 1)
    }
    this.#runs += runs
    if (novel.length > 0) this.growth.push({ runs: this.#runs, transitions: this.hits.size })
    if (this.keep && program !== undefined && novel.length > 0) {
      this.entries.push({ program, r, novel, picked: 0, size: operationSlots(program).length })
      if (this.entries.length > MAX_CORPUS) this.#evict()
    }
  }

  /** Draw a parent (weighted), or `undefined` when the corpus is empty. */
  choose(rng: Rng): CorpusEntry | undefined {
    if (this.entries.length === 0) return undefined
    const weights = this.entries.map((e) => this.#weight(e))
    let x = rng.float() * weights.reduce((a, b) => a + b, 0)
    let chosen = this.entries[this.entries.length - 1]!
    for (let i = 0; i < this.entries.length; i++) {
      x -= weights[i]!
      if (x < 0) {
        chosen = this.entries[i]!
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

  #weight(e: CorpusEntry): number {
    let w = 0
    for (const t of e.novel) w += 1 / (this.hits.get(t) ?? 1)
    return w / Math.sqrt(1 + e.picked) / (1 + e.size / 10)
  }

  #evict(): void {
    let worst = 0
    let lowest = Number.POSITIVE_INFINITY
    this.entries.forEach((e, i) => {
      const w = this.#weight(e)
      if (w < lowest) {
        lowest = w
        worst = i
      }
    })
    this.entries.splice(worst, 1)
  }
}
