/**
 * The types of a fuzz campaign: its options, its progress and its report.
 * @module
 */
import type { Adapter } from '../../conformance/adapters/adapter.js'
import type { ClauseTally, Violation } from '../../conformance/checkers/index.js'
import type { KnownEntry } from '../../conformance/certify/report.js'
import type { DecisionLog } from '../../sim/trace/decision-log.js'
import type { RunOutcome } from '../../sim/engine/index.js'
import type { Program } from '../../sim/program/program.js'
import type { ArbitraryOptions } from '../arbitraries/index.js'
import type { Scenario } from '../catalog/scenario.js'
import type { RunSize } from './shrink.js'
import type { InteractionCoverageLevel } from '../../conformance/interaction/scope.js'

/** The schedule strategies a campaign can use. */
export const CAMPAIGN_STRATEGIES = ['random', 'pct', 'dfs', 'portfolio'] as const
export type CampaignStrategy = (typeof CAMPAIGN_STRATEGIES)[number]

/** Whether a random-program campaign is guided by state coverage unless told otherwise. */
export const DEFAULT_GUIDANCE = true

/** Run seeds a random-program campaign uses when given neither `runs` nor `shouldStop`. */
export const DEFAULT_RUNS = 100

/**
 * Runs a scenario campaign uses when given neither `runs` nor `shouldStop`: enough for the
 * portfolio's schedules to reach every goal of every named scenario (the slowest need about 300).
 */
export const DEFAULT_SCENARIO_RUNS = 500

/** A shard of the seed range: `index` of `count`, 1-based. */
export interface Shard {
  readonly index: number
  readonly count: number
}

/** Options of {@link runCampaign}. */
export interface CampaignOptions {
  /** The factory under test; the reference factory by default. */
  readonly adapter?: Adapter
  /** The adapter's module path as the user named it: recorded in run files and commands. */
  readonly adapterModule?: string
  /** Explore this scenario instead of random programs (`dsh-kit run` passes a user's program as one, with no goals). */
  readonly scenario?: Scenario
  /**
   * How a rerun command starts, instead of `npx dsh-kit fuzz [--scenario NAME]`: `dsh-kit run`
   * passes `npx dsh-kit run <program file>`; `--adapter`, `--strategy` and the seeds follow.
   */
  readonly rerunAs?: string
  /** Default `portfolio`. */
  readonly strategy?: CampaignStrategy
  /** Base seed, a non-negative integer (default 0). */
  readonly seed?: number
  /**
   * Run seeds to use at most: default {@link DEFAULT_RUNS} for random programs and
   * {@link DEFAULT_SCENARIO_RUNS} for a scenario, unbounded when `shouldStop` is given.
   */
  readonly runs?: number
  /** Default 1/1. */
  readonly shard?: Shard
  /**
   * Checked before each run: `true` or `'time'` ends the campaign as out of time (the CLI's time
   * budget), `'interrupted'` as interrupted (a signal); the report says which.
   */
  readonly shouldStop?: () => boolean | 'time' | 'interrupted'
  /** Where failing runs are written as run files; nothing is written when absent. */
  readonly outDir?: string
  /** Keep going after the first failing run, shrinking the first run of each new clause (default false). */
  readonly keepGoing?: boolean
  /** Shrink failures before reporting them (default true). */
  readonly shrink?: boolean
  /** Runs a shrink may spend (default: the shrinker's). */
  readonly shrinkBudget?: number
  /** Schedules per random program under `dfs` (default 8). */
  readonly dfsSchedules?: number
  /** Options of the program generator (random-program mode). */
  readonly arbitrary?: ArbitraryOptions
  /**
   * Random-program mode: state-coverage guidance (`guidance/`). Programs that reached an abstract
   * transition of the runtime no earlier run reached are kept in a corpus, and most later seeds run
   * a mutant of a corpus program instead of a fresh one. Default {@link DEFAULT_GUIDANCE}.
   */
  readonly guidance?: boolean
  /** Random-program mode: mix the named scenarios in, every fourth seed block (default true). */
  readonly mixScenarios?: boolean
  /**
   * The interaction suite (`conformance/interaction/`, `interaction/seeds.ts`): `mix` (default) runs
   * a program of it beside the own program of one seed in 16; `only` is an interaction campaign (seed `r` runs index `r` of the mode's
   * stream: by default every program of the suite in its two bounded passes, then it stops as
   * exhausted); `off` never.
   */
  readonly interactions?: 'mix' | 'only' | 'off'
  /**
   * The factory every violation is cross-checked against: the violating run is replayed on it
   * (guided, since its run may diverge) to see whether it shows the same clause too. Default the
   * reference factory; `false`, or an adapter that is the baseline itself, turns the check off.
   */
  readonly baseline?: Adapter | false
  /**
   * Violations the baseline shows too under the same schedule do not count against the adapter:
   * they are listed under `shared` (likely checker false positives or contract ambiguities), do
   * not stop the campaign and do not fail it. Default false: every violation counts.
   */
  readonly differential?: boolean
  /**
   * Clauses already known to fail (a baseline's failures and findings, `dsh-kit fuzz --baseline`):
   * a violation of one is reported as known, does not stop the campaign and does not fail it.
   */
  readonly known?: ReadonlyMap<string, KnownEntry>
  readonly onProgress?: (progress: CampaignProgress) => void
  /**
   * Resume from and save to a checkpoint (`checkpoint.ts`): a campaign whose programs are functions
   * of their seeds alone (unguided, or an interaction campaign) restarts where `restore` stopped and
   * reports exactly what one uninterrupted campaign would; `save` is called with the growing state
   * after each seed the ledger takes and each failure report (the caller decides when to write it).
   */
  readonly checkpoint?: { readonly restore?: CampaignCheckpoint; readonly save: (state: CampaignCheckpoint) => void }
  /**
   * Run the seeds in this many watched worker threads (a run that livelocks or exhausts memory is
   * charged to its seed as a livelock). Needs `adapterModule` unless the adapter is the built-in
   * reference. Default: in this thread. The report of a `runs` budget is the same for any number.
   */
  readonly workers?: number
  /**
   * With `workers`: replace a worker thread by a fresh one after this many run seeds (and failure
   * reports) (0: never). Default: the adapter's `recycleAfter`, else never. The report is the same
   * with or without it; each replacement pays a worker's start-up again. A DFS over a scenario runs
   * in one worker that holds the tree, and is not recycled.
   */
  readonly recycleAfter?: number
}

