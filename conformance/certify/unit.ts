/**
 * Running one unit of a certification (a directed case, or one simulated run) and turning how it
 * ended into a verdict: the clauses it checked and, per violated clause, a replayable failure.
 * A unit never hangs its caller and never throws for what the code under test does: a hang, a
 * crash, a non-Error throw or an unhandled rejection is charged to the clause being checked.
 * @module
 */
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { caseTarget, runGuardedCase } from './case-runner.js'
import { caseTitle } from '../cases/index.js'
import type { DirectedCase } from '../cases/index.js'
import type { Program } from '../../sim/program/program.js'
import { validateProgram } from '../../sim/program/program.js'
import { runProgram } from '../../sim/run.js'
import type { RunResult } from '../../sim/run.js'
import { toRunFile, writeRunFile } from '../../sim/trace/run-file.js'
import { DfsNondeterminismError, noRepeat, pct, random } from '../../sim/strategies/index.js'
import type { Strategy } from '../../sim/strategies/index.js'
import { renderTrace } from '../../sim/trace/trace.js'
import { describeHang, settleOrHang } from '../../sim/pool/settle-or-hang.js'
import { isError, printValue, thrownMessage } from '../../sim/trace/bounded-text.js'
import type { LostReason } from '../../sim/pool/worker-pool.js'
import { REFERENCE_ADAPTER } from '../adapters/adapter.js'
import type { NormalizedAdapter } from '../adapters/adapter.js'
import type { CertifyPlan, CertifyUnit } from './plan.js'
import { checkRun, DeclineTally } from '../checkers/index.js'
import type { Violation } from '../checkers/index.js'
import { CLAUSES } from '../clauses/clauses.js'
import { captureProcessFaults } from './process-faults.js'
import { randomProgram } from '../programs/random-programs.js'
import type { Failure } from './report.js'
import { inScope, interactionKey, interactionsOf } from '../interaction/features.js'
import { interactionSchedules } from '../interaction/schedules.js'

/** What one unit found. */
export interface UnitVerdict {
  /**
   * A simulated run (it counts one check of every checker-covered clause), a directed case, or a
   * shrink of a failure found earlier (`certify-shrink.ts`: it counts no check).
   */
  readonly kind: 'run' | 'case' | 'skipped' | 'shrunk'
  /** The case's clause (cases only). */
  readonly clause?: number
  /** The first failure per clause key this unit found, in the order found. */
  readonly failures: readonly { readonly key: string; readonly failure: Failure }[]
  /** The unit never finished: a watchdog stopped it (a hang or livelock) after this many ms. */
  readonly hungMs?: number
  /** The pool lost the unit's worker (a hang, livelock, crash or memory): it was stopped and replaced. */
  readonly lost?: LostReason
  /** The simulated runs it made: what the checkers judged and declined in each (`DeclineTally.takeRun` cells). */
  readonly declines?: readonly (readonly number[])[]
  /** Simulated runs the unit made, when not one (an interaction program runs under several schedules). */
  readonly runs?: number
  /** The interactions its runs exercised (`interaction/features.ts`, by key, in the scope's values). */
  readonly interactions?: readonly string[]
}

/** This thread's tally of what the checkers judged and declined in the run being checked. */
const tally = new DeclineTally()

/**
 * The programs this thread has validated: a directed program runs under every schedule of the
 * profile and an interaction program under every schedule of its mode, and is validated once.
 */
const validated = new WeakSet<Program>()

/** Validate `program` unless this thread already has (it throws a `ProgramError` every time it is invalid). */
function validateOnce(program: Program): void {
  if (validated.has(program)) return
  validateProgram(program)
  validated.add(program)
}

/** Everything a unit needs besides the unit itself. */
export interface UnitEnv {
  readonly adapter: NormalizedAdapter
  readonly plan: CertifyPlan
  /** Where failing runs are saved (absolute). */
  readonly outDir: string
  /** The adapter module as the user named it (recorded in run files and commands). */
  readonly adapterModule?: string
  readonly unitTimeoutMs: number
  readonly keepAlive?: { ref(): void; unref(): void }
}

