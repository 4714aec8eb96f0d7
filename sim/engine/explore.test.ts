import { describe, expect, it } from 'vitest'
import { dfs } from '../strategies/dfs.js'
import { pct } from '../strategies/pct.js'
import { random } from '../strategies/random.js'
import { explore } from './explore.js'
import type { RunOutcome } from './outcome.js'
import type { Scheduler } from './scheduler.js'

const program = async (s: Scheduler): Promise<void> => {
  await Promise.all(['a1', 'a2', 'a3'].map(async (actor) => {
    for (let i = 1; i <= 3; i++) await s.point(`${actor}:op@${i}`, actor)
  }))
}

const picks = (o: RunOutcome): string => o.decisions.decisions.map((d) => (d.kind === 'pick' ? d.label.slice(0, 2) : '?')).join(' ')

async function collect(runs: AsyncIterable<RunOutcome>): Promise<RunOutcome[]> {
  const out: RunOutcome[] = []
  for await (const o of runs) out.push(o)
  return out
}

describe('explore', () => {
  it('runs the program once per granted run, each in a fresh scheduler', async () => {
    const schedulers = new Set<Scheduler>()
    const outcomes = await collect(explore(random({ seed: 1 }), async (s) => {
      schedulers.add(s)
      await program(s)
    }, { maxRuns: 4 }))
    expect(outcomes).toHaveLength(4)
    expect(schedulers.size).toBe(4)
    expect(outcomes.map((o) => o.decisions.strategy)).toEqual([0, 1, 2, 3].map((k) => `random seed=1 run=${k}`))
  })

  it('stops when the strategy is exhausted, and can be stopped early', async () => {
    expect(await collect(explore(dfs(), async (s) => {
      await Promise.all([s.point('x', 'a'), s.point('y', 'b')])
    }))).toHaveLength(2)
    let seen = 0
    for await (const _ of explore(random({ seed: 2 }), program)) if (++seen === 3) break
    expect(seen).toBe(3)
  })

  it('passes run options on to every run', async () => {
    const outcomes = await collect(explore(random({ seed: 3 }), program, { maxRuns: 2, budget: 4 }))
    expect(outcomes.map((o) => o.kind)).toEqual(['livelock', 'livelock'])
  })

  // Pins seed -> schedules, so a change in how seeds generate schedules is a deliberate diff.
  it('pins the first schedules of known seeds', async () => {
    const runs = [
      ...(await collect(explore(random({ seed: 'pinned' }), program, { maxRuns: 2 }))),
      ...(await collect(explore(pct({ seed: 'pinned', depth: 2 }), program, { maxRuns: 2 }))),
    ]
    expect(runs.map(picks)).toMatchInlineSnapshot(`
      [
        "a3 a2 a2 a2 a1 a3 a1 a1 a3",
        "a1 a1 a2 a1 a2 a3 a2 a3 a3",
        "a2 a2 a2 a3 a3 a3 a1 a1 a1",
        "a3 a2 a2 a2 a1 a1 a1 a3 a3",
      ]
    `)
  })
})
