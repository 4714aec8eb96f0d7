import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chainOnce, Lazy, shared } from './build-scope.js'
import { operationArbitrary, programArbitrary } from './index.js'

describe('build scope', () => {
  it('a piece asked for twice in one build is built once; each top-level call builds its own', () => {
    let built = 0
    const piece = (): fc.Arbitrary<number> => shared('piece', () => {
      built++
      return fc.constant(1)
    })
    const a = piece()
    const b = piece()
    expect(a).not.toBe(b)
    expect(built).toBe(2)
    let inner: [fc.Arbitrary<number>, fc.Arbitrary<number>] | undefined
    shared('outer', () => {
      inner = [piece(), piece()]
      return fc.constant(0)
    })
    expect(inner![0]).toBe(inner![1])
    expect(built).toBe(3)
  })

  it('a piece built on first use (Lazy, chainOnce) is built in the scope it was declared in', () => {
    let built = 0
    const piece = (): fc.Arbitrary<number> => shared('piece', () => {
      built++
      return fc.integer({ min: 0, max: 9 })
    })
    const root = shared('root', () => fc.tuple(
      piece(),
      new Lazy(() => piece()),
      chainOnce(fc.integer({ min: 0, max: 3 }), () => piece()),
    ))
    expect(built).toBe(1)
    fc.sample(root, { seed: 1, numRuns: 50 })
    expect(built).toBe(1)
  })

  it('a long-lived program arbitrary draws what a fresh one draws, seed by seed', () => {
    // Sharing pieces must not change a value: each seed's program from one arbitrary that has
    // already drawn hundreds (its pieces shared and built) equals the program a fresh one draws.
    const kept = programArbitrary()
    fc.sample(kept, { seed: 99, numRuns: 300 })
    for (let seed = 0; seed < 150; seed++) {
      expect(fc.sample(kept, { seed, numRuns: 1 })).toEqual(fc.sample(programArbitrary(), { seed, numRuns: 1 }))
    }
    const op = operationArbitrary({ sessions: ['s1'] }, 1)
    for (let seed = 0; seed < 100; seed++) {
      expect(fc.sample(op, { seed, numRuns: 3 })).toEqual(fc.sample(operationArbitrary({ sessions: ['s1'] }, 1), { seed, numRuns: 3 }))
    }
  })
})
