/**
 * The conformance suite (design.md concept 6): for each clause group, the directed cases of
 * `cases/` (run through the process port, for factory and process adapters alike) and the directed programs of `programs.ts` run under many schedules, plus seeded
 * random programs, all checked by the trace checkers. `certify` returns a report per clause; a
 * failure carries its seed, program, decision log and a one-line replay command.
 *
 * The work is planned as independent units (`certify-plan.ts`), each run to a verdict that charges
 * whatever the code under test does (a hang, a crash, a throw of any value) to a clause
 * (`certify-unit.ts`), in this process or in terminable worker threads (`certify-worker.ts`), and
 * merged by unit index, so the certificate is the same whatever ran it. A certificate passes only
 * when every planned unit ran and nothing failed. Each failing clause whose counterexample is a
 * simulated run is then shrunk, in a second round of units (`certify-shrink.ts`).
 * @module
 */
import { runUnits } from '../../sim/pool/run-units.js'
import { AdapterError, normalizeAdapter, REFERENCE_ADAPTER } from '../adapters/adapter.js'
import { probeInstall } from '../adapters/probe.js'
import type { Adapter, NormalizedAdapter, Supports } from '../adapters/adapter.js'
import { adapterOperations, CertifyOptionError, DEFAULT_UNIT_TIMEOUT_MS, planCertify, PROFILES } from './plan.js'
import { interactionScope } from '../interaction/scope.js'
import type { CertifyPlan, CertifyUnit, Profile } from './plan.js'
import { clauseKey, lostVerdict, runCertifyUnit, strategyFor } from './unit.js'
import type { UnitEnv, UnitVerdict } from './unit.js'
import { lostShrinkVerdict, runShrinkUnit, runShrinks, shrinkTimeoutMs, shrinkUnits } from './shrink.js'
import type { CertifyOptions, CheckedBy, ClauseResult, Failure, FailureShrink, Report } from './report.js'
import { certifyOutDir, certifyWorkerInit, startCertifyPool, UNITS_AHEAD } from './certify-pool.js'
import type { CertifyPool } from './certify-pool.js'
import type { ShrinkUnit } from './shrink.js'
import { CHECKED_CLAUSES, unjudged } from '../checkers/index.js'
import { VerdictTally } from './verdict-tally.js'
import type { ClauseDeclines } from '../checkers/index.js'
import { CLAUSES } from '../clauses/clauses.js'
import { applyGate } from './gate.js'
import { tierOfKey } from '../clauses/tiers.js'

export { PROFILES, CertifyOptionError, clauseKey, strategyFor }
export { caseSkipReason, caseTarget, runCase } from './case-runner.js'
export type { Profile }
export type { CertifyOptions, CheckedBy, ClauseResult, Failure, FailureShrink, Progress, Report } from './report.js'
export type { Gate, GateBaseline, KnownEntry, StaleEntry, Tier, TierTotals } from './report.js'

/** Units that may be lost to watchdogs before a certification stops (see {@link CertifyOptions.maxLostUnits}). */
export const DEFAULT_MAX_LOST_UNITS = 5

/**
 * An interaction unit's watchdog in a worker, in unit timeouts: its runs are small and each is
 * watched in the worker; this only backs that up (a synchronous livelock starves the worker's own).
 */
const INTERACTION_UNIT_TIMEOUTS = 4

/** A directed program's unit's watchdog, in unit timeouts per this many of its schedules (at least the interaction unit's). */
const PROGRAM_SCHEDULES_PER_TIMEOUT = 8

/**
 * The pool's watchdog of `unit` (undefined: one unit timeout). A unit of many runs watches each
 * run itself; the pool's budget only backs that up, and must not cut a slow adapter's long unit
 * short (160 schedules of the upstream loop take about half a minute).
 */
function poolBudgetMs(unit: CertifyUnit, plan: CertifyPlan, unitTimeoutMs: number): number | undefined {
  if (unit.kind === 'interaction') return INTERACTION_UNIT_TIMEOUTS * unitTimeoutMs + 2_000
  if (unit.kind === 'program') return Math.max(INTERACTION_UNIT_TIMEOUTS, Math.ceil(plan.profile.schedules / PROGRAM_SCHEDULES_PER_TIMEOUT)) * unitTimeoutMs + 2_000
  return undefined
}

