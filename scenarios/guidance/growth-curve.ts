/**
 * The state-coverage growth curve of a campaign: after how many runs how many transitions were
 * covered, one point each time coverage grew. Held in two typed arrays, not as an object per
 * point: a long campaign's coverage grows on tens of thousands of seeds, and those objects were a
 * steady part of its heap growth (about 0.13 MB per 10,000 runs of a guided campaign). Every
 * point is kept, so the curve, and what a report reads from it, is exact.
 * @module
 */

/** A point of the state-coverage growth curve: after `runs` runs, `transitions` were covered. */
export interface GrowthPoint {
  readonly runs: number
  readonly transitions: number
}

/** The growth curve; points are added in order of runs. */
export class GrowthCurve {
  #runs = new Float64Array(256)
  #transitions = new Float64Array(256)
  #size = 0

  /** Points on the curve. */
  get length(): number {
    return this.#size
  }

  /** After `runs` runs (at least the last point's), `transitions` were covered. */
  add(runs: number, transitions: number): void {
    if (this.#size > 0 && runs < this.#runs[this.#size - 1]!) throw new RangeError(`growth curve: a point at ${runs} runs comes after one at ${this.#runs[this.#size - 1]}`)
    if (this.#size === this.#runs.length) {
      this.#runs = grown(this.#runs)
      this.#transitions = grown(this.#transitions)
    }
    this.#runs[this.#size] = runs
    this.#transitions[this.#size++] = transitions
  }

  /** Transitions covered after `runs` runs: the last point at or before it (0 before the first). */
  at(runs: number): number {
    // The number of points at or before `runs`, by binary search.
    let lo = 0
    let hi = this.#size
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.#runs[mid]! <= runs) lo = mid + 1
      else hi = mid
    }
    return lo === 0 ? 0 : this.#transitions[lo - 1]!
  }

  /** The points, oldest first, as new objects. */
  points(): GrowthPoint[] {
    return Array.from({ length: this.#size }, (_, i) => ({ runs: this.#runs[i]!, transitions: this.#transitions[i]! }))
  }
}

function grown(a: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const b = new Float64Array(a.length * 2)
  b.set(a)
  return b
}
