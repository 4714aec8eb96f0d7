/**
 * The many-core simulation of `window-sim.ts`: its replay of the dispatch rules (a window of seeds
 * past the next one taken, each worker running what it holds in order).
 */
import { describe, expect, it } from 'vitest'
import { simulate, utilization } from './window-sim.js'

describe('utilization', () => {
  it('keeps every worker busy when seeds take the same time and the window holds enough', () => {
    const times = Array.from({ length: 400 }, () => 1)
    for (const workers of [1, 2, 8]) expect(utilization(times, workers, 4 * workers, 4)).toBeCloseTo(1, 6)
  })

  it('idles the other workers while one slow seed holds the window, and less so with a wider window', () => {
    // One seed takes as long as 100 others: with a window of 8 seeds over 4 workers the others
    // run dry behind it (about 0.63 busy: 499 units of work over 4 workers in about 198); with a
    // window of every seed they run on.
    const times = Array.from({ length: 400 }, (_, i) => (i === 10 ? 100 : 1))
    const narrow = utilization(times, 4, 8, 2)
    const wide = utilization(times, 4, 400, 4)
    expect(narrow).toBeLessThan(0.7)
    expect(wide).toBeGreaterThan(0.9)
    expect(wide).toBeGreaterThan(narrow)
  })

  it('holds a slow seed\'s followers up on its worker: fewer held per worker is busier', () => {
    const times = Array.from({ length: 2000 }, (_, i) => (i % 97 === 0 ? 60 : 1))
    expect(utilization(times, 16, 512, 4)).toBeGreaterThan(utilization(times, 16, 512, 32))
  })

  it('rejects a worker count, window or hold below 1', () => {
    expect(() => utilization([1], 0, 1, 1)).toThrow(/workers, window and per must be at least 1/)
    expect(() => utilization([1], 1, 0, 1)).toThrow(RangeError)
  })
})

describe('simulate', () => {
  it('bounds a guided campaign by its window of seeds in flight, not by its workers', () => {
    const times = Array.from({ length: 500 }, (_, i) => (i % 50 === 0 ? 30 : 1))
    const [one, many] = simulate(times, [1, 32], 5000)
    expect(one!.guided).toBeCloseTo(1, 6)
    expect(many!.guided * 32).toBeLessThan(many!.unguided * 32)
  })
})
