/**
 * Named race scenarios, the program builders (`program`, `actor`, `create`, `on`, `act`, …: the
 * language reports print programs in), and the fast-check arbitraries for random programs: the
 * public face of `scenarios/`.
 * @module
 */
export { CLAUSE_GROUPS, defineScenario, goal, ScenarioError } from './catalog/scenario.js'
export type { ClauseGroup, Goal, Scenario } from './catalog/scenario.js'
export { reachGoals, scenarioStrategies } from './catalog/reach.js'
export type { ReachOptions, ReachReport, UnexpectedOutcome } from './catalog/reach.js'
export * as goals from './catalog/goals.js'
export * as build from '../sim/program/build.js'
// The program builders at the top level too, so a program file can
// `import { program, actor, create, on, act } from 'dsh-lifecycle-kit/scenarios'` and paste what reports print.
export * from '../sim/program/build.js'
export * as arbitraries from './arbitraries/index.js'

export { findScenario, SCENARIOS } from './catalog/catalog.js'

export { CAMPAIGN_STRATEGIES, CampaignError, DEFAULT_GUIDANCE, runCampaign, scenarioMix } from './campaign/campaign.js'
export { strategyForSeed } from './campaign/seed-strategy.js'
export { drawForSeed, programForSeed } from './campaign/draw.js'
export type { CampaignFailure, CampaignOptions, CampaignProgress, CampaignReport, CampaignStrategy, Shard, SharedViolation, StateCoverage } from './campaign/campaign.js'
export { checkAll, DEFAULT_SHRINK_BUDGET, measureRun, programCandidates, shrinkRun, sizeOf } from './campaign/shrink.js'
export type { RunSize, ShrinkOptions, ShrinkResult, ShrinkViolation } from './campaign/shrink.js'
export * as guidance from './guidance/index.js'
