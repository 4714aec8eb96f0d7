/**
 * The schedule strategy of a campaign's run seed: a function of the seed alone. Apart from
 * `context.ts` because it loads the strategies, which only the threads that run seeds need (the
 * thread feeding a campaign's workers does not load them).
 * @module
 */
import { pct, random } from '../../sim/strategies/index.js'
import type { Strategy } from '../../sim/strategies/index.js'
import type { CampaignStrategy } from './types.js'

/** The schedule strategy of run seed `r` (one run), for random, pct and portfolio. */
export function strategyForSeed(kind: Exclude<CampaignStrategy, 'dfs'>, r: number): Strategy {
  switch (kind) {
    case 'random': return random({ seed: r })
    case 'pct': return pct({ seed: r, depth: 1 + (r % 3) })
    case 'portfolio': return r % 4 === 0 ? random({ seed: r }) : pct({ seed: r, depth: r % 4 })
  }
}
