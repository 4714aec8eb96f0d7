/**
 * What every unit of a campaign shares, and what a unit's result is: the settings, the context built
 * from them once per thread, the results the ledger takes, and the choices that are functions of a
 * seed alone (whether it runs the interaction suite; its strategy is `seed-strategy.ts`'s, its
 * program `seed.ts`'s). The thread that feeds a campaign's workers needs these, not the simulator,
 * the strategies or the checkers (loading them was a good share of its start-up).
 * @module
 */
import { normalizeAdapter, REFERENCE_ADAPTER } from '../../conformance/adapters/adapter.js'
import type { Adapter, NormalizedAdapter } from '../../conformance/adapters/adapter.js'
import { DeclineTally } from '../../conformance/checkers/declines.js'
import type { DecisionLog } from '../../sim/trace/decision-log.js'
import type { RunOutcome } from '../../sim/engine/index.js'
import type { Program } from '../../sim/program/program.js'
import { OPERATION_KINDS } from '../../sim/program/program.js'
import type { ArbitraryOptions } from '../arbitraries/index.js'
import { scenarioMix } from './scenario-seeds.js'
import type { CampaignStrategy } from './types.js'
import { SCENARIOS } from '../catalog/catalog.js'
import type { Scenario } from '../catalog/scenario.js'
import { LoadedPrograms } from '../guidance/guided-draw.js'
import type { DrawnProgram, StoredProgram } from '../guidance/guided-draw.js'
import { TransitionTable } from '../guidance/transition-table.js'
import { interactionIndexOfSeed } from '../interaction/seeds.js'

/** The settings every unit of a campaign shares (structured-cloneable: it crosses into workers). */
export interface CampaignSettings {
  /** The adapter module as the user named it (absent: the built-in reference, or `adapter` in-thread). */
  readonly adapterModule?: string
  /** A scenario campaign's scenario, by name. */
  readonly scenario?: string
  /**
   * The program of a scenario that is not the catalog's (a user's program under `dsh-kit run`): it
   * has no goals, so a worker rebuilds it from the program alone.
   */
  readonly scenarioProgram?: { readonly program: Program; readonly expectDeadlock?: boolean }
  readonly strategy: CampaignStrategy
  readonly seed: number
  readonly arbitrary: ArbitraryOptions
  readonly dfsSchedules: number
  readonly shrink: boolean
  readonly shrinkBudget?: number
  /** Compare with the built-in reference factory (unless the adapter is the reference). */
  readonly baseline: boolean
  readonly differential: boolean
  /** Where failing runs are written; nothing is written when absent. */
  readonly outDir?: string
  /** Random-program mode: draw programs from the corpus of earlier seeds (see `guidance/`). */
  readonly guidance: boolean
  /** Random-program mode: mix the named scenarios in (every fourth seed block). */
  readonly mixScenarios: boolean
  /**
   * Random-program mode and the interaction suite (`interaction/`): `mix` runs a program of it beside
   * the own program of one seed in 16 (the default), `only` runs nothing else (an interaction
   * campaign), `off` never.
   */
  readonly interactions: 'mix' | 'only' | 'off'
}

/** What a unit needs at hand: the settings plus everything built from them once per thread. */
export interface CampaignContext {
  readonly settings: CampaignSettings
  readonly adapter: NormalizedAdapter
  readonly baseline: NormalizedAdapter | undefined
  readonly scenario: Scenario | undefined
  readonly mix: readonly Scenario[]
  /**
   * Per thread (see {@link coverageToReport}): each coverage key and the lowest run seed whose result
   * reported it, and the highest of those seeds over every key once every key is there.
   */
  readonly coverage: { readonly reported: Map<string, number>; allBelow: number }
  /**
   * Per thread, in a guided campaign: the transitions of every seed this thread ran. A seed that
   * reached one of none of them sends its program with its result (see {@link SeedResult.program}).
   */
  readonly seen: TransitionTable
  /** Per thread, in a guided campaign: corpus programs loaded as parents and donors of mutants. */
  readonly loaded: LoadedPrograms
  /** Per thread: what the checkers judged and declined in the run being checked. */
  readonly tally: DeclineTally
  /** Per thread: each interaction (by key) and the lowest run seed whose result reported it. */
  readonly interactions: Map<string, number>
}

/**
 * Build a unit context from the settings and the (already loaded) adapter. The scenario is the one
 * given (in this thread) or the catalog's of that name (in a worker, which only gets its name).
 */
