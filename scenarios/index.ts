/**
 * Named race scenarios, the program builders (`program`, `actor`, `create`, `on`, `act`, …: the
 * language reports print programs in), and the fast-check arbitraries for random programs: the
 * public face of `scenarios/`.
 * @module
 */
export { CLAUSE_GROUPS, defineScenario, goal, ScenarioError } from './scenario.js'
export type { ClauseGroup, Goal, Scenario } from './scenario.js'
export { reachGoals, scenarioStrategies } from './reach.js'
export type { ReachOptions, ReachReport, UnexpectedOutcome } from './reach.js'
export * as goals from './goals.js'
export * as build from './build.js'
// The program builders at the top level too, so a program file can
// `import { program, actor, create, on, act } from 'dsh-lifecycle-kit/scenarios'` and paste what reports print.
export * from './build.js'
export * as arbitraries from './arbitraries/index.js'

export { findScenario, SCENARIOS } from './catalog.js'

export { CAMPAIGN_STRATEGIES, CampaignError, DEFAULT_GUIDANCE, drawForSeed, programForSeed, runCampaign, scenarioMix, strategyForSeed } from './campaign.js'
export type { CampaignFailure, CampaignOptions, CampaignProgress, CampaignReport, CampaignStrategy, Shard, SharedViolation, StateCoverage } from './campaign.js'
export { formatCampaign, formatCampaignFailure, formatSizes } from './campaign-report.js'
export type { FormatCampaignOptions } from './campaign-report.js'
export { checkAll, DEFAULT_SHRINK_BUDGET, measureRun, programCandidates, shrinkRun, sizeOf } from './shrink.js'
export type { RunSize, ShrinkOptions, ShrinkResult, ShrinkViolation } from './shrink.js'
export * as timeline from './timeline/index.js'
export * as certificate from './certificate/index.js'
export * as guidance from './guidance/index.js'