/** A hang that took a watchdog this long to stop counts against {@link CertifyOptions.maxLostUnits}. */
const COSTLY_HANG_MS = 1_000

/** The suite's version (reported with every certificate). */
export const SUITE_VERSION = '0.1.0'

/** What {@link certify} takes beside its {@link CertifyOptions}. */
export interface PooledOptions {
  /**
   * Workers already started for this certification (`startCertifyPool(workers, options)` with the
   * same `workers` and options): they load while this thread loads the suite. `certify` closes them.
   */
  readonly pool?: CertifyPool
  /**
   * Whether `certify` waits for its workers' threads to exit before it returns (default true). A
   * process that exits once it has printed the certificate need not: the threads are already told
   * to stop, and their exit takes a few tens of milliseconds the user would wait for.
   */
  readonly awaitWorkerExit?: boolean
}

/** Certify an adapter: every clause's verdict, with a replayable counterexample per failure. */
export async function certify(adapterInput: Adapter, options: CertifyOptions & PooledOptions = {}): Promise<Report> {
  try {
    return await certifyUnits(adapterInput, options)
  } finally {
    // (given workers are closed however the certification ends, a bad option included)
    await workersExit(options.pool?.pool.close(), options)
  }
}

/** Wait for closing workers to exit, unless the caller said not to (then a failure to close is not reported). */
async function workersExit(closing: Promise<void> | undefined, options: PooledOptions): Promise<void> {
  if (options.awaitWorkerExit !== false) await closing
  else void closing?.catch(() => undefined)
}

