import { describe, expect, it } from 'vitest'
import { explore } from '../engine/explore.js'
import type { Scheduler } from '../engine/scheduler.js'
import { portfolio } from './portfolio.js'

const program = async (s: Scheduler): Promise<void> => {
  await Promise.all(['a', 'b', 'c'].map(async (actor) => {
    for (let i = 0; i < 3; i++) await s.point(`${actor}${i}`, actor)
  }))
}

describe('portfolio', () => {
  it('rotates random, pct d=1, pct d=2, pct d=3, run by run', async () => {
    const strategy = portfolio({ seed: 8 })
    expect(strategy.name).toBe('portfolio seed=8')
    const names: string[] = []
    for await (const outcome of explore(strategy, program, { maxRuns: 5 })) names.push(outcome.decisions.strategy)
    expect(names).toEqual([
      'portfolio seed=8 run=0: random seed=8 run=0',
      'portfolio seed=8 run=1: pct d=1 seed=8 run=0 k=100',
      'portfolio seed=8 run=2: pct d=2 seed=8 run=0 k=100',
      'portfolio seed=8 run=3: pct d=3 seed=8 run=0 k=100',
      'portfolio seed=8 run=4: random seed=8 run=1',
    ])
  })

  it('is deterministic for a seed', async () => {
    const logs = async (seed: number) => {
      const out: unknown[] = []
      for await (const o of explore(portfolio({ seed }), program, { maxRuns: 8 })) out.push(o.decisions)
      return out
    }
    const first = await logs(3)
    expect(await logs(3)).toEqual(first)
    expect(await logs(4)).not.toEqual(first)
  })

  it('passes maxSteps to its pct members', async () => {
    const strategy = portfolio({ seed: 1, maxSteps: 9 })
    const names: string[] = []
    for await (const o of explore(strategy, program, { maxRuns: 2 })) names.push(o.decisions.strategy)
    expect(names[1]).toBe('portfolio seed=1 run=1: pct d=1 seed=1 run=0 k=9')
  })
})
