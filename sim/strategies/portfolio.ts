/**
 * A portfolio: rotate across complementary strategies run by run, so one
 * campaign gets both the uniform coverage of `random` and the depth-targeted
 * schedules of `pct`.
 * @module
 */
import { pct } from './pct.js'
import { random } from './random.js'
import type { PendingPoint, PickContext, Strategy } from './strategy.js'

/** Options of {@link portfolio}. */
export interface PortfolioOptions {
  readonly seed: string | number
  /** Passed to the `pct` members as their run length estimate. */
  readonly maxSteps?: number
}

/**
 * Run k uses member `k mod 4` of `[random, pct d=1, pct d=2, pct d=3]`, all
 * built from the same seed (each member keys its own stream by its name, so
 * they do not share draws). Each member keeps its own run count and, for pct,
 * its own run length estimate. Runs forever; `name` names the member in use.
 */
export function portfolio(options: PortfolioOptions): Strategy {
  const seed = String(options.seed)
  const withSteps = options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }
  const members: readonly Strategy[] = [
    random({ seed }),
    pct({ seed, depth: 1, ...withSteps }),
    pct({ seed, depth: 2, ...withSteps }),
    pct({ seed, depth: 3, ...withSteps }),
  ]
  let run = -1
  let current: Strategy | undefined

  const inRun = (): Strategy => {
    // Outside a run the members throw their own "outside a run" error.
    return current ?? members[0]!
  }

  // `name` is a plain property updated per run: see NAME_IS_DATA in strategy.ts.
  const strategy = {
    name: `portfolio seed=${seed}`,
    seed,
    beginRun() {
      run++
      current = members[run % members.length]!
      const begun = current.beginRun()
      strategy.name = `portfolio seed=${seed} run=${run}: ${current.name}`
      return begun
    },
    pick(pending: readonly PendingPoint[], ctx: PickContext) {
      return inRun().pick(pending, ctx)
    },
    random(n: number) {
      return inRun().random(n)
    },
    endRun() {
      current?.endRun?.()
    },
  }
  return strategy
}