export function campaignContext(settings: CampaignSettings, adapterInput: Adapter, baselineInput: Adapter | undefined, scenarioGiven?: Scenario): CampaignContext {
  const adapter = normalizeAdapter(adapterInput, settings.adapterModule ?? 'adapter')
  const scenario = scenarioGiven ?? (settings.scenario === undefined ? undefined : settings.scenarioProgram
    ? { name: settings.scenario, title: settings.scenario, groups: [], goals: [], program: settings.scenarioProgram.program, ...(settings.scenarioProgram.expectDeadlock ? { expectDeadlock: true } : {}) }
    : SCENARIOS.find((s) => s.name === settings.scenario))
  if (settings.scenario !== undefined && scenario === undefined) throw new Error(`campaign: unknown scenario ${JSON.stringify(settings.scenario)}`)
  return {
    settings, adapter, scenario, mix: settings.mixScenarios && settings.interactions !== 'only' ? scenarioMix(settings.arbitrary) : [],
    coverage: { reported: new Map(), allBelow: Number.POSITIVE_INFINITY }, interactions: new Map(),
    tally: new DeclineTally(), seen: new TransitionTable(), loaded: new LoadedPrograms(),
    baseline: settings.baseline && baselineInput !== undefined && baselineInput !== adapterInput ? normalizeAdapter(baselineInput, 'baseline') : undefined,
  }
}

/** One run of a seed, as the ledger needs it. */
export interface SeedRun {
  /**
   * The schedule strategy of a run that violated something (its report names it); '' for any other
   * run, whose strategy nobody reads: a unique string per run was a good share of a result's cost
   * to send.
   */
  readonly strategy: string
  readonly outcome: RunOutcome['kind']
  /** The run's violations, after the campaign's filters (a scenario's expected deadlocks) and differential mode. */
  readonly violations: readonly { readonly key: string; readonly message: string }[]
  /** Violations the baseline shows too (differential mode), not counted. */
  readonly shared: readonly { readonly key: string; readonly message: string }[]
  /** The run's program and log, kept only when it violated something (it will be reported). */
  readonly failing?: { readonly program: Program; readonly decisions: DecisionLog }
  /** The run never finished (its worker was stopped): only its program is known. */
  readonly lost?: { readonly program: Program }
  /** Goals (by campaign name) this run reached. */
  readonly goals: readonly string[]
  /** What the checkers judged and declined in it (`DeclineTally.takeRun` cells); absent for a run that never finished. */
  readonly declines?: readonly number[]
}

/** What one run seed did. */
export interface SeedResult {
  readonly r: number
  /**
   * Coverage keys of the seed's program (random-program mode) that its thread had not already
   * reported for a lower seed (see {@link coverageToReport}).
   */
  readonly coverage: readonly string[]
  /**
   * The abstract transitions its runs went through (`guidance/state-coverage.ts`), a union over its
   * runs, as sorted hashes (`guidance/transition-table.ts`): cheap to post from a worker.
   */
  readonly transitions: ArrayLike<number>
  /**
   * The interactions its runs exercised (`conformance/interaction/features.ts`, by key), those its
   * thread had not already reported for a lower seed (as {@link coverage}).
   */
  readonly interactions?: readonly string[]
  readonly runs: readonly SeedRun[]
  /** Its program came from the corpus (a guided campaign's mutant): it reruns only with the seeds before it. */
  readonly fromCorpus?: true
  /**
   * A guided campaign's seed whose runs reached a transition no earlier seed of its thread reached:
   * its program, for the corpus. The ledger keeps a program whose seed reached a transition no
   * earlier seed of the campaign reached, and a thread runs its seeds in seed order, so every seed
   * the corpus keeps sends its program (most others do not).
   */
  readonly program?: StoredProgram
}

/** A goal's name in a campaign: the scenario's own, or `<scenario>: <goal>` in random-program mode. */
export function goalName(ctx: CampaignContext, of: Scenario, goal: string): string {
  return ctx.scenario ? goal : `${of.name}: ${goal}`
}

/** Whether run seed `r` runs the interaction suite (and which index of it): every seed of an interaction campaign, one in 16 of a mixed one. */
export function interactionIndex(ctx: CampaignContext, r: number): number | undefined {
  if (ctx.scenario || ctx.settings.interactions === 'off') return undefined
  return ctx.settings.interactions === 'only' ? r : interactionIndexOfSeed(r)
}

/** What to report about one failing run (the ledger decides which runs are reported). */
export interface FailureToReport {
  readonly key: string
  /** The violation as the run found it (kept when the failure cannot be replayed). */
  readonly message?: string
  readonly keys: readonly string[]
  readonly program: Program
  readonly decisions: DecisionLog
  readonly strategy: string
  readonly r: number
  /** The campaign's run count when it was found (0-based). */
  readonly run: number
  /** The command that reruns the original run. */
  readonly rerun: string
}

/** The reference adapter, the default baseline. */
export const DEFAULT_BASELINE: Adapter = REFERENCE_ADAPTER

/**
 * Operation kinds a campaign may generate for an adapter: no resume, restart or crash without resume
 * support, no crash without the `crash` capability.
 */
export function operationsFor(adapter: NormalizedAdapter): ArbitraryOptions {
  if (adapter.supports.resume && adapter.supports.crash) return {}
  return { operations: OPERATION_KINDS.filter((k) => k !== 'crash' && (adapter.supports.resume || (k !== 'resume' && k !== 'restart'))) }
}
