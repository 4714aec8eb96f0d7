import { describe, expect, it } from 'vitest'
import { createRng } from '../../sim/streams.js'
import { GrowthCurve } from './growth-curve.js'

describe('GrowthCurve', () => {
  it('reads the last point at or before a run count, over more points than it starts with room for', () => {
    const curve = new GrowthCurve()
    const points: { runs: number; transitions: number }[] = []
    const rng = createRng(3, 'growth')
    let runs = 0
    let transitions = 0
    for (let i = 0; i < 1000; i++) {
      runs += rng.int(3) // repeated run counts too (a seed that made no run)
      transitions += 1 + rng.int(5)
      curve.add(runs, transitions)
      points.push({ runs, transitions })
    }
    expect(curve.length).toBe(1000)
    expect(curve.points()).toEqual(points)
    const scan = (at: number): number => points.filter((p) => p.runs <= at).at(-1)?.transitions ?? 0
    for (let at = -1; at <= runs + 1; at++) expect(curve.at(at)).toBe(scan(at))
  })

  it('refuses a point before the last one', () => {
    const curve = new GrowthCurve()
    curve.add(5, 1)
    expect(() => curve.add(4, 2)).toThrow(/4 runs comes after one at 5/)
  })
})