async function certifyUnits(adapterInput: Adapter, options: CertifyOptions & PooledOptions): Promise<Report> {
  const started = performance.now()
  const adapter = normalizeAdapter(adapterInput, options.adapterModule ?? 'adapter')
  const plan = planCertify(adapter, options)
  const unitTimeoutMs = options.unitTimeoutMs ?? DEFAULT_UNIT_TIMEOUT_MS
  if (!(unitTimeoutMs > 0)) throw new CertifyOptionError(`unitTimeoutMs must be a positive number of milliseconds, got ${String(unitTimeoutMs)}`)
  const workers = options.workers
  if (workers !== undefined && (!Number.isSafeInteger(workers) || workers < 1)) throw new CertifyOptionError(`workers must be an integer >= 1, got ${String(workers)}`)
  // The CLI probes in a watched worker first (`adapters/watched-adapter.ts`) and says so.
  if (options.probed !== true) await probeInstall(adapter, options.adapterModule ?? adapter.name)
  const outDir = certifyOutDir(options)
  const env: UnitEnv = { adapter, plan, outDir, unitTimeoutMs, ...(options.adapterModule ? { adapterModule: options.adapterModule } : {}) }
  const progress = options.onProgress ?? (() => undefined)
  progress({ kind: 'phase', phase: 'directed cases', total: plan.units.length })
  const failedClauses = new Set<string>()
  const maxLost = options.maxLostUnits ?? DEFAULT_MAX_LOST_UNITS
  let lost = 0
  let done = 0
  let stopReason: string | undefined
  const shouldStop = (): boolean => {
    if (options.failFast === true && [...failedClauses].some((key) => tierOfKey(key) === 'MUST')) return true
    stopReason ??= options.shouldStop?.()
    if (stopReason === undefined && lost >= maxLost) stopReason = `${lost} units never finished (hangs, livelocks, crashes or memory exhaustion the watchdog stopped), so the rest were not run`
    return stopReason !== undefined
  }
  // With `only`, a run's violations of other clauses are not reported, so they must not stop it either.
  const reported = (key: string): boolean => !plan.only || key.startsWith('X-RUN ') || plan.only.includes(Number(/\d+$/.exec(key)?.[0]))
  const tally = new VerdictTally(() => interactionScope({ operations: adapterOperations(adapter) }))
  const onVerdict = (_: number, verdict: UnitVerdict): void => {
    tally.add(verdict)
    // Hangs seen at once (the event loop went idle) cost nothing; those a watchdog had to wait out do,
    // and so does every unit whose worker was stopped and replaced (a crash or memory, however quick).
    if ((verdict.hungMs ?? 0) >= COSTLY_HANG_MS || verdict.lost !== undefined) lost++
    for (const f of verdict.failures) if (reported(f.key)) failedClauses.add(f.key)
    progress({ kind: 'tick', done: ++done, total: plan.units.length, failures: failedClauses.size })
  }
  let run
  let shrunk = new Map<string, Failure>()
  /** The workers stopping, while the report is built (their exit takes a few tens of milliseconds). */
  let closing: Promise<void> | undefined
  // Shrink unless stopped by a signal or a deadline (a fail-fast stop still reports its one failure shrunk).
  const toShrink = (verdicts: readonly (UnitVerdict | undefined)[]): ShrinkUnit[] => {
    const units = options.shrink === false || stopReason !== undefined ? [] : shrinkUnits(plan, verdicts)
    if (units.length > 0) progress({ kind: 'phase', phase: 'shrinking', total: units.length })
    return units
  }
  const stopShrinking = (): boolean => (stopReason ??= options.shouldStop?.()) !== undefined
  if (workers === undefined) {
    run = await runUnits(plan.units, (unit) => runCertifyUnit(env, unit), { concurrency: 1, shouldStop, onVerdict })
    shrunk = await runShrinks(toShrink(run.verdicts), (unit) => runShrinkUnit(env, unit), { concurrency: 1, shouldStop: stopShrinking })
  } else {
    if (options.adapterModule === undefined && adapterInput !== REFERENCE_ADAPTER) {
      throw new CertifyOptionError('workers need adapterModule: the module path each worker thread imports the adapter from')
    }
    const given = options.pool
    if (given !== undefined && (given.workers !== workers || JSON.stringify(given.init) !== JSON.stringify(certifyWorkerInit(options)))) {
      throw new CertifyOptionError('pool: its workers were started with other options than this certification\'s (give startCertifyPool the same workers and options)')
    }
    const { pool } = given ?? startCertifyPool(workers, options)
    try {
      run = await runUnits(plan.units, async (unit) => {
        // A program unit runs under many schedules, each watched in the worker (poolBudgetMs).
        const outcome = await pool.run(unit, poolBudgetMs(unit, plan, unitTimeoutMs))
        if (outcome.kind === 'done') return outcome.result
        if (outcome.kind === 'lost') return lostVerdict(env, unit, outcome.reason, outcome.detail, outcome.afterMs)
        throw outcome.error.name === 'AdapterError' ? new AdapterError(outcome.error.message) : outcome.error
      }, { concurrency: workers * UNITS_AHEAD, shouldStop, onVerdict })
      const found = run.verdicts
      shrunk = await runShrinks(toShrink(found), async (unit) => {
        const outcome = await pool.run(unit, shrinkTimeoutMs(unitTimeoutMs) + 2_000)
        if (outcome.kind === 'done') return outcome.result
        if (outcome.kind === 'lost') return lostShrinkVerdict(firstFailure(found, unit.key), unit, outcome.reason, outcome.detail)
        throw outcome.error
      }, { concurrency: workers, shouldStop: stopShrinking })
    } catch (error) {
      await pool.close()
      throw error
    }
    closing = pool.close()
  }
  const incomplete = run.stopped && stopReason !== undefined ? stopReason : undefined
  try {
    return buildReport(adapter, plan, run.verdicts, tally, shrunk, {
      durationMs: Math.round(performance.now() - started), ran: run.ran,
      ...(incomplete ? { incomplete } : {}),
      ...(options.adapterModule ? { module: options.adapterModule } : {}),
    })
  } finally {
    await workersExit(closing, options)
  }
}


/** The first failure of `key` in unit order (the one the certificate reports). */
function firstFailure(verdicts: readonly (UnitVerdict | undefined)[], key: string): Failure | undefined {
  for (const v of verdicts) for (const f of v?.failures ?? []) if (f.key === key) return f.failure
  return undefined
}

/**
 * Merge unit verdicts (by unit index) and their counts (`tally`, taken as they arrived) into the
 * certificate; `shrunk` replaces a clause's failure by its shrink.
 */