/** The strategy of schedule `k`: alternating random and pct d=1..3. */
export function strategyFor(k: number, seed: number): Strategy {
  const s = seed + k
  switch (k % 4) {
    case 0: return random({ seed: s })
    case 1: return pct({ seed: s, depth: 1 })
    case 2: return pct({ seed: s, depth: 2 })
    default: return pct({ seed: s, depth: 3 })
  }
}

const KEY_BY_CLAUSE = new Map(CLAUSES.filter((c) => c.group !== 'X-RUN').map((c) => [c.clause, `${c.group} ${c.clause}`]))

/** The canonical key of a §9 clause number. */
export function clauseKey(clause: number): string {
  return KEY_BY_CLAUSE.get(clause) ?? `? ${clause}`
}

/** The X-RUN key a run that never finished is charged to. */
const LIVELOCK_KEY = 'X-RUN 2'
/** Where a nondeterministic factory is reported: its asynchronous work is not all under the scheduler's control. */
const NONDETERMINISM_KEY = 'X-RUN 3'

/**
 * The `--adapter` of a printed command: the module as named, or (certifying an adapter object with
 * no module, as the vitest face does) a placeholder naming the adapter, never nothing: a command
 * without it would rerun the reference factory and pass.
 */
function adapterArg(env: { adapterModule?: string; adapter?: { name: string } }): string {
  if (env.adapterModule) return ` --adapter ${env.adapterModule}`
  if (env.adapter && env.adapter.name !== REFERENCE_ADAPTER.name) return ` --adapter <the module exporting adapter "${env.adapter.name}">`
  return ''
}

/** The command that reruns one clause's directed cases. */
export function caseRerun(env: { adapterModule?: string; adapter?: { name: string } }, key: string): string {
  return `npx dsh-kit certify${adapterArg(env)} --only "${key}"`
}

/** Run one unit to its verdict. */
export async function runCertifyUnit(env: UnitEnv, unit: CertifyUnit): Promise<UnitVerdict> {
  if (unit.kind === 'case') return runCase(env, env.plan.cases[unit.index]!)
  if (unit.kind === 'interaction') return runSchedules(env, unit, interactionSchedules(), (run) => run)
  if (unit.kind === 'program') return runSchedules(env, unit, directedSchedules(env.plan), (run) => env.plan.seed + run)
  // A random program runs under its one seeded schedule.
  const strategy = strategyFor(unit.k, env.plan.seed)
  strategy.beginRun()
  return runSchedules(env, unit, [strategy], () => env.plan.seed + unit.k)
}

/** The distinct in-scope interactions of a run, by key. */
function interactionKeys(result: RunResult): string[] {
  return [...new Set(interactionsOf(result.trace).filter(inScope).map(interactionKey))]
}

/**
 * The schedules of a directed program, begun one by one: the profile's seeded strategies
 * (`strategyFor`), at most `schedules` of them, never one schedule twice (`noRepeat`: a program
 * with fewer schedules runs each once and stops).
 */
export function* directedSchedules(plan: Pick<CertifyPlan, 'seed' | 'profile'>): Generator<Strategy> {
  const strategy = noRepeat({ strategyOf: (k) => strategyFor(k, plan.seed), maxRuns: plan.profile.schedules })
  while (strategy.beginRun()) yield strategy
}

/**
 * A program under every schedule of its unit (a directed program's no-repeat schedules, an
 * interaction program's bounded DFS, a random program's one seeded schedule), each run watched like
 * a unit's; the first failure per clause is kept, and a run that never finishes ends the unit.
 * `seedOf` names run `i`'s schedule in failures and run files.
 */
