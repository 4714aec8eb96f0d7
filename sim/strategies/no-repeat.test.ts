import { describe, expect, it } from 'vitest'
import { explore } from '../engine/explore.js'
import type { RunOutcome } from '../engine/outcome.js'
import type { Scheduler } from '../engine/scheduler.js'
import { noRepeat } from './no-repeat.js'
import { pct } from './pct.js'
import { random } from './random.js'
import type { Strategy } from './strategy.js'

/** Actors that each pass their points in sequence, then (optionally) one random draw. */
function actors(points: Record<string, number>, draw?: number) {
  return async (s: Scheduler): Promise<void> => {
    await Promise.all(Object.entries(points).map(async ([actor, count]) => {
      for (let i = 1; i <= count; i++) await s.point(`${actor}${i}`, actor)
    }))
    if (draw !== undefined) s.random(draw)
  }
}

const schedule = (o: RunOutcome): string =>
  o.decisions.decisions.map((d) => (d.kind === 'pick' ? d.label[0] : d.kind === 'random' ? String(d.value) : '?')).join('')

async function schedules(strategy: Strategy, program: (s: Scheduler) => Promise<void>): Promise<string[]> {
  const out: string[] = []
  for await (const outcome of explore(strategy, program)) {
    expect(outcome.kind).toBe('ok')
    out.push(schedule(outcome))
  }
  return out
}

/** The profile's mix: random and PCT of depths 1-3, as certification alternates them. */
const mixed = (seed: number) => (k: number): Strategy => (k % 2 === 0 ? random({ seed: seed + k }) : pct({ seed: seed + k, depth: 1 + (k % 3) }))

describe('noRepeat', () => {
  it('runs each of a small program\'s schedules once, then reports the tree exhausted', async () => {
    // Two actors of two points each: C(4,2) = 6 interleavings, times 3 values of the draw.
    const strategy = noRepeat({ strategyOf: mixed(7), maxRuns: 100 })
    const runs = await schedules(strategy, actors({ A: 2, B: 2 }, 3))
    expect(runs).toHaveLength(18)
    expect(new Set(runs).size).toBe(18)
    expect(strategy.beginRun()).toBe(false)
  })

  it('makes no repeat where the strategies alone repeat', async () => {
    // Alone, 12 random runs of a 3-schedule program repeat; steered, the first 3 runs are the 3 schedules.
    const alone: string[] = []
    for (let k = 0; k < 12; k++) {
      const s = random({ seed: k })
      for await (const o of explore(s, actors({ A: 2, B: 1 }), { maxRuns: 1 })) alone.push(schedule(o))
    }
    expect(new Set(alone).size).toBeLessThan(alone.length)
    const steered = await schedules(noRepeat({ strategyOf: (k) => random({ seed: k }), maxRuns: 12 }), actors({ A: 2, B: 1 }))
    expect(steered.sort()).toEqual(['AAB', 'ABA', 'BAA'])
  })

  it('takes the inner strategy\'s choice while it leads somewhere new', async () => {
    // The first run is the inner strategy's own run, unsteered.
    const own: string[] = []
    for await (const o of explore(random({ seed: 11 }), actors({ A: 3, B: 3 }), { maxRuns: 1 })) own.push(schedule(o))
    const steered = await schedules(noRepeat({ strategyOf: () => random({ seed: 11 }), maxRuns: 1 }), actors({ A: 3, B: 3 }))
    expect(steered).toEqual(own)
  })

  it('stops at maxRuns when the tree is larger', async () => {
    const runs = await schedules(noRepeat({ strategyOf: mixed(1), maxRuns: 5 }), actors({ A: 3, B: 3 }))
    expect(runs).toHaveLength(5)
    expect(new Set(runs).size).toBe(5)
  })

  it('stops steering, and does not stop early, when a run does not fit the tree (a nondeterministic program)', async () => {
    let calls = 0
    // The number of actors changes from run to run: the same prefix offers other options.
    const unstable = async (s: Scheduler): Promise<void> => { calls++; await actors(calls % 2 === 0 ? { A: 1, B: 1 } : { A: 1, B: 1, C: 1 })(s) }
    const strategy = noRepeat({ strategyOf: (k) => random({ seed: k }), maxRuns: 10 })
    const runs = await schedules(strategy, unstable)
    expect(strategy.diverged).toBe(true)
    expect(runs).toHaveLength(10)
  })

  it('rejects a maxRuns that is not a positive integer', () => {
    expect(() => noRepeat({ strategyOf: (k) => random({ seed: k }), maxRuns: 0 })).toThrow(/maxRuns must be an integer >= 1, got 0/)
  })
})
