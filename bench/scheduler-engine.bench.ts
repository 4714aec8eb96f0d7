/**
 * Decisions per second of the scheduling engine against fast-check's
 * `fc.scheduler()`, on the same program: three actors of ten sequential
 * scheduled steps each (30 decisions a run).
 *
 * Reproduce: `npx vitest bench --run bench/scheduler-engine.bench.ts`
 * (hz x 30 = decisions/s). The `long` variants run 3 x 300 steps to separate
 * the per-decision cost from the per-run cost (clock install, hook enable).
 *
 * What is compared is not equal work: the engine takes a real macrotask turn
 * per decision (so it settles real immediates and sees unhandled rejections
 * at the right step), fakes timers and `Date` per run and watches for real
 * async resources; `fc.scheduler()` settles with up to 50 microtask ticks.
 */
import fc from 'fast-check'
import { bench, describe, expect } from 'vitest'
import { explore } from '../sim/engine/explore.js'
import type { Scheduler } from '../sim/engine/scheduler.js'
import { random } from '../sim/strategies/random.js'

const ACTORS = ['a', 'b', 'c']

function engineProgram(steps: number) {
  return async (s: Scheduler): Promise<void> => {
    await Promise.all(ACTORS.map(async (actor) => {
      for (let i = 0; i < steps; i++) await s.point(`${actor}:${i}`, actor)
    }))
  }
}

async function engineRuns(steps: number, runs: number, seed: number): Promise<void> {
  for await (const outcome of explore(random({ seed }), engineProgram(steps), { maxRuns: runs })) {
    if (outcome.kind !== 'ok' || outcome.steps !== ACTORS.length * steps) throw new Error(`unexpected outcome ${outcome.kind}`)
  }
}

async function fastCheckRuns(steps: number, runs: number, seed: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.scheduler(), async (s) => {
      let done = 0
      const all = Promise.all(ACTORS.map(async (actor) => {
        for (let i = 0; i < steps; i++) {
          await s.schedule(Promise.resolve(`${actor}:${i}`))
          done++
        }
      }))
      await s.waitIdle()
      await all
      expect(done).toBe(ACTORS.length * steps)
    }),
    { numRuns: runs, seed },
  )
}

let seed = 0

describe('3 actors x 10 steps (30 decisions a run), 20 runs an iteration', () => {
  bench('engine (random strategy)', () => engineRuns(10, 20, seed++), { time: 2_000 })
  bench('fast-check fc.scheduler()', () => fastCheckRuns(10, 20, seed++), { time: 2_000 })
})

describe('long: 3 actors x 300 steps (900 decisions a run), 1 run an iteration', () => {
  bench('engine (random strategy)', () => engineRuns(300, 1, seed++), { time: 2_000 })
  bench('fast-check fc.scheduler()', () => fastCheckRuns(300, 1, seed++), { time: 2_000 })
})
