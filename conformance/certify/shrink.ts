/**
 * Shrinking certify's failures (design.md concept 7), as the fuzz campaign does: the smallest
 * program and the simplest schedule that still violate the same clause, saved as their own run
 * file and reported before the run as found.
 *
 * Shrinking is a second round of units, after every planned unit has run: one **shrink unit** per
 * failing clause whose reported counterexample is a simulated run (the first one in unit order,
 * the one the certificate reports). A failing adapter fails the same clause in hundreds of runs;
 * shrinking each of them where it was found would cost hundreds of shrinks for the one that is
 * reported. A shrink unit reruns its run from the plan (plans and runs are deterministic), then
 * shrinks it within a run budget, in this thread or in a watched worker like any unit, so the
 * certificate is the same whatever ran it. A shrink that cannot finish (it hangs, or its worker is
 * lost) leaves the failure as found, saying why.
 * @module
 */
import type { Program } from '../../sim/program/program.js'
import { runProgram } from '../../sim/run.js'
import type { RunResult } from '../../sim/run.js'
import { runUnits } from '../../sim/pool/run-units.js'
import { describeHang, settleOrHang } from '../../sim/pool/settle-or-hang.js'
import type { LostReason } from '../../sim/pool/worker-pool.js'
import { shrinkRun } from '../../sim/shrink.js'
import { stringText } from '../../sim/trace/bounded-text.js'
import type { RunSize } from '../../sim/shrink.js'
import type { CertifyPlan, CertifyUnit } from './plan.js'
import { failureRunFile, programOf, replayCommand, saveFailure, strategyFor } from './unit.js'
import type { UnitEnv, UnitVerdict } from './unit.js'
import { checkRun } from '../checkers/index.js'
import type { Violation } from '../checkers/index.js'
import type { Failure, FailureShrink } from './report.js'
import type { Strategy } from '../../sim/strategies/strategy.js'
import { replay } from '../../sim/strategies/replay.js'
import { readRunFile } from '../../sim/trace/run-file.js'
import type { DecisionLog } from '../../sim/trace/decision-log.js'
import { interactionSchedules } from '../interaction/schedules.js'

/**
 * Runs one shrink may spend. Each is one small simulated run (a few ms), so a shrink stays within
 * seconds; fuzz, which shrinks one failure per clause too, allows 600.
 */
export const CERTIFY_SHRINK_BUDGET = 400

/** A shrink unit: the simulated unit whose failure of `key` the certificate reports. */
export interface ShrinkUnit {
  readonly kind: 'shrink'
  readonly key: string
  readonly of: Exclude<CertifyUnit, { kind: 'case' }>
  /** For an interaction program: which of its schedules (0-based) failed; for a directed program, its seed. */
  readonly schedule?: number
  /** For a directed program: the failing run's file, whose decision log replays its schedule (no-repeat schedules depend on the runs before them). */
  readonly runFile?: string
}

/**
 * The shrink units of a certification: one per failing clause whose first failure (in unit order,
 * as the certificate merges them) was found by a simulated run that finished.
 */
export function shrinkUnits(plan: CertifyPlan, verdicts: readonly (UnitVerdict | undefined)[]): ShrinkUnit[] {
  const first = new Map<string, ShrinkUnit | undefined>()
  verdicts.forEach((verdict, index) => {
    if (verdict === undefined) return
    const unit = plan.units[index]!
    for (const f of verdict.failures) {
      if (first.has(f.key)) continue
      // A directed case has no run to shrink; a run that never finished has no log.
      first.set(f.key, unit.kind !== 'case' && f.failure.runFile !== undefined
        ? { kind: 'shrink', key: f.key, of: unit, ...shrinkSchedule(unit, f.failure) } : undefined)
    }
  })
  return [...first.values()].filter((u): u is ShrinkUnit => u !== undefined)
}

/** Where a shrink unit finds the failing run's schedule. */
function shrinkSchedule(unit: Exclude<CertifyUnit, { kind: 'case' }>, failure: Failure): Pick<ShrinkUnit, 'schedule' | 'runFile'> {
  if (unit.kind === 'interaction') return { schedule: failure.seed ?? 0 }
  if (unit.kind === 'program') return { schedule: failure.seed ?? 0, ...(failure.runFile ? { runFile: failure.runFile } : {}) }
  return {}
}

/** Run the shrink units (at most `concurrency` at once); the shrunk failure of each clause, by key. */
export async function runShrinks(units: readonly ShrinkUnit[], exec: (unit: ShrinkUnit) => Promise<UnitVerdict>, options: { concurrency: number; shouldStop?: () => boolean }): Promise<Map<string, Failure>> {
  const out = new Map<string, Failure>()
  if (units.length === 0) return out
  const run = await runUnits(units, exec, options)
  for (const verdict of run.verdicts) for (const f of verdict?.failures ?? []) out.set(f.key, f.failure)
  return out
}