async function runSchedules(env: UnitEnv, unit: Exclude<CertifyUnit, { kind: 'case' }>, schedules: Iterable<Strategy>, seedOf: (run: number) => number): Promise<UnitVerdict> {
  const { program, name, via, allowDeadlock } = programOf(env, unit)
  // (a random program the adapter cannot run is skipped)
  if (program === undefined) return { kind: 'skipped', failures: [] }
  const failures: { key: string; failure: Failure }[] = []
  const interactions = new Set<string>()
  const declines: number[][] = []
  let runs = 0
  validateOnce(program)
  for (const strategy of schedules) {
    const seed = seedOf(runs++)
    const settled = await settleOrHang(() => runProgram(program, strategy, { process: env.adapter.processFactory, validated: true }), { timeoutMs: env.unitTimeoutMs, ...(env.keepAlive ? { keepAlive: env.keepAlive } : {}) })
    if (settled.kind === 'rejected' && settled.error instanceof DfsNondeterminismError) {
      // The same program on the same schedule prefix offered other choices: the code under test is
      // not deterministic (state kept across runs), and the exploration cannot go on.
      failures.push({ key: NONDETERMINISM_KEY, failure: { message: `the factory is nondeterministic: ${settled.error.message}`, via, programName: name, program, strategy: strategy.name, seed } })
      return { kind: 'run', runs, failures, declines, interactions: [...interactions] }
    }
    if (settled.kind === 'rejected') throw settled.error
    if (settled.kind === 'hang') {
      failures.push({ key: LIVELOCK_KEY, failure: { message: `the simulated run never finished: ${describeHang(settled)}`, via, programName: name, program, strategy: strategy.name, seed } })
      return { kind: 'run', runs, hungMs: settled.afterMs, failures, declines, interactions: [...interactions] }
    }
    const result = settled.value
    for (const k of interactionKeys(result)) interactions.add(k)
    const violations = checkRun(program, result.trace, result.outcome, tally).filter((v) => !(allowDeadlock && v.message.startsWith('deadlock')))
    declines.push(tally.takeRun())
    for (const v of violations) {
      if (failures.some((f) => f.key === v.key)) continue
      failures.push({ key: v.key, failure: saveFailure(env, v, result, program, name, via, strategy.name, seed) })
    }
  }
  return { kind: 'run', runs, failures, declines, interactions: [...interactions] }
}

/** The verdict of a unit the pool lost (its worker timed out, ran out of memory, crashed or ran away). */
export function lostVerdict(env: Pick<UnitEnv, 'plan' | 'adapterModule' | 'adapter'>, unit: CertifyUnit, reason: LostReason, detail: string, afterMs: number): UnitVerdict {
  const why = reason === 'crash' ? `crashed: ${detail}` : detail
  if (unit.kind === 'case') {
    const c = env.plan.cases[unit.index]!
    const key = clauseKey(c.clause)
    return { kind: 'case', clause: c.clause, hungMs: afterMs, lost: reason, failures: [{ key, failure: { message: `the directed case ${why}`, via: 'directed case', caseTitle: caseTitle(c), replay: caseRerun(env, key) } }] }
  }
  return { kind: 'run', hungMs: afterMs, lost: reason, failures: [{ key: LIVELOCK_KEY, failure: runLostFailure(env, unit, why) }] }
}

function runLostFailure(env: Pick<UnitEnv, 'plan'>, unit: Exclude<CertifyUnit, { kind: 'case' }>, why: string): Failure {
  const { program, name, via } = programOf(env, unit)
  const schedule = unit.kind === 'interaction' ? { strategy: 'dfs preemptionBound=2', seed: 0 }
    : unit.kind === 'program' ? { strategy: 'no-repeat', seed: env.plan.seed }
      : { strategy: strategyFor(unit.k, env.plan.seed).name, seed: env.plan.seed + unit.k }
  return { message: `the simulated run never finished: ${why}`, via, programName: name, ...(program ? { program } : {}), ...schedule }
}

