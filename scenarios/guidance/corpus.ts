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
 * Weights live in a `WeightTree` (`weight-tree.ts`), so a draw and an eviction cost O(log corpus),
 * and an entry's rarity is kept up to date term by term as runs reach its transitions again.
 * @module
 */
import type { Program } from '../../sim/program/program.js'
import type { Rng } from '../../sim/streams.js'
import { operationSlots } from './op-slots.js'
import { GrowthCurve } from './growth-curve.js'
import type { GrowthPoint } from './growth-curve.js'
import { MAX_TRANSITIONS, TransitionTable } from './transition-table.js'
import { WeightTree } from './weight-tree.js'

export type { GrowthPoint }

/** One corpus entry; `P` is how the corpus holds its program (a guided campaign keeps it serialized). */
export interface CorpusEntry<P = Program> {
  readonly program: P
  /** The run seed that reached something new with it. */
  readonly r: number
  /** The transitions it reached first (their hashes). */
  readonly novel: readonly number[]
  /** Times it was drawn as a parent. */
  picked: number
  /** Its operations, nested ones included. */
  readonly size: number
}

/** A kept entry (its rarity and stamp live in the corpus's arrays, by slot). */
interface Kept<P> extends CorpusEntry<P> {
  /** Entries are numbered as they are kept: its age. */
  readonly serial: number
  /** Its slot in the weight tree, and its number in the table of owners. */
  readonly slot: number
}

/** Entries kept at most; past it the lowest-weight entry (the oldest among ties) leaves. */
export const MAX_CORPUS = 4096

/** The state coverage of a campaign and, when guided, its corpus of programs (held as `P`). */
export class Corpus<P = Program> {
  /** Runs that reached each transition, and the entry each is novel for. */
  readonly #table: TransitionTable
  readonly #entries: Kept<P>[] = []
  /** Each kept entry's weight, by slot. */
  readonly #weights: WeightTree
  /**
   * The entry in each slot. A transition's owner in the table is the slot of the entry it is novel
   * for: a transition is novel for the first seed that reached it only, so when a run reaches `t`
   * again only `owner(t)`'s rarity changes, by one term, and a seed's result costs O(its
   * transitions) whatever the corpus holds (a 1,000,000-run campaign's corpus reaches thousands of
   * entries). A slot is reused only after eviction has cleared every transition it owned.
   */
  readonly #bySlot: (Kept<P> | undefined)[]
  /** Free slots, the lowest on top. */
  readonly #free: number[]
  #serial = 0
  /** Seeds taken, and the entries the current take changed (see {@link take}). */
  #takes = 0
  /** Per transition of the seed being taken: runs that reached it before, and its owner (see `TransitionTable.hitAll`). */
  #before = new Uint32Array(256)
  #owners = new Int32Array(256)
  /**
   * By slot: the entry's rarity sum, Σ 1 / hits(t) over its novel transitions, kept current, the
   * last take that changed it, and what else its weight is made of (times picked, operations, age:
   * copies of the entry's fields). In flat arrays rather than on the entries: a seed's result
   * reweighs tens of them, and the feeding thread wakes with caches the workers have filled, so
   * each entry object reached was a cache miss.
   */
  readonly #rarity: Float64Array
  readonly #stamps: Uint32Array
  readonly #picked: Float64Array
  readonly #sizes: Float64Array
  readonly #ages: Float64Array
  /** Slots whose rarity the current take changed, and the novel transitions it found (reused). */
  #stale = new Int32Array(256)
  readonly #novel: number[] = []
  /** The growth curve: one point each time coverage grew. */
  readonly #growth = new GrowthCurve()
  #runs = 0
  #fullSince: number | undefined

