/**
 * Alea (Johannes Baagøe's generator), the algorithm of `seedrandom.alea`, number for number: the
 * same seed string or state gives the same draws (`alea.test.ts` checks it against seedrandom).
 *
 * Why not seedrandom's own: each of its generators is a handful of closures over a state object,
 * and seeding hashes the key through another closure. A campaign's feeding thread makes one per
 * seed (a guided draw) and each run makes several (its named streams), so making them was a
 * measurable share of both; a class with the state in fields is made and drawn from in a fraction
 * of the time.
 * @module
 */

/** 2^-32. */
const TWO_POW_MINUS_32 = 2.3283064365386963e-10

/** Baagøe's Mash hash, fed strings one after another (its state carries over). */
class Mash {
  #n: number

  constructor(n = 0xefc8249d) {
    this.#n = n
  }

  /** Its state, to start another Mash where this one stands. */
  get state(): number {
    return this.#n
  }

  hash(data: string): number {
    let n = this.#n
    for (let i = 0; i < data.length; i++) {
      n += data.charCodeAt(i)
      let h = 0.02519603282416938 * n
      n = h >>> 0
      h -= n
      h *= n
      n = h >>> 0
      h -= n
      n += h * 0x100000000
    }
    this.#n = n
    return (n >>> 0) * TWO_POW_MINUS_32
  }
}

/**
 * Alea's seeding starts by hashing ' ' three times, whatever the seed: done once here, the state
 * after it and the three hashes (a guided campaign's feeding thread seeds a generator per seed).
 */
const SPACES = ((): { readonly n: number; readonly s0: number; readonly s1: number; readonly s2: number } => {
  const mash = new Mash()
  const s0 = mash.hash(' ')
  const s1 = mash.hash(' ')
  const s2 = mash.hash(' ')
  return { n: mash.state, s0, s1, s2 }
})()

/** An Alea generator: three fractions in [0, 1) and a carry. */
export class Alea {
  s0: number
  s1: number
  s2: number
  c: number

  private constructor(s0: number, s1: number, s2: number, c: number) {
    this.s0 = s0
    this.s1 = s1
    this.s2 = s2
    this.c = c
  }

  /** The generator `seedrandom.alea(seed)` makes. */
  static fromSeed(seed: string): Alea {
    const mash = new Mash(SPACES.n)
    let s0 = SPACES.s0
    let s1 = SPACES.s1
    let s2 = SPACES.s2
    s0 -= mash.hash(seed)
    if (s0 < 0) s0 += 1
    s1 -= mash.hash(seed)
    if (s1 < 0) s1 += 1
    s2 -= mash.hash(seed)
    if (s2 < 0) s2 += 1
    return new Alea(s0, s1, s2, 1)
  }

  /** The generator `seedrandom.alea('', { state })` makes: this state, as given. */
  static fromState(s0: number, s1: number, s2: number, c: number): Alea {
    return new Alea(s0, s1, s2, c)
  }

  /** The next fraction in [0, 1) (seedrandom's `prng()`). */
  next(): number {
    const t = 2091639 * this.s0 + this.c * TWO_POW_MINUS_32
    this.s0 = this.s1
    this.s1 = this.s2
    return (this.s2 = t - (this.c = t | 0))
  }

  /** The next signed 32-bit integer (seedrandom's `prng.int32()`). */
  int32(): number {
    return (this.next() * 0x100000000) | 0
  }
}
