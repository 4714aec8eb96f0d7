import { describe, expect, it } from 'vitest'
import { explore } from '../engine/explore.js'
import type { RunOutcome } from '../engine/outcome.js'
import type { Scheduler } from '../engine/scheduler.js'
import { dfs } from './dfs.js'

/** Actors that each pass their points in sequence; a run's schedule is the order of actors, e.g. "AABAB". */
function sequentialActors(points: Record<string, number>) {
  return async (s: Scheduler): Promise<void> => {
    await Promise.all(
      Object.entries(points).map(async ([actor, count]) => {
        for (let i = 1; i <= count; i++) await s.point(`${actor}${i}`, actor)
      }),
    )
  }
}

const schedule = (o: RunOutcome): string =>
  o.decisions.decisions.map((d) => (d.kind === 'pick' ? d.label[0] : '?')).join('')

async function allSchedules(points: Record<string, number>, preemptionBound?: number): Promise<string[]> {
  const strategy = preemptionBound === undefined ? dfs() : dfs({ preemptionBound })
  const schedules: string[] = []
  for await (const outcome of explore(strategy, sequentialActors(points))) {
    expect(outcome.kind).toBe('ok')
    schedules.push(schedule(outcome))
  }
  expect(strategy.beginRun()).toBe(false) // stays exhausted
  return schedules
}

describe('dfs', () => {
  // A has points A1 A2 A3, B has B1 B2 B3, each actor in order. A schedule is a
  // word of three A and three B. A switch away from an actor that still has
  // points is a preemption; the switch into the last block never is (the
  // actor left behind has finished). So a schedule of r blocks has r - 2
  // preemptions. Counting words by blocks (compositions of 3 into the blocks
  // of each actor, times 2 for who starts):
  //   r=2: AAABBB, BBBAAA                               2
  //   r=3: A|B|A blocks (2 ways to split A) and mirror  4
  //   r=4: 2 splits of A x 2 splits of B, x 2           8
  //   r=5: A|B|A|B|A: 1 x 2, x 2                         4
  //   r=6: ABABAB, BABABA                                2
  // Total 20 = C(6,3). Bound 0: r=2 only, 2. Bound 1: r<=3, 6. Bound 2: r<=4, 14.
  it('enumerates all C(6,3) = 20 interleavings of two 3-point actors, each once', async () => {
    const schedules = await allSchedules({ A: 3, B: 3 })
    expect(schedules).toHaveLength(20)
    expect(new Set(schedules).size).toBe(20)
    // The first run always takes the oldest pending point: A2 is created after
    // B1, so first-in-first-out alternates.
    expect(schedules[0]).toBe('ABABAB')
  })

  it('enumerates the 2 interleavings without preemption under preemptionBound 0', async () => {
    expect((await allSchedules({ A: 3, B: 3 }, 0)).sort()).toEqual(['AAABBB', 'BBBAAA'])
  })

  it('enumerates the 6 interleavings with at most one preemption under preemptionBound 1', async () => {
    expect((await allSchedules({ A: 3, B: 3 }, 1)).sort()).toEqual(['AAABBB', 'AABBBA', 'ABBBAA', 'BAAABB', 'BBAAAB', 'BBBAAA'])
  })

  it('enumerates the 14 interleavings with at most two preemptions under preemptionBound 2', async () => {
    const schedules = await allSchedules({ A: 3, B: 3 }, 2)
    expect(schedules).toHaveLength(14)
    expect(new Set(schedules).size).toBe(14)
    expect(schedules).not.toContain('ABABAB') // r=6: four preemptions
    expect(schedules).not.toContain('ABABBA') // r=5: three preemptions
    expect(schedules).toContain('AABABB') // r=4: two preemptions (the last switch is free)
  })

  it('agrees with a brute-force count of preemptions for every bound', async () => {
    // Every word of three A and three B, and its preemptions by definition.
    const words: string[] = []
    for (let mask = 0; mask < 64; mask++) {
      const w = [...Array(6).keys()].map((i) => ((mask >> i) & 1 ? 'B' : 'A')).join('')
      if ([...w].filter((c) => c === 'A').length === 3) words.push(w)
    }
    const preemptions = (w: string): number => {
      let count = 0
      for (let i = 1; i < w.length; i++) {
        const previousHasMore = w.slice(i).includes(w[i - 1]!)
        if (w[i] !== w[i - 1] && previousHasMore) count++
      }
      return count
    }
    const expectedCounts: number[] = []
    for (let bound = 0; bound <= 4; bound++) {
      const expected = words.filter((w) => preemptions(w) <= bound).sort()
      expect((await allSchedules({ A: 3, B: 3 }, bound)).sort()).toEqual(expected)
      expectedCounts.push(expected.length)
    }
    expect(expectedCounts).toEqual([2, 6, 14, 18, 20]) // the hand count above
  })

  // A has A1 A2, B has B1: the words of two A and one B are AAB, ABA, BAA.
  // ABA switches away from A while A2 is pending: one preemption. The others
  // switch only after an actor finished.
  it('enumerates the 3 interleavings of a 2-actor, 3-point program, and 2 of them without preemption', async () => {
    expect((await allSchedules({ A: 2, B: 1 })).sort()).toEqual(['AAB', 'ABA', 'BAA'])
    expect((await allSchedules({ A: 2, B: 1 }, 0)).sort()).toEqual(['AAB', 'BAA'])
  })

  it('enumerates random draws as choice levels', async () => {
    const seen: string[] = []
    for await (const outcome of explore(dfs(), async (s) => {
      const fault = s.random(3)
      await s.point(`op${fault}`, 'a')
      seen.push(`${fault}/${s.random(2)}`)
    })) expect(outcome.kind).toBe('ok')
    expect(seen).toEqual(['0/0', '0/1', '1/0', '1/1', '2/0', '2/1'])
  })

  it('stops after maxRuns', async () => {
    const strategy = dfs({ maxRuns: 5 })
    let runs = 0
    for await (const _ of explore(strategy, sequentialActors({ A: 3, B: 3 }))) runs++
    expect(runs).toBe(5)
    expect(strategy.beginRun()).toBe(false)
  })

  it('refuses a program whose choices change between runs', async () => {
    let call = 0
    const runs = explore(dfs(), async (s) => {
      call++
      // The second run replays the first run's prefix but sees 3 options, not 2.
      await Promise.all(Array.from({ length: call === 1 ? 2 : 3 }, (_, i) => s.point(`p${i}`, `a${i}`)))
    })
    await expect(async () => {
      for await (const _ of runs) {
        // drain
      }
    }).rejects.toThrow('dfs: nondeterministic program: choice 0 (pick) had 2 options in the previous run and 3 now')
  })

  it('names itself by its bound and run', () => {
    const strategy = dfs({ preemptionBound: 2 })
    expect(strategy.name).toBe('dfs preemptionBound=2')
    strategy.beginRun()
    expect(strategy.name).toBe('dfs preemptionBound=2 run=0')
    expect(() => dfs({ preemptionBound: -1 })).toThrow('preemptionBound=-1')
    expect(() => dfs({ maxRuns: 0 })).toThrow('maxRuns=0')
  })

  it('refuses picks outside a run', () => {
    const strategy = dfs()
    expect(() => strategy.pick([{ label: 'x', actor: 'a', seq: 0 }], { step: 0, lastActor: undefined })).toThrow('dfs: pick() called outside a run')
  })
})
