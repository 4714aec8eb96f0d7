import { describe, expect, it } from 'vitest'
import { explore } from '../engine/explore.js'
import type { RunOutcome } from '../engine/outcome.js'
import type { Scheduler } from '../engine/scheduler.js'
import { DEFAULT_STEP_ESTIMATE, pct } from './pct.js'
import type { PendingPoint } from './strategy.js'

function sequentialActors(points: Record<string, number>, draws = false) {
  return async (s: Scheduler): Promise<void> => {
    await Promise.all(
      Object.entries(points).map(async ([actor, count]) => {
        for (let i = 1; i <= count; i++) {
          await s.point(`${actor}${i}`, actor)
          if (draws) s.random(7)
        }
      }),
    )
  }
}

const schedule = (o: RunOutcome): string =>
  o.decisions.decisions.flatMap((d) => (d.kind === 'pick' ? [d.label[0]] : [])).join('')

/** Switches away from an actor that still had points left (it appears again later). */
const preemptions = (w: string): number => {
  let count = 0
  for (let i = 1; i < w.length; i++) if (w[i] !== w[i - 1] && w.slice(i).includes(w[i - 1]!)) count++
  return count
}

async function schedules(strategy: ReturnType<typeof pct>, points: Record<string, number>, runs: number): Promise<string[]> {
  const out: string[] = []
  for await (const o of explore(strategy, sequentialActors(points), { maxRuns: runs })) out.push(schedule(o))
  return out
}

const point = (label: string, actor: string, seq: number): PendingPoint => ({ label, actor, seq })

describe('pct', () => {
  it('keeps running the highest-priority actor, taking its earliest point', () => {
    const strategy = pct({ seed: 5, depth: 1 })
    strategy.beginRun()
    const pending = [point('a1', 'a', 0), point('b1', 'b', 1), point('a2', 'a', 2), point('c1', 'c', 3)]
    const first = strategy.pick(pending, { step: 0, lastActor: undefined })
    const favourite = pending[first]!.actor
    // The earliest point of that actor: its first one in seq order.
    expect(first).toBe(pending.findIndex((p) => p.actor === favourite))
    // With depth 1 there is no change point: the favourite wins every time it has a point.
    for (let step = 1; step < 20; step++) {
      const i = strategy.pick(pending, { step, lastActor: favourite })
      expect(pending[i]!.actor).toBe(favourite)
    }
  })

  it('with depth 1, runs every actor to completion before the next (no preemption), in varying orders', async () => {
    const runs = await schedules(pct({ seed: 'd1', depth: 1 }), { A: 3, B: 3, C: 3 }, 30)
    for (const w of runs) expect(preemptions(w)).toBe(0)
    // Random priorities: each actor goes first in some run.
    expect(new Set(runs.map((w) => w[0])).size).toBe(3)
  })

  it('with depth d, preempts at most d - 1 times, and does reach d - 1', async () => {
    for (const depth of [2, 3]) {
      const runs = await schedules(pct({ seed: `depth-${depth}`, depth }), { A: 3, B: 3, C: 3 }, 60)
      const counts = runs.map(preemptions)
      expect(Math.max(...counts)).toBe(depth - 1)
    }
  })

  it('demotes the actor that ran the change-point step below every other actor', async () => {
    // maxSteps 1 puts the single change point of depth 2 at step 1: whoever
    // runs first is demoted at once, the other runs to completion, then it resumes.
    const runs = await schedules(pct({ seed: 'k1', depth: 2, maxSteps: 1 }), { A: 2, B: 2 }, 20)
    for (const w of runs) expect(w === 'ABBA' || w === 'BAAB').toBe(true)
    expect(new Set(runs).size).toBe(2)
  })

  it('estimates the run length from the previous run when maxSteps is not given', async () => {
    const strategy = pct({ seed: 1, depth: 3 })
    expect(strategy.name).toBe('pct d=3 seed=1')
    const names: string[] = []
    for await (const _ of explore(strategy, async (s) => {
      names.push(strategy.name)
      await sequentialActors({ A: 2, B: 3 })(s)
    }, { maxRuns: 2 })) {
      // drain
    }
    expect(names).toEqual([`pct d=3 seed=1 run=0 k=${DEFAULT_STEP_ESTIMATE}`, 'pct d=3 seed=1 run=1 k=5'])
    const fixed = pct({ seed: 1, depth: 3, maxSteps: 40 })
    fixed.beginRun()
    expect(fixed.name).toBe('pct d=3 seed=1 run=0 k=40')
  })

  it('is deterministic for a seed, and its random draws do not move its schedule', async () => {
    const a = await schedules(pct({ seed: 'same', depth: 3 }), { A: 3, B: 3, C: 3 }, 10)
    const b = await schedules(pct({ seed: 'same', depth: 3 }), { A: 3, B: 3, C: 3 }, 10)
    expect(b).toEqual(a)
    const withDraws: string[] = []
    for await (const o of explore(pct({ seed: 'same', depth: 3 }), sequentialActors({ A: 3, B: 3, C: 3 }, true), { maxRuns: 10 })) {
      withDraws.push(schedule(o))
    }
    expect(withDraws).toEqual(a)
  })

  it('refuses a bad depth or maxSteps, and use outside a run', () => {
    expect(() => pct({ seed: 1, depth: 0 })).toThrow('depth=0')
    expect(() => pct({ seed: 1, depth: 2, maxSteps: 0 })).toThrow('maxSteps=0')
    const strategy = pct({ seed: 1, depth: 2 })
    expect(() => strategy.random(2)).toThrow('pct: random() called outside a run')
  })
})
