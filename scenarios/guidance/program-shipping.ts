/**
 * Corpus programs cross to a worker once: a mutant's parent and donors are sent as bytes the first
 * time a worker needs them, and by seed after that.
 *
 * Why: a guided campaign's mutant names a parent and up to three donors, a few kilobytes of bytes
 * each, and a popular parent is drawn again and again. Sent whole with every seed, they were most of
 * the feeding thread's cost of posting seeds (the structured clone copies them) and of the worker's
 * cost of receiving them; that thread's cost per seed bounds the workers it can feed.
 *
 * Both sides keep the same least-recently-used set of programs per worker ({@link ShippedLru}): the
 * feeding thread a model of it, the worker the bytes. The pool posts a worker its units in order
 * and the worker takes them in that order, so both apply the same operations in the same order and
 * hold the same programs: a program the model holds is sent by seed alone, any other with its bytes
 * (and is then held by both). A replaced worker is a new worker with an empty set.
 * @module
 */
import type { SplitState } from '../../sim/streams.js'
import type { CorpusProgram, DrawnProgram } from './guided-draw.js'

/** Programs one worker holds at most (a few kilobytes each). */
export const SHIPPED_PROGRAMS = 2048

/** A corpus program as a unit carries it: with its bytes, or by seed when the worker holds it. */
export interface ShippedProgram {
  readonly r: number
  readonly bytes?: Uint8Array
}

/** What a seed runs, as posted to one worker: a mutant's programs shipped ({@link ShippedProgram}). */
export type ShippedDraw =
  | { readonly origin: 'mutant'; readonly parent: ShippedProgram; readonly donors: readonly ShippedProgram[]; readonly split: SplitState }
  | { readonly origin: 'fresh' | 'scenario' }

/** A least-recently-used set of run seeds with a value each, the same on both sides (see the module doc). */
export class ShippedLru<V> {
  readonly #held = new Map<number, V>()

  constructor(readonly capacity = SHIPPED_PROGRAMS) {}

  /** The value held for `r`, now the most recently used; undefined (and nothing changes) when not held. */
  use(r: number): V | undefined {
    const value = this.#held.get(r)
    if (value !== undefined) {
      this.#held.delete(r)
      this.#held.set(r, value)
    }
    return value
  }

  /** Hold `r` (not held), evicting the least recently used past the capacity. */
  hold(r: number, value: V): void {
    this.#held.set(r, value)
    if (this.#held.size > this.capacity) this.#held.delete(this.#held.keys().next().value!)
  }
}

/** The feeding thread's side: what each worker holds, by the pool's worker identity. */
export class ProgramShipping {
  readonly #byWorker = new WeakMap<object, ShippedLru<true>>()

  /** @param capacity programs each worker holds (its {@link ReceivedPrograms}' capacity). */
  constructor(private readonly capacity = SHIPPED_PROGRAMS) {}

  /** `drawn` as posted to `worker`: its programs by seed where the worker holds them. */
  ship(drawn: DrawnProgram, worker: object): ShippedDraw {
    if (drawn.origin !== 'mutant') return drawn
    let held = this.#byWorker.get(worker)
    if (held === undefined) this.#byWorker.set(worker, (held = new ShippedLru(this.capacity)))
    // No closure or map per seed: this runs for every mutant in the thread feeding the workers.
    const parent = shipOne(drawn.parent, held)
    const donors: ShippedProgram[] = []
    for (let i = 0; i < drawn.donors.length; i++) donors.push(shipOne(drawn.donors[i]!, held))
    return { origin: 'mutant', parent, donors, split: drawn.split }
  }
}

/** `p` as posted to a worker that holds `held`: by seed when it holds it (then used), else whole (then held). */
function shipOne(p: CorpusProgram, held: ShippedLru<true>): ShippedProgram {
  if (held.use(p.r)) return { r: p.r }
  held.hold(p.r, true)
  return p
}

/** The worker's side: the programs it was sent, so a unit naming one by seed finds its bytes. */
export class ReceivedPrograms {
  readonly #held: ShippedLru<Uint8Array>

  /** @param capacity programs it holds (the feeding thread's {@link ProgramShipping} capacity). */
  constructor(capacity = SHIPPED_PROGRAMS) {
    this.#held = new ShippedLru(capacity)
  }

  /** `shipped` as the seed's draw, with every program's bytes (in the order the feeding thread shipped them). */
  receive(shipped: ShippedDraw): DrawnProgram {
    if (shipped.origin !== 'mutant') return shipped
    const one = (p: ShippedProgram): CorpusProgram => {
      if (p.bytes !== undefined) {
        this.#held.hold(p.r, p.bytes)
        return { r: p.r, bytes: p.bytes }
      }
      const bytes = this.#held.use(p.r)
      if (bytes === undefined) throw new Error(`campaign worker: corpus program of seed ${p.r} was sent by seed, but this worker does not hold it (the feeding thread and the worker disagree on what it holds)`)
      return { r: p.r, bytes }
    }
    const parent = one(shipped.parent)
    return { origin: 'mutant', parent, donors: shipped.donors.map(one), split: shipped.split }
  }
}
