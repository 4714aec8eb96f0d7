/**
 * The records of a certification: its options, its progress events, and the certificate itself
 * (every clause's verdict, each failure with its replay and shrink). Types only, shared by the
 * certify machinery (`certify.ts`, `unit.ts`, `shrink.ts`, `worker.ts`) and everything that reads a
 * certificate, so none of them imports another for a type.
 * @module
 */
import type { Program } from '../../sim/program/program.js'
import type { RunSize } from '../../sim/shrink.js'
import type { Supports } from '../adapters/adapter.js'
import type { Tier } from '../clauses/tiers.js'
import type { Profile } from './plan.js'
import type { InteractionCoverageLevel } from '../interaction/scope.js'

export type { Tier }

/** Progress events while certifying. */
export type Progress =
  | { kind: 'phase'; phase: 'directed cases' | 'directed programs' | 'random programs' | 'shrinking'; total: number }
  | { kind: 'tick'; done: number; total: number; failures: number }

/** Options of {@link certify}. */
export interface CertifyOptions {
  readonly profile?: Profile['name']
  /** Where failing runs are saved as replayable run files (default `.dsh-kit/failures`). */
  readonly outDir?: string
  /**
   * The adapter module path as the user named it; recorded in run files and replay commands, and
   * what worker threads import (see `workers`).
   */
  readonly adapterModule?: string
  /**
   * The adapter was already probed in a watched worker (the CLI's `describeAdapter`), and `adapter`
   * may be its stand-in, which cannot install in this thread: skip the probe here.
   */
  readonly probed?: boolean
  readonly onProgress?: (progress: Progress) => void
  /** Base seed of the schedules and random programs (default 0). */
  readonly seed?: number
  /** Stop at the first failing MUST clause (mutation testing: "is it caught, and by what?"). */
  readonly failFast?: boolean
  /**
   * Shrink each failing clause's simulated counterexample before reporting it, as fuzz does
   * (default true); the report then gives the shrunk run first and the run as found after it.
   */
  readonly shrink?: boolean
  /** Only these clauses (`"AGENT-ATOMIC-TEST 64"` or `64`): their directed cases, and the runs only if a checker covers one. */
  readonly only?: readonly (string | number)[]
  /**
   * Run the units in this many worker threads, each terminable by a watchdog (a unit that
   * livelocks synchronously or exhausts memory is charged to its clause). Needs `adapterModule`
   * unless the adapter is the built-in reference. Default: in this thread, where only hangs that
   * leave the event loop idle or busy are caught (a synchronous livelock cannot be interrupted).
   */
  readonly workers?: number
  /** Wall-clock budget of one directed case or simulated run (default 10 s). */
  readonly unitTimeoutMs?: number
  /** Asked between units: a reason stops the certification, which is then reported incomplete. */
  readonly shouldStop?: () => string | undefined
  /**
   * After this many units never finished (hangs and livelocks a watchdog had to stop, each costing
   * its timeout), the rest are not run: the certificate fails, incomplete, instead of taking hours
   * on a factory that livelocks everywhere (default 5).
   */
  readonly maxLostUnits?: number
}

/** The first counterexample found for a clause. */
export interface Failure {
  readonly message: string
  readonly via: 'directed case' | 'directed program' | 'random program' | 'interaction program'
  readonly caseTitle?: string
  readonly programName?: string
  readonly program?: Program
  readonly strategy?: string
  readonly seed?: number
  readonly decisions?: number
  readonly runFile?: string
  readonly replay?: string
  readonly timeline?: string
  /**
   * A simulated failure's shrink: when `shrink.shrunk`, the fields above (`program`, `decisions`,
   * `runFile`, `replay`, `timeline`, `message`) describe the shrunk run, while `programName`,
   * `strategy` and `seed` still say how it was found; `shrink.original` is the run as found.
   */
  readonly shrink?: FailureShrink
}

/** The verdict on one clause. */
export interface ClauseResult {
  readonly key: string
  readonly group: string
  readonly clause: number
  readonly title: string
  /**
   * `unchecked`: no directed case, program or checker checked it on this adapter (`reason` says
   * why). The kit's own unit tests never count as a check of a runtime: every clause about the
   * store, registry, inbox, initiator or sessions has a directed case run through the process port.
   * `unjudged`: only the trace checkers could check it, and in every simulated run that reached its
   * shape they declined to judge it (`declined` says why): it did not fail, and it did not pass.
   */
  readonly status: 'pass' | 'fail' | 'unchecked' | 'unjudged'
  /** Directed cases plus runs that checked it. */
  readonly checks: number
  /** What checked it (empty when unchecked). */
  readonly checkedBy: readonly CheckedBy[]
  /** Why it is unchecked: e.g. `needs capability scopeMinting`. */
  readonly reason?: string
  /** The clause's counterexample: a simulated run's when one failed it (it replays and shrinks), else a directed case's. */
  readonly failure?: Failure
  /** When a simulated run failed the clause too, the directed case's failure. */
  readonly caseFailure?: Failure
  /** Its tier in the contract (`../clauses/tiers.ts`); the verdict counts the MUSTs. Absent in certificates older than tiers: MUST. */
  readonly tier?: Tier
  /** The baseline lists it as failing or unchecked, and it still is: why, and where the reading is. */
  readonly known?: KnownEntry
  /**
   * For a clause the trace checkers check: the simulated runs in which its checker judged a unit of
   * it (a clause none of whose checks can decline is judged in every run), the runs that reached its
   * shape (a unit was judged or declined), per reason the runs in which a unit was declined (a
   * reason the contract leaves open starts with `§`; see `conformance/checkers/README.md`), and the
   * runs in which any unit was declined.
   */
  readonly judged?: number
  readonly reached?: number
  readonly declined?: Readonly<Record<string, number>>
  readonly declinedRuns?: number
}