/** The program of a simulated unit, its name, how the report names its source, and whether it may deadlock. */
export function programOf(env: Pick<UnitEnv, 'plan'> & Partial<Pick<UnitEnv, 'adapter'>>, unit: Exclude<CertifyUnit, { kind: 'case' }>): { program: Program | undefined; name: string; via: Failure['via']; allowDeadlock: boolean } {
  if (unit.kind === 'program') {
    const p = env.plan.programs[unit.index]!
    return { program: p.program, name: p.name, via: 'directed program', allowDeadlock: p.hangs === true }
  }
  if (unit.kind === 'interaction') {
    const entry = env.plan.interactions[unit.index]!
    return { program: entry.program, name: entry.program.name ?? `interaction ${unit.index}`, via: 'interaction program', allowDeadlock: false }
  }
  const seed = env.plan.seed + unit.k
  const program = randomProgram(seed)
  const name = program.name ?? `random ${seed}`
  const skip = env.adapter !== undefined && !env.adapter.supports.resume && JSON.stringify(program).includes('"resume"')
  return { program: skip ? undefined : program, name, via: 'random program', allowDeadlock: false }
}

async function runCase(env: UnitEnv, c: DirectedCase): Promise<UnitVerdict> {
  const key = clauseKey(c.clause)
  const { settled, faults } = await captureProcessFaults(() => settleOrHang(() => runGuardedCase(c, caseTarget(env.adapter)), {
    timeoutMs: env.unitTimeoutMs, ...(env.keepAlive ? { keepAlive: env.keepAlive } : {}),
  }))
  let message: string | undefined
  if (settled.kind === 'hang') message = `the directed case ${describeHang(settled)}`
  else if (settled.kind === 'rejected') message = isError(settled.error) ? thrownMessage(settled.error) : `the case failed with a non-Error value: ${printValue(settled.error)}`
  if (message === undefined && faults.length > 0) message = `the implementation ${faults[0]!}`
  else if (message !== undefined && faults.length > 0) message = `${message} (and the implementation ${faults[0]!})`
  const failures = message === undefined ? [] : [{ key, failure: { message, via: 'directed case' as const, caseTitle: caseTitle(c), replay: caseRerun(env, key) } }]
  return { kind: 'case', clause: c.clause, failures, ...(settled.kind === 'hang' ? { hungMs: settled.afterMs } : {}) }
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

/** Where the run file of a failure of `key` found by program `name` at `seed` goes (`suffix`: `-shrunk` for its shrunk run). */
export function failureRunFile(env: Pick<UnitEnv, 'outDir' | 'adapter'>, key: string, name: string, seed: number, suffix = ''): string {
  return join(env.outDir, slug(env.adapter.name), `${slug(key)}-${slug(name)}-${seed}${suffix}.json`)
}

/** The replay command of a saved run (carrying `--adapter` when one was named). */
export function replayCommand(env: Pick<UnitEnv, 'adapterModule'>, file: string): string {
  return `npx dsh-kit replay ${file}${adapterArg(env as UnitEnv)}`
}

/** Save a failing run as a run file (recording the adapter) and describe it as a {@link Failure}. */
export function saveFailure(env: UnitEnv, v: Violation, result: RunResult, program: Program, name: string, via: Failure['via'], strategy: string, seed: number, suffix = ''): Failure {
  const file = failureRunFile(env, v.key, name, seed, suffix)
  mkdirSync(dirname(file), { recursive: true })
  writeRunFile(file, toRunFile(program, result, { ...(env.adapterModule ? { adapter: env.adapterModule } : {}), adapterName: `${env.adapter.name}@${env.adapter.version}`, violations: [{ clause: v.key, message: v.message }] }))
  return {
    message: v.message, via, programName: name, program, strategy, seed, decisions: result.decisions.decisions.length,
    runFile: file, replay: replayCommand(env, file), timeline: renderTrace(result.trace, result.decisions.decisions),
  }
}