/**
 * A campaign's checkpoint: which campaign (`key`, its settings), every seed result the ledger took,
 * in seed order, and the report of each failure found so far (by slot).
 */
export interface CampaignCheckpoint {
  readonly v: 1
  readonly key: string
  readonly results: unknown[]
  readonly failures: (CampaignFailure | null)[]
}

/** Progress while a campaign runs. */
export interface CampaignProgress {
  readonly phase: 'running' | 'shrinking'
  /** Runs (program executions) so far. */
  readonly runs: number
  /** Run seeds taken so far, and how many the campaign will take at most when that is known (a `runs` budget, an interaction campaign's stream). */
  readonly seeds?: number
  readonly plannedSeeds?: number
  readonly violatingRuns: number
  /** Distinct violated clauses so far. */
  readonly failures: number
  /** Scenario goals not reached yet (scenario mode). */
  readonly unreachedGoals?: number
  /** The clause being shrunk. */
  readonly key?: string
  /** The run seed of the run just done. */
  readonly runSeed?: number
}

/** A violated clause, as first found and then shrunk. */
export interface CampaignFailure {
  readonly key: string
  /** The violation's message in the reported (shrunk) run. */
  readonly message: string
  /**
   * The run seed that found it (for a DFS over a scenario: the schedule's index in the tree), and
   * the campaign's run count then (0-based).
   */
  readonly runSeed: number
  readonly run: number
  /** The strategy of the run that found it. */
  readonly strategy: string
  /** Other clauses the same original run violated. */
  readonly alsoViolated: readonly string[]
  /** The reported run: the shrunk one (or the original when shrinking was off or did not reproduce). */
  readonly program: Program
  readonly decisions: DecisionLog
  readonly violations: readonly Violation[]
  readonly hash: string
  readonly outcome: RunOutcome['kind']
  readonly before: RunSize
  readonly after: RunSize
  readonly shrink?: { readonly runs: number; readonly reproduced: boolean }
  /** A strict replay of the saved log reproduced the same trace hash. */
  readonly replayVerified: boolean
  readonly originalProgram: Program
  readonly runFile?: string
  readonly replay?: string
  /** The dsh-kit command that reruns the original run from its seed. */
  readonly rerun: string
  /** The reported run's swim-lane timeline, as text. */
  readonly timeline: string
  /**
   * The baseline (reference) factory on the reported run, replayed guided: the clauses it
   * violates too (so `key` among them means the checker flags the reference as well), and how
   * many of the run's picks it could follow.
   */
  readonly baseline?: { readonly name: string; readonly violates: readonly string[]; readonly followed: number; readonly picks: number }
  /** The clause is known to fail (listed in the baseline file given with `--baseline`): why, and where the reading is. */
  readonly known?: KnownEntry
}

