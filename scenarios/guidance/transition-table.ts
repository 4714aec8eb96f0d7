/**
 * The state coverage of a campaign as numbers: each abstract transition (a short string, see
 * `state-coverage.ts`) is known by a 53-bit hash of it, and the campaign's counts live in typed
 * arrays, not in a `Map` of strings.
 *
 * Why: a long campaign reaches hundreds of thousands of distinct transitions. As strings in maps
 * they were most of the main thread's heap (so every full GC marked them again) and, shipped from
 * worker threads as strings, most of a seed result's clone cost. A worker now ships a run's
 * transitions as one `Float64Array` of hashes, and this table holds a count and an owner per hash
 * in flat arrays the GC does not trace.
 *
 * Two transitions with the same hash count as one. With 53 bits that needs about 10^8 distinct
 * transitions before it is likely at all (a 1,000,000-run campaign reaches a few 10^5); it would
 * only make guidance treat one new transition as already covered, never change a verdict.
 *
 * The table holds at most {@link MAX_TRANSITIONS} transitions (32 MB of slots), so a campaign's
 * memory is bounded however long it runs. Past that, a transition it does not hold counts as
 * reached before and novel for no entry: guidance then works with the transitions it holds, and
 * the report says from which run on (`fullSince`).
 * @module
 */

/**
 * A 53-bit hash of `text`, never 0 (cyrb53, a public-domain string hash with good mixing), so it is
 * an exact integer in a double and can key a table whose empty slots are 0.
 */
export function transitionHash(text: string): number {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0) || 1
}

/**
 * {@link transitionHash} of texts given in pieces, without building them: each text's hash is
 * collected, and {@link keys} gives them as {@link transitionKeys} would (sorted, no duplicates).
 */
export class TransitionHasher {
  #keys = new Float64Array(64)
  #size = 0

  /** Hash the text `a + b + c + d + e + f + g` and collect it. */
  add(a: string, b: string, c: string, d: string, e: string, f: string, g: string): void {
    const h = this.#h
    h[0] = 0xdeadbeef
    h[1] = 0x41c6ce57
    this.#feed(a)
    this.#feed(b)
    this.#feed(c)
    this.#feed(d)
    this.#feed(e)
    this.#feed(f)
    this.#feed(g)
    let h1 = h[0]!
    let h2 = h[1]!
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
    if (this.#size === this.#keys.length) {
      const grown = new Float64Array(this.#keys.length * 2)
      grown.set(this.#keys)
      this.#keys = grown
    }
    this.#keys[this.#size++] = 4294967296 * (2097151 & h2) + (h1 >>> 0) || 1
  }

  /** The hashes collected, sorted ascending, without duplicates. */
  keys(): Float64Array {
    const sorted = this.#keys.subarray(0, this.#size).sort()
    let n = 0
    for (let i = 0; i < sorted.length; i++) if (n === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i]!
    return sorted.slice(0, n)
  }

  readonly #h = new Int32Array(2)

  #feed(text: string): void {
    const h = this.#h
    let h1 = h[0]!
    let h2 = h[1]!
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      h1 = Math.imul(h1 ^ c, 2654435761)
      h2 = Math.imul(h2 ^ c, 1597334677)
    }
    h[0] = h1
    h[1] = h2
  }
}

/** The hashes of a set of transitions, sorted ascending (the order a corpus takes them in). */
export function transitionKeys(transitions: Iterable<string>): Float64Array {
  const keys = new Set<number>()
  for (const t of transitions) keys.add(transitionHash(t))
  return Float64Array.from(keys).sort()
}

/**
 * Where a slot's count and owner lie among its four 32-bit words (the first two hold the key). The
 * owner is stored plus one, so a fresh (zeroed) slot holds "no owner" and growing the table clears nothing.
 */
const HITS = 2
const OWNER = 3

/**
 * Slots start at this many (2 MB) and double whenever they are half full. A reference campaign
 * reaches 35,000 transitions in its first 8,000 seeds: starting at 4,096 slots, its feeding thread
 * spent about 20 ms rehashing them through five growths, each in V8's unoptimized code and each
 * missing the cache at every key. The zeroed memory costs nothing until a slot is written.
 */
const INITIAL_SLOTS = 1 << 17

/**
 * Distinct transitions a table holds at most: twice as many slots, 16 bytes each (32 MB). A
 * 1,000,000-run reference campaign reaches a few 10^5.
 */
export const MAX_TRANSITIONS = 1 << 20

/**
 * Per transition hash: the runs that reached it and the corpus entry it is novel for (an integer,
 * or -1), in an open-addressing table (linear probing; nothing is ever removed; at most
 * {@link MAX_TRANSITIONS} transitions, or `max`).
 *
 * A slot's key, count and owner lie side by side in 16 bytes (the key as a double, the count and
 * the owner as 32-bit integers over the same buffer), so a probe reads one cache line: the feeding
 * thread counts tens of transitions per seed at random slots of a table of megabytes, and wakes to
 * do it with caches the workers have since filled.
 */
export class TransitionTable {
  #keys: Float64Array
  #ints: Int32Array
  #slots: number
  #size = 0
  /** Hits of transitions the full table could not hold. */
  #untracked = 0
  /** What {@link hitAll}'s first pass read (kept, so the reads are not optimized away). */
  #touched = 0