function buildReport(
  adapter: NormalizedAdapter, plan: CertifyPlan, verdicts: readonly (UnitVerdict | undefined)[], tally: VerdictTally, shrunk: ReadonlyMap<string, Failure>,
  meta: { durationMs: number; ran: number; incomplete?: string; module?: string },
): Report {
  const failures = new Map<string, Failure>()
  const caseFailures = new Map<string, Failure>()
  const { declines, runs, cases } = tally
  for (const verdict of verdicts) {
    if (verdict === undefined || verdict.kind === 'skipped') continue
    for (const f of verdict.failures) {
      if (verdict.kind === 'case' && !caseFailures.has(f.key)) caseFailures.set(f.key, f.failure)
      // A simulated counterexample replaces a case's as the clause's failure (it replays and shrinks).
      const before = failures.get(f.key)
      if (!before || (before.via === 'directed case' && verdict.kind === 'run')) failures.set(f.key, f.failure)
    }
  }
  const byProgram = new Set(plan.programs.flatMap((p) => p.clauses ?? []))
  const wanted = (clause: number): boolean => !plan.only || plan.only.includes(clause)
  const clauses: ClauseResult[] = CLAUSES.filter((c) => c.group === 'X-RUN' ? plan.simulate : wanted(c.clause)).map((c) => {
    const key = `${c.group} ${c.clause}`
    const failure = shrunk.get(key) ?? failures.get(key)
    const caseFailure = caseFailures.get(key)
    const n = c.group === 'X-RUN' ? runs : tally.checksOf(c.clause)
    const checkedBy: CheckedBy[] = []
    if (tally.hasCase(c.clause) && c.group !== 'X-RUN') checkedBy.push('case')
    if (runs > 0 && byProgram.has(c.clause) && c.group !== 'X-RUN') checkedBy.push('program')
    if (runs > 0 && (c.group === 'X-RUN' || CHECKED_CLAUSES.includes(c.clause))) checkedBy.push('checker')
    const checker = c.group !== 'X-RUN' && CHECKED_CLAUSES.includes(c.clause) && declines.runs > 0
    const counts = checker ? declines.of(c.clause) : undefined
    const status = clauseStatus(failure !== undefined, n, checkedBy, counts)
    const reason = status === 'unchecked' ? plan.skipped.get(c.clause) ?? 'no directed case, program or checker covers it' : undefined
    return {
      key, group: c.group, clause: c.clause, title: c.title, status, checks: n, checkedBy,
      ...(reason ? { reason } : {}), ...(failure ? { failure } : {}), ...(caseFailure && caseFailure !== failure ? { caseFailure } : {}),
      ...(counts ? { judged: counts.judged, reached: counts.reached, declined: counts.declined, declinedRuns: counts.declinedRuns } : {}),
    }
  })
  const failing = clauses.filter((c) => c.status === 'fail').map((c) => c.key)
  const complete = meta.incomplete === undefined && meta.ran === plan.units.length
  // The verdict counts the MUST clauses, and a MUST left unchecked is not passed (gate.ts).
  return applyGate({
    suite: { version: SUITE_VERSION },
    adapter: {
      name: adapter.name, version: adapter.version, supports: adapter.supports,
      ...(adapter.reproduces ? { reproduces: adapter.reproduces } : {}), ...(meta.module ? { module: meta.module } : {}),
    },
    profile: plan.profile.name,
    seed: plan.seed,
    runs,
    directedCases: cases,
    durationMs: meta.durationMs,
    clauses,
    complete,
    ...(complete ? {} : { incomplete: meta.incomplete ?? `only ${meta.ran} of ${plan.units.length} units ran` }),
    units: { planned: plan.units.length, ran: meta.ran },
    passed: failing.length === 0 && complete,
    failing,
    ...(runs > 0 ? { interactionCoverage: tally.interactionLevels() } : {}),
  })
}

/**
 * A clause's status: `fail` with a failure; `unchecked` when nothing checked it; `unjudged` when only
 * the trace checkers checked it and they declined every run that reached its shape (they did not
 * judge it, so the certificate must not call it passed); else `pass`.
 */
export function clauseStatus(failed: boolean, checks: number, checkedBy: readonly CheckedBy[], counts: ClauseDeclines | undefined): ClauseResult['status'] {
  if (failed) return 'fail'
  if (checks === 0) return 'unchecked'
  return counts !== undefined && unjudged(counts) && checkedBy.every((how) => how === 'checker') ? 'unjudged' : 'pass'
}
