/**
 * The weights of a fixed number of slots, for the corpus's weighted draw and its eviction: a
 * segment tree holding, per node, the sum of its slots' weights and its lowest slot (by weight,
 * then by age, the older first). A draw, the lowest slot and an update each cost O(log capacity)
 * where a pass over the corpus cost O(corpus): a long guided campaign keeps thousands of entries and
 * draws a parent for most seeds on its one main thread, which feeds every worker.
 *
 * Sums are recomputed from the children on every update (never adjusted by a difference), so a
 * node's sum depends only on its slots' current weights, not on the history of updates.
 *
 * The lowest slot per node is kept only from the first {@link WeightTree.lowest} on: a corpus asks
 * for it only once it is full, and until then keeping it cost each update a comparison of two
 * slots' weights and ages at every level, reads at random slots that were most of an update's
 * cache misses on the feeding thread. Built then from the slots as they stand, it is what keeping
 * it all along would have given.
 * @module
 */

/** Weighted slots `0 … capacity - 1`, each empty or holding a positive weight and an age. */
export class WeightTree {
  readonly #leaves: number
  readonly #sum: Float64Array
  /** Per node: the slot with the lowest (weight, age) under it, or -1. */
  readonly #low: Int32Array
  readonly #weight: Float64Array
  readonly #age: Float64Array
  /** Whether `#low` is kept (see the module doc). */
  #lowKept = false

  constructor(capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`WeightTree capacity must be a positive integer, got ${capacity}`)
    let leaves = 1
    while (leaves < capacity) leaves *= 2
    this.#leaves = leaves
    this.#sum = new Float64Array(2 * leaves)
    this.#low = new Int32Array(2 * leaves) // (filled by #buildLow when first asked)
    this.#weight = new Float64Array(leaves)
    this.#age = new Float64Array(leaves)
  }

  /** The sum of every slot's weight. */
  get total(): number {
    return this.#sum[1]!
  }

  /** Give `slot` a weight (> 0) and an age (smaller: older, the one `lowest` names among ties). */
  set(slot: number, weight: number, age: number): void {
    if (!(weight > 0) || !Number.isFinite(weight)) throw new RangeError(`WeightTree weight must be positive and finite, got ${weight} for slot ${slot}`)
    this.#weight[slot] = weight
    this.#age[slot] = age
    this.#update(slot)
  }

  /** Empty `slot` (an empty slot is one whose weight is 0). */
  clear(slot: number): void {
    this.#weight[slot] = 0
    this.#update(slot)
  }

  /**
   * The slot where cumulative weight (slots in index order) passes `x`, for `0 ≤ x < total`; a
   * rounding overshoot lands on the last slot with a weight. -1 when every slot is empty.
   */
  find(x: number): number {
    const sum = this.#sum
    // (every weight is positive: the total is 0 only when every slot is empty)
    if (!(sum[1]! > 0)) return -1
    let node = 1
    while (node < this.#leaves) {
      const left = 2 * node
      if (x < sum[left]! || !(sum[left + 1]! > 0)) node = left
      else {
        x -= sum[left]!
        node = left + 1
      }
    }
    return node - this.#leaves
  }

  /** The slot with the lowest weight, the oldest among ties, or -1 when every slot is empty. */
  lowest(): number {
    if (!this.#lowKept) this.#buildLow()
    return this.#low[1]!
  }

  #update(slot: number): void {
    const sum = this.#sum
    const leaf = this.#leaves + slot
    sum[leaf] = this.#weight[slot]!
    for (let node = leaf >> 1; node >= 1; node >>= 1) sum[node] = sum[2 * node]! + sum[2 * node + 1]!
    if (!this.#lowKept) return
    const low = this.#low
    low[leaf] = this.#weight[slot]! > 0 ? slot : -1
    for (let node = leaf >> 1; node >= 1; node >>= 1) low[node] = this.#lower(low[2 * node]!, low[2 * node + 1]!)
  }

  /** Compute every node's lowest slot from the slots as they stand, and keep it from now on. */
  #buildLow(): void {
    const low = this.#low
    const leaves = this.#leaves
    for (let slot = 0; slot < leaves; slot++) low[leaves + slot] = this.#weight[slot]! > 0 ? slot : -1
    for (let node = leaves - 1; node >= 1; node--) low[node] = this.#lower(low[2 * node]!, low[2 * node + 1]!)
    this.#lowKept = true
  }

  #lower(a: number, b: number): number {
    if (a < 0) return b
    if (b < 0) return a
    const wa = this.#weight[a]!
    const wb = this.#weight[b]!
    if (wa !== wb) return wa < wb ? a : b
    return this.#age[a]! <= this.#age[b]! ? a : b
  }
}
