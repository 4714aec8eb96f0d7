import fc from 'fast-check'
import seedrandom from 'seedrandom'
import { describe, expect, it } from 'vitest'
import { Alea } from './alea.js'

/** `count` draws of each kind, alternating, from a generator with seedrandom's interface or ours. */
function draws(next: () => number, int32: () => number, count: number): number[] {
  const out: number[] = []
  for (let i = 0; i < count; i++) out.push(next(), int32())
  return out
}

describe('Alea', () => {
  it('draws what seedrandom.alea draws from the same seed string', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.integer({ min: 1, max: 64 }), (seed, count) => {
      const theirs = seedrandom.alea(seed)
      const ours = Alea.fromSeed(seed)
      expect(draws(() => ours.next(), () => ours.int32(), count)).toEqual(draws(theirs, () => theirs.int32(), count))
    }))
  })

  it('draws what seedrandom.alea draws from the same state', () => {
    const fraction = fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((u) => u / 2 ** 32)
    fc.assert(fc.property(fraction, fraction, fraction, fc.integer({ min: 0, max: 2 ** 31 }), (s0, s1, s2, c) => {
      const theirs = seedrandom.alea('', { state: { c, s0, s1, s2 } })
      const ours = Alea.fromState(s0, s1, s2, c)
      expect(draws(() => ours.next(), () => ours.int32(), 16)).toEqual(draws(theirs, () => theirs.int32(), 16))
    }))
  })

  it('draws the numbers a campaign key gave under seedrandom (the streams of existing run files)', () => {
    const ours = Alea.fromSeed(JSON.stringify(['42', 'schedule']))
    const theirs = seedrandom.alea(JSON.stringify(['42', 'schedule']))
    expect(Array.from({ length: 1000 }, () => ours.int32())).toEqual(Array.from({ length: 1000 }, () => theirs.int32()))
  })
})
