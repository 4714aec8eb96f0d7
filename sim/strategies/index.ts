/**
 * Strategies: the ways the scheduler explores schedules. One file each; the
 * loop sees only the {@link Strategy} interface.
 * @module
 */
export type { PendingPoint, PickContext, Strategy } from './strategy.js'
export { random, type RandomOptions } from './random.js'
export { pct, DEFAULT_STEP_ESTIMATE, type PctOptions } from './pct.js'
export { dfs, DfsNondeterminismError, type DfsOptions } from './dfs.js'
export { replay, ReplayDivergenceError } from './replay.js'
export { noRepeat, type NoRepeatOptions, type NoRepeatStrategy } from './no-repeat.js'
export { portfolio, type PortfolioOptions } from './portfolio.js'
export { guidedReplay, defaultChoice, countPreemptions, type GuidedMatch, type GuidedOptions, type GuidedStep, type GuidedStrategy } from './guided.js'