/** Why a baseline lists a clause (`--baseline <file>`). */
export interface KnownEntry {
  readonly reason: string
  readonly link: string
}

/** A tier's clauses and how they came out. */
export interface TierTotals {
  readonly clauses: number
  readonly pass: number
  readonly fail: number
  readonly unchecked: number
}

/**
 * How the verdict was reached. It counts the MUST clauses: each one failing, or left unchecked, fails
 * the certificate unless the baseline lists it; a baseline entry no longer true (the clause now
 * passes, or is unchecked where it was failing) fails it too.
 */
export interface Gate {
  /** Failing MUST clauses the baseline does not list (every failing MUST clause without a baseline). */
  readonly newFailures: readonly string[]
  /** MUST clauses left unchecked that the baseline does not list. */
  readonly newUnchecked: readonly string[]
  /** Failing clauses of the other tiers the baseline does not list: reported, not counted. */
  readonly uncounted: readonly string[]
  /** Present when a baseline was applied. */
  readonly baseline?: GateBaseline
}

/** What a baseline made of a certificate. */
export interface GateBaseline {
  /** The file, as the user named it. */
  readonly file?: string
  readonly kit: string
  readonly contract: string
  readonly adapter: string
  /** Listed failures that still fail. */
  readonly knownFailures: readonly string[]
  /** Listed unchecked clauses that are still unchecked. */
  readonly knownUnchecked: readonly string[]
  /** Entries no longer true: each fails the certificate until the baseline is updated. */
  readonly stale: readonly StaleEntry[]
  /** Listed clauses this certification did not cover (`--only`): neither known nor stale. */
  readonly notCovered: readonly string[]
}

/** A baseline entry that is no longer true. */
export interface StaleEntry {
  readonly clause: string
  /** The list the entry is in. */
  readonly listed: 'failures' | 'unchecked'
  /** What the clause is now. */
  readonly now: 'pass' | 'fail' | 'unchecked'
}

/** How a clause was checked: by a directed case, a directed program aimed at it, or a trace checker over the simulated runs. */
export type CheckedBy = 'case' | 'program' | 'checker'

/** A certificate. */
export interface Report {
  readonly suite: { readonly version: string }
  readonly adapter: { readonly name: string; readonly version: string; readonly supports: Supports; readonly reproduces?: string; readonly module?: string }
  readonly profile: Profile['name']
  readonly seed: number
  readonly runs: number
  readonly directedCases: number
  readonly durationMs: number
  readonly clauses: readonly ClauseResult[]
  /** Every planned unit ran. */
  readonly complete: boolean
  /** Why not (a stop, a deadline, an interrupt), when `complete` is false. */
  readonly incomplete?: string
  /** Units planned and units that ran. */
  readonly units: { readonly planned: number; readonly ran: number }
  /**
   * The verdict: the certification completed, something was checked, and no MUST clause fails or is
   * left unchecked, unless the baseline lists it (and every baseline entry still holds; see `gate`).
   */
  readonly passed: boolean
  /** Keys of failing clauses. */
  readonly failing: readonly string[]
  /** Each tier's totals (absent in certificates older than tiers). */
  readonly tiers?: Readonly<Record<Tier, TierTotals>>
  /** How the verdict was reached (absent in certificates older than tiers). */
  readonly gate?: Gate
  /**
   * Interaction coverage of the simulated runs (`conformance/interaction/`): of the scope's
   * feasible t-way combinations (t = 2, 3), how many the runs exercised.
   */
  readonly interactionCoverage?: readonly InteractionCoverageLevel[]
}

/** How a simulated failure was shrunk (see {@link Failure.shrink}). */
export interface FailureShrink {
  /**
   * The failure's program, decisions and run file are the shrunk run's. `false`: shrinking did not
   * apply (the failure did not reproduce under a guided replay, or the shrink was cut short: see
   * `note`) and the failure is the run as found.
   */
  readonly shrunk: boolean
  /** Runs the shrink spent. */
  readonly runs: number
  /** The run as found and as reported, measured (absent when the shrink could not finish). */
  readonly before?: RunSize
  readonly after?: RunSize
  /** The run as found. */
  readonly original: { readonly program: Program; readonly decisions: number; readonly runFile?: string; readonly replay?: string }
  /** Why the failure was not shrunk, when it was not. */
  readonly note?: string
}