/** A clause the baseline violates as well under the same schedules (differential mode). */
export interface SharedViolation {
  readonly key: string
  readonly message: string
  /** Runs where both the adapter and the baseline violated it. */
  readonly runs: number
  readonly firstRunSeed: number
}

/**
 * State coverage: the abstract transitions of the runtime the runs went through
 * (`guidance/state-coverage.ts`), and how many were covered after 10%, 50% and 100% of the runs.
 */
export interface StateCoverage {
  readonly transitions: number
  readonly growth: readonly { readonly share: number; readonly runs: number; readonly transitions: number }[]
  /** A guided campaign's corpus: programs kept, and seeds that ran a mutant of one. */
  readonly corpus?: { readonly entries: number; readonly mutatedSeeds: number }
  /** A merged report: the largest shard's count (shards' transitions overlap; their union is not known). */
  readonly lowerBound?: true
  /**
   * The runs taken when the campaign's table of transitions filled (`guidance/transition-table.ts`,
   * `MAX_TRANSITIONS`): transitions first reached after it are not counted and keep no program.
   * Absent while the table has room.
   */
  readonly fullSince?: number
}

/** What a campaign found. */
export interface CampaignReport {
  readonly mode: 'programs' | 'scenario'
  readonly scenario?: string
  readonly adapter: string
  readonly strategy: CampaignStrategy
  readonly seed: number
  readonly shard: Shard
  /** Program executions. */
  readonly runs: number
  /** Run seeds used (random programs drawn, or scenario runs). */
  readonly seeds: number
  readonly stoppedBy: 'runs' | 'time' | 'failure' | 'exhausted' | 'interrupted'
  readonly outcomes: Record<RunOutcome['kind'], number>
  readonly violatingRuns: number
  /** Violating runs per clause. */
  readonly violationCounts: Record<string, number>
  readonly failures: readonly CampaignFailure[]
  /** Differential mode: violations the baseline shows too, not counted against the adapter. */
  readonly shared: readonly SharedViolation[]
  /**
   * Each goal's first run (0-based), and the goals never reached: the scenario's, or in random-program
   * mode those of every scenario mixed in, named `<scenario>: <goal>`.
   */
  readonly goals?: { readonly reached: Record<string, number | undefined>; readonly missed: readonly string[] }
  /** Random-program mode: coverage keys the drawn programs exercised, and the ones never exercised. */
  readonly coverage?: { readonly exercised: number; readonly total: number; readonly missing: readonly string[] }
  /** Random-program mode: whether programs were guided by state coverage. */
  readonly guidance?: 'on' | 'off'
  readonly stateCoverage?: StateCoverage
  /** The clauses the baseline file listed as known (`--baseline`): their violations do not fail the campaign. */
  readonly knownClauses?: readonly string[]
  /**
   * Per checked clause, what the trace checkers judged and declined over the runs (`judged`,
   * `reached`, `declined` by reason, `blind`: see `conformance/checkers/declines.ts`).
   */
  readonly clauses?: readonly ClauseTally[]
  /** Random-program mode: whether the interaction suite was mixed in, the only source, or off. */
  readonly interactions?: 'mix' | 'only' | 'off'
  /**
   * Interaction coverage (`conformance/interaction/`): of the scope's feasible t-way combinations
   * (t = 2, 3), how many the runs exercised.
   */
  readonly interactionCoverage?: readonly InteractionCoverageLevel[]
  /** The distinct interactions exercised (keys, sorted): what `merge` unions. */
  readonly interactionsExercised?: readonly string[]
  /** The operation kinds the interaction scope was built for, when the adapter's programs could not use them all. */
  readonly interactionOperations?: readonly string[]
  /**
   * How the interaction coverage grew: `[runs, covered 2-way, covered 3-way]` after each run seed
   * that added a combination (the runs are counted up to and including that seed).
   */
  readonly interactionGrowth?: readonly (readonly [number, number, number])[]
  /** No run violated a clause, other than the known ones. */
  readonly passed: boolean
}

/** A campaign option was out of range; the message names it. */
export class CampaignError extends Error {
  override readonly name = 'CampaignError'
}

