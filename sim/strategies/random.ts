/**
 * The uniform random strategy: every pending point is equally likely.
 * @module
 */
import { createRng, type Rng } from '../streams.js'
import { notInRun, type PendingPoint, type Strategy } from './strategy.js'

/** Options of {@link random}. */
export interface RandomOptions {
  readonly seed: string | number
}

/**
 * Pick uniformly among the pending points, forever (bound the number of runs
 * in the driver). Run k draws from the k-th split of the seed's stream, so it
 * can be reproduced from `seed` and `k` whatever earlier runs consumed; within
 * a run, schedule picks and `random` draws use separate streams, so adding a
 * fault draw does not reshuffle the schedule.
 */
export function random(options: RandomOptions): Strategy {
  const seed = String(options.seed)
  const master = createRng(seed, 'random')
  let run = -1
  let schedule: Rng | undefined
  let data: Rng | undefined
  // `name` is a plain property updated per run: see NAME_IS_DATA in strategy.ts.
  const strategy = {
    name: `random seed=${seed}`,
    seed,
    beginRun() {
      run++
      strategy.name = `random seed=${seed} run=${run}`
      schedule = master.split()
      data = master.split()
      return true
    },
    pick(pending: readonly PendingPoint[]) {
      if (schedule === undefined) throw notInRun('random', 'pick')
      return schedule.int(pending.length)
    },
    random(n: number) {
      if (data === undefined) throw notInRun('random', 'random')
      return data.int(n)
    },
    endRun() {
      schedule = undefined
      data = undefined
    },
  }
  return strategy
}
