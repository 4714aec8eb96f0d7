/**
 * Named race scenarios and the fast-check arbitraries for random programs: the public face of
 * `scenarios/`.
 * @module
 */
import { CANCEL } from './cancel.js'
import { INPUT } from './input.js'
import { LISTENERS } from './listeners.js'
import { OWNER_UNLOAD } from './owner-unload.js'
import { REENTRANT } from './reentrant.js'
import { RESUME } from './resume.js'
import { SAME_ID } from './same-id.js'
import type { Scenario } from './scenario.js'
import { TEARDOWN } from './teardown.js'

export { CLAUSE_GROUPS, defineScenario, goal, ScenarioError } from './scenario.js'
export type { ClauseGroup, Goal, Scenario } from './scenario.js'
export { reachGoals, scenarioStrategies } from './reach.js'
export type { ReachOptions, ReachReport, UnexpectedOutcome } from './reach.js'
export * as goals from './goals.js'
export * as build from './build.js'
export * as arbitraries from './arbitraries/index.js'

/** Every named scenario, grouped by theme in file order. */
export const SCENARIOS: readonly Scenario[] = [
  ...SAME_ID, ...OWNER_UNLOAD, ...TEARDOWN, ...REENTRANT, ...LISTENERS, ...CANCEL, ...INPUT, ...RESUME,
]

/** The scenario called `name`; throws listing the valid names. */
export function findScenario(name: string): Scenario {
  const found = SCENARIOS.find((s) => s.name === name)
  if (!found) throw new Error(`unknown scenario ${JSON.stringify(name)}; expected one of: ${SCENARIOS.map((s) => s.name).join(', ')}`)
  return found
}

export { CAMPAIGN_STRATEGIES, CampaignError, programForSeed, runCampaign, strategyForSeed } from './campaign.js'
export type { CampaignFailure, CampaignOptions, CampaignProgress, CampaignReport, CampaignStrategy, Shard, SharedViolation } from './campaign.js'
export { formatCampaign, formatCampaignFailure, formatSizes } from './campaign-report.js'
export type { FormatCampaignOptions } from './campaign-report.js'
export { measureRun, programCandidates, shrinkRun, sizeOf } from './shrink.js'
export type { RunSize, ShrinkOptions, ShrinkResult } from './shrink.js'
export * as timeline from './timeline/index.js'
