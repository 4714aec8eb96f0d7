/**
 * The executor a fuzz worker thread runs (see `sim/pool/`): it loads the adapter itself (by module
 * path, or the built-in reference), builds the campaign's context once, and runs the units it is
 * posted: a run seed, or the report (shrink, save, describe) of one failure.
 * @module
 */
import { REFERENCE_ADAPTER } from '../../conformance/adapters/adapter.js'
import { loadAdapter } from '../../conformance/adapters/adapter-loader.js'
import { keepClockBetweenRuns } from '../../sim/world/clock.js'
import { keepTimerGlobals } from '../../sim/pool/timer-globals.js'
import type { UnitContext } from '../../sim/pool/protocol.js'
import { campaignContext, reportFailure, runSeed, treeStep } from './seed.js'
import { dfs } from '../../sim/strategies/index.js'
import type { Strategy } from '../../sim/strategies/index.js'
import type { CampaignContext, CampaignSettings, FailureToReport, SeedResult } from './seed.js'
import type { CampaignFailure } from './types.js'
import { ReceivedPrograms } from '../guidance/program-shipping.js'
import type { ShippedDraw } from '../guidance/program-shipping.js'

/** What each worker is initialised with (structured-cloneable). */
export interface CampaignWorkerInit {
  readonly settings: CampaignSettings
}

/**
 * One unit of a campaign: a run seed (with the program a guided campaign drew for it), a failure's
 * report, or schedule `j` of a DFS over the scenario's tree (the worker holds the DFS between them).
 */
export type CampaignUnit =
  | { readonly kind: 'seed'; readonly r: number; readonly drawn?: ShippedDraw }
  | { readonly kind: 'report'; readonly failure: FailureToReport }
  | { readonly kind: 'tree'; readonly j: number }

/** Load the adapter and build the context, once per worker. */
export async function init(data: CampaignWorkerInit): Promise<CampaignContext> {
  // This thread does nothing but runs: one virtual clock, reset per run, instead of one per run.
  keepClockBetweenRuns()
  const { value: adapter } = await keepTimerGlobals(async () => data.settings.adapterModule === undefined ? REFERENCE_ADAPTER : loadAdapter(data.settings.adapterModule!))
  // The interaction suite is built as far as this thread's seeds read it (`InteractionSuite.at`): a
  // few entries per interaction seed, the whole of it (0.15 s, about a second on a loaded machine,
  // within a seed's busy limit of 3 s) only for a thread whose first seeds lie past it.
  return campaignContext(data.settings, adapter, data.settings.baseline ? REFERENCE_ADAPTER : undefined)
}

/** The corpus programs this worker was sent (a seed names those it was sent before by seed alone). */
const received = new ReceivedPrograms()

/** The DFS over the scenario's tree this worker explores, and the schedule it runs next. */
let tree: { readonly strategy: Strategy; next: number } | undefined

/** Run one unit. */
export async function run(ctx: CampaignContext, unit: CampaignUnit, _context: UnitContext): Promise<SeedResult | CampaignFailure | 'exhausted'> {
  if (unit.kind === 'seed') return runSeed(ctx, unit.r, unit.drawn === undefined ? undefined : received.receive(unit.drawn))
  if (unit.kind === 'report') return reportFailure(ctx, unit.failure)
  if (unit.j === 0) tree = { strategy: dfs({ preemptionBound: 2 }), next: 0 }
  if (tree === undefined || tree.next !== unit.j) throw new Error(`campaign worker: DFS schedule ${unit.j} asked of a worker at schedule ${tree?.next ?? 'none'}`)
  tree.next++
  return treeStep(ctx, tree.strategy, unit.j)
}