/** Shrink one failure: rerun the unit's run, shrink it, save the shrunk run; the verdict carries the failure to report. */
export async function runShrinkUnit(env: UnitEnv, unit: ShrinkUnit): Promise<UnitVerdict> {
  const { program, name, via, allowDeadlock } = programOf(env, unit.of)
  if (program === undefined) return { kind: 'shrunk', failures: [] }
  const check = (p: Program, r: RunResult): readonly Violation[] =>
    checkRun(p, r.trace, r.outcome).filter((v) => !(allowDeadlock && v.message.startsWith('deadlock')))
  const watch = { timeoutMs: env.unitTimeoutMs, ...(env.keepAlive ? { keepAlive: env.keepAlive } : {}) }
  const schedule = await scheduleOf(env, unit, program)
  if (schedule === undefined) return { kind: 'shrunk', failures: [] }
  const { seed, strategy } = schedule
  const rerun = await settleOrHang(() => runProgram(program, strategy, { process: env.adapter.processFactory }), watch)
  if (rerun.kind !== 'fulfilled') return { kind: 'shrunk', failures: [] } // the unit's own verdict stands
  const found = rerun.value
  const original = { program, decisions: found.decisions.decisions.length, runFile: failureRunFile(env, unit.key, name, seed), replay: '' }
  original.replay = replayCommand(env, original.runFile)
  const asFound = (note: string, runs: number, size?: RunSize): UnitVerdict => {
    const v = check(program, found).find((x) => x.key === unit.key)
    if (v === undefined) return { kind: 'shrunk', failures: [] }
    // The same run file the unit wrote (same run, same content): the failure as found, and why.
    const failure = saveFailure(env, v, found, program, name, via, strategy.name, seed)
    return { kind: 'shrunk', failures: [{ key: unit.key, failure: { ...failure, shrink: { shrunk: false, runs, ...(size ? { before: size, after: size } : {}), original, note } } }] }
  }
  // Every candidate is a fresh simulated run, bounded like a unit's; the whole shrink by the budget.
  const shrinking = await settleOrHang(() => shrinkRun({
    program, decisions: found.decisions, key: unit.key, process: env.adapter.processFactory, check, budget: CERTIFY_SHRINK_BUDGET,
  }), { ...watch, timeoutMs: shrinkTimeoutMs(env.unitTimeoutMs) })
  if (shrinking.kind !== 'fulfilled') {
    const why = shrinking.kind === 'hang' ? `the shrink ${describeHang(shrinking)}` : `the shrink failed: ${stringText(shrinking.error)}`
    return asFound(why, 0)
  }
  const shrunk = shrinking.value
  if (!shrunk.reproduced || shrunk.violation === undefined) {
    return asFound(`the violation did not reproduce under a guided replay of its log (${shrunk.runs} runs)`, shrunk.runs, shrunk.before)
  }
  const failure = saveFailure(env, shrunk.violation, shrunk.result, shrunk.program, name, via, strategy.name, seed, '-shrunk')
  return {
    kind: 'shrunk',
    failures: [{ key: unit.key, failure: { ...failure, shrink: { shrunk: true, runs: shrunk.runs, before: shrunk.before, after: shrunk.after, original } } }],
  }
}

/**
 * The failing run's schedule, begun: a random program's seeded strategy, a directed program's
 * recorded decisions, or an interaction program's DFS advanced to the schedule that failed (the
 * schedules before it run again to get there).
 */
async function scheduleOf(env: UnitEnv, unit: ShrinkUnit, program: Program): Promise<{ seed: number; strategy: Strategy } | undefined> {
  if (unit.of.kind === 'program') {
    // The schedule as the unit ran it: its run file's decisions (the unit wrote it before the shrink began).
    if (unit.runFile === undefined) return undefined
    let log: DecisionLog
    try {
      log = readRunFile(unit.runFile).decisions
    } catch {
      return undefined // the run file is gone or damaged: the failure stands as found
    }
    // Under the recorded name, so a replayed run saved again reads as the run it replays.
    const strategy = Object.assign(replay(log), { name: log.strategy })
    strategy.beginRun()
    return { seed: unit.schedule ?? 0, strategy }
  }
  if (unit.of.kind === 'random') {
    const strategy = strategyFor(unit.of.k, env.plan.seed)
    strategy.beginRun()
    return { seed: env.plan.seed + unit.of.k, strategy }
  }
  const target = unit.schedule ?? 0
  let i = 0
  for (const strategy of interactionSchedules()) {
    if (i === target) return { seed: target, strategy }
    const before = await settleOrHang(() => runProgram(program, strategy, { process: env.adapter.processFactory }), { timeoutMs: env.unitTimeoutMs })
    if (before.kind !== 'fulfilled') return undefined
    i++
  }
  return undefined
}

/** The verdict of a shrink unit the pool lost: the failure stands as found, with the reason. */
export function lostShrinkVerdict(found: Failure | undefined, unit: ShrinkUnit, reason: LostReason, detail: string): UnitVerdict {
  if (found === undefined) return { kind: 'shrunk', failures: [] }
  const note = `the shrink was lost (${reason}: ${detail})`
  const original = { program: found.program!, decisions: found.decisions ?? 0, ...(found.runFile ? { runFile: found.runFile } : {}), ...(found.replay ? { replay: found.replay } : {}) }
  return { kind: 'shrunk', failures: [{ key: unit.key, failure: { ...found, shrink: { shrunk: false, runs: 0, original, note } } }] }
}

/** A shrink's wall-clock bound: a hang guard only (the run budget is what bounds it normally). */
export function shrinkTimeoutMs(unitTimeoutMs: number): number {
  return 6 * unitTimeoutMs
}