  /**
   * @param max distinct transitions held at most (a power of two; default {@link MAX_TRANSITIONS}).
   * @param initialSlots slots to start with (a power of two; default 2^17, 2 MB).
   */
  constructor(private readonly max = MAX_TRANSITIONS, initialSlots = INITIAL_SLOTS) {
    if (!Number.isSafeInteger(max) || max < 1 || (max & (max - 1)) !== 0) throw new RangeError(`TransitionTable: max must be a power of two >= 1, got ${max}`)
    if (!Number.isSafeInteger(initialSlots) || initialSlots < 2 || (initialSlots & (initialSlots - 1)) !== 0) throw new RangeError(`TransitionTable: initialSlots must be a power of two >= 2, got ${initialSlots}`)
    this.#slots = Math.min(initialSlots, 2 * max)
    this.#keys = new Float64Array(2 * this.#slots)
    this.#ints = new Int32Array(this.#keys.buffer)
  }

  /** Distinct transitions counted. */
  get size(): number {
    return this.#size
  }

  /** Whether the table holds all it can: a transition it does not hold is no longer added. */
  get full(): boolean {
    return this.#size === this.max
  }

  /** Hits of transitions that were not held because the table was full. */
  get untracked(): number {
    return this.#untracked
  }

  /** Runs that reached `key` (0: never). */
  hits(key: number): number {
    const slot = this.#find(key)
    return this.#keys[2 * slot] === key ? this.#ints[4 * slot + HITS]! >>> 0 : 0
  }

  /**
   * Count one more run reaching `key`; returns the count before (0: `key` is new). A `key` the full
   * table does not hold counts as reached once before.
   */
  hit(key: number): number {
    // The slot first: counting may grow the table, which replaces the arrays.
    const slot = this.#count(key)
    return slot < 0 ? 1 : (this.#ints[4 * slot + HITS]! >>> 0) - 1
  }

  /**
   * {@link hit} each of `keys` in turn, writing for the `i`-th the runs that reached it before into
   * `before[i]` and the entry it is novel for (or -1) into `owners[i]`. One call per seed's result:
   * the feeding thread counts every transition of every seed, and a loop here is optimized within
   * the first seeds, where a call per transition stays in unoptimized code for thousands of them.
   */
  hitAll(keys: ArrayLike<number>, before: Uint32Array, owners: Int32Array): void {
    // First read each key's home slot: the reads do not depend on one another, so the processor
    // overlaps their cache misses (the workers have filled the caches since this thread last looked),
    // and the counting loop below finds its slots in cache. It halved the time of a probe in a
    // microbenchmark that wipes the caches between batches of seeds.
    const keys0 = this.#keys
    const mask = this.#slots - 1
    let touched = 0
    for (let i = 0; i < keys.length; i++) touched += keys0[2 * ((keys[i]! % 4294967296) & mask)]!
    this.#touched = touched
    for (let i = 0; i < keys.length; i++) {
      const slot = this.#count(keys[i]!)
      if (slot < 0) {
        // Not held (the table is full): reached before, novel for no entry.
        before[i] = 1
        owners[i] = -1
        continue
      }
      const ints = this.#ints
      before[i] = (ints[4 * slot + HITS]! >>> 0) - 1
      owners[i] = ints[4 * slot + OWNER]! - 1
    }
  }

  /** The entry `key` is novel for, or -1. */
  owner(key: number): number {
    const slot = this.#find(key)
    return this.#keys[2 * slot] === key ? this.#ints[4 * slot + OWNER]! - 1 : -1
  }

  /** Record (or with -1 clear) the entry `key` is novel for; `key` must have been hit. */
  setOwner(key: number, owner: number): void {
    const slot = this.#find(key)
    if (this.#keys[2 * slot] !== key) throw new Error(`transition ${key} was never hit`)
    this.#ints[4 * slot + OWNER] = owner + 1
  }

  /**
   * Count one more run reaching `key` (growing the table first if it is half full); returns its
   * slot, or -1 when the table is full and does not hold `key`.
   */
  #count(key: number): number {
    if ((this.#size + 1) * 2 > this.#slots && this.#size < this.max) this.#grow()
    const slot = this.#find(key)
    if (this.#keys[2 * slot] !== key) {
      if (this.#size === this.max) {
        this.#untracked++
        return -1
      }
      this.#keys[2 * slot] = key
      this.#size++
    }
    this.#ints[4 * slot + HITS]!++
    return slot
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  #find(key: number): number {
    const keys = this.#keys
    const mask = this.#slots - 1
    // The low 32 bits of the hash are h1, already well mixed.
    let slot = (key % 4294967296) & mask
    for (;;) {
      const at = keys[2 * slot]!
      if (at === key || at === 0) return slot
      slot = (slot + 1) & mask
    }
  }

  #grow(): void {
    const keys = this.#keys
    const ints = this.#ints
    const slots = this.#slots
    const grownKeys = new Float64Array(4 * slots)
    const grownInts = new Int32Array(grownKeys.buffer)
    const mask = 2 * slots - 1
    // Probing inlined, on locals: each growth runs once, in V8's unoptimized code, where a call
    // and a private field read per key were most of its time.
    for (let i = 0; i < slots; i++) {
      const key = keys[2 * i]!
      if (key === 0) continue
      let slot = (key % 4294967296) & mask
      while (grownKeys[2 * slot] !== 0) slot = (slot + 1) & mask
      grownKeys[2 * slot] = key
      grownInts[4 * slot + HITS] = ints[4 * i + HITS]!
      grownInts[4 * slot + OWNER] = ints[4 * i + OWNER]!
    }
    this.#slots = 2 * slots
    this.#keys = grownKeys
    this.#ints = grownInts
  }
}