  /**
   * @param keep whether programs reaching something new are kept (a guided campaign) or only coverage is counted.
   * @param capacity entries kept at most (default {@link MAX_CORPUS}).
   * @param sizeOf a program's operations, nested ones included (for a `Program`, its operation slots).
   * @param maxTransitions transitions counted at most (see `TransitionTable`; default {@link MAX_TRANSITIONS}).
   */
  constructor(
    private readonly keep: boolean, private readonly capacity = MAX_CORPUS,
    private readonly sizeOf: (program: P) => number = (program) => operationSlots(program as Program).length,
    maxTransitions = MAX_TRANSITIONS,
  ) {
    this.#table = new TransitionTable(maxTransitions)
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`Corpus capacity must be a positive integer, got ${capacity}`)
    // One slot more than the capacity: an entry is kept before the lowest one leaves.
    const slots = keep ? capacity + 1 : 1
    this.#weights = new WeightTree(slots)
    this.#rarity = new Float64Array(slots)
    this.#stamps = new Uint32Array(slots)
    this.#picked = new Float64Array(slots)
    this.#sizes = new Float64Array(slots)
    this.#ages = new Float64Array(slots)
    this.#bySlot = new Array<Kept<P> | undefined>(slots).fill(undefined)
    this.#free = Array.from({ length: slots }, (_, i) => slots - 1 - i)
  }

  /** Transitions covered so far. */
  get covered(): number {
    return this.#table.size
  }

  get runs(): number {
    return this.#runs
  }

  /**
   * The runs taken when the table of transitions filled (it holds {@link MAX_TRANSITIONS}), or
   * `undefined`: from then on a transition not covered yet is not counted and keeps no program.
   */
  get fullSince(): number | undefined {
    return this.#fullSince
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
  take(r: number, program: P | (() => P) | undefined, runs: number, transitions: ArrayLike<number>): void {
    const novel = this.#novel
    novel.length = 0
    const stamp = ++this.#takes
    const table = this.#table
    const n = transitions.length
    if (this.#before.length < n) {
      this.#before = new Uint32Array(2 * n)
      this.#owners = new Int32Array(2 * n)
      this.#stale = new Int32Array(2 * n)
    }
    const befores = this.#before
    const owners = this.#owners
    const rarity = this.#rarity
    const stamps = this.#stamps
    // Slots whose rarity changed, each once (marked with this take's number): a seed's result
    // reaches tens of transitions again, mostly owned by a few early entries.
    const stale = this.#stale
    let staleCount = 0
    table.hitAll(transitions, befores, owners)
    for (let i = 0; i < n; i++) {
      const before = befores[i]!
      if (before === 0) novel.push(transitions[i]!)
      else {
        const owner = owners[i]!
        if (owner >= 0) {
          // Its term in the owner's rarity goes from 1 / before to 1 / (before + 1).
          rarity[owner] -= 1 / before - 1 / (before + 1)
          if (stamps[owner] !== stamp) {
            stamps[owner] = stamp
            stale[staleCount++] = owner
          }
        }
      }
    }
    for (let i = 0; i < staleCount; i++) this.#place(stale[i]!)
    this.#runs += runs
    if (novel.length > 0) this.#growth.add(this.#runs, table.size)
    if (this.#fullSince === undefined && table.full) this.#fullSince = this.#runs
    if (this.keep && program !== undefined && novel.length > 0) {
      const kept = typeof program === 'function' ? (program as () => P)() : program
      const entry: Kept<P> = { program: kept, r, novel: novel.slice(), picked: 0, size: this.sizeOf(kept), serial: this.#serial++, slot: this.#free.pop()! }
      // Every novel transition has been reached once: each adds 1 to the rarity.
      rarity[entry.slot] = novel.length
      stamps[entry.slot] = 0
      this.#picked[entry.slot] = 0
      this.#sizes[entry.slot] = entry.size
      this.#ages[entry.slot] = entry.serial
      this.#entries.push(entry)
      this.#bySlot[entry.slot] = entry
      this.#place(entry.slot)
      for (let i = 0; i < novel.length; i++) table.setOwner(novel[i]!, entry.slot)
      if (this.#entries.length > this.capacity) this.#evict()
    }
  }

  /** The kept entries, oldest first. */
  get entries(): readonly CorpusEntry<P>[] {
    return this.#entries
  }

  /** Draw a parent (weighted), or `undefined` when the corpus is empty. */
  choose(rng: Rng): CorpusEntry<P> | undefined {
    if (this.#entries.length === 0) return undefined
    const chosen = this.#bySlot[this.#weights.find(rng.float() * this.#weights.total)]!
    this.#picked[chosen.slot] = ++chosen.picked
    this.#place(chosen.slot)
    return chosen
  }

  /** The growth curve: one point each time coverage grew (a copy). */
  get growth(): GrowthPoint[] {
    return this.#growth.points()
  }

  /** Covered transitions after `runs` runs (the growth curve read at that point). */
  coveredAt(runs: number): number {
    return this.#growth.at(runs)
  }

  /** Put the current weight of the entry in `slot` in the tree. */
  #place(slot: number): void {
    this.#weights.set(slot, this.#rarity[slot]! / Math.sqrt(1 + this.#picked[slot]!) / (1 + this.#sizes[slot]! / 10), this.#ages[slot]!)
  }

  /** The lowest-weight entry (the oldest among ties) leaves. */
  #evict(): void {
    const gone = this.#bySlot[this.#weights.lowest()]!
    this.#entries.splice(this.#indexOf(gone.serial), 1)
    this.#weights.clear(gone.slot)
    this.#bySlot[gone.slot] = undefined
    this.#free.push(gone.slot)
    for (const t of gone.novel) this.#table.setOwner(t, -1)
  }

  /** The index in `#entries` (ordered by serial) of the entry numbered `serial`. */
  #indexOf(serial: number): number {
    let lo = 0
    let hi = this.#entries.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.#entries[mid]!.serial < serial) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
