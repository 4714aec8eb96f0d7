/**
 * Shrinking a failing run before it is reported (design.md concept 7): the smallest program and
 * the simplest schedule that still violate the SAME clause.
 *
 * Program shrinking is a direct greedy delta-debugging pass over the program's JSON, not
 * fast-check's shrinker: it works the same for generated programs, named scenarios and programs
 * read back from a run file (none of which carry a fast-check value or path), and every candidate
 * keeps the recorded schedule where it still fits. Candidates, coarse first: drop an actor, drop
 * an operation, drop an environment section, then anywhere in the tree drop an array element or
 * an optional field (a fault, an owner, a listener, a model step, ...) and lower a number toward
 * 0. A candidate that `validateProgram` refuses is skipped without running it. Each candidate runs
 * under a {@link guidedReplay} of the current log in `label` mode (points of removed operations
 * drop out, the rest keep their order); the first candidate that still fails is kept and the pass
 * continues from there, until a whole pass keeps nothing.
 *
 * Decision shrinking then works on the schedule of the shrunk program, in `position` mode: first
 * the shortest prefix of the log that, followed by default choices (no preemption, else
 * first-in-first-out), still fails; then each remaining pick that differs from the default choice
 * is turned into the default one, one at a time. So the report's schedule has as few preemptions
 * and out-of-order picks as this greedy search finds.
 *
 * The result is a plain run: its own decision log replays strictly (`replay`) to the same trace.
 *
 * It lives in `sim/` (design.md) so that both `certify` (`conformance/`) and the fuzz campaign
 * (`scenarios/`) shrink the same way; the caller says what a failure is (`check`: the checkers sit
 * above the simulator), and `scenarios/campaign/shrink.ts` supplies every checker as the default.
 * @module
 */
import type { RunSize } from './run-size.js'
import type { InstallFactory, ProcessFactory } from '../core/process.js'
import type { DecisionLog } from './trace/decision-log.js'
import type { Program } from './program/program.js'
import { validateProgram, validateProgramShape } from './program/program.js'
import { resolveReferences } from './program/resolve-references.js'
import { runProgram } from './run.js'
import type { RunProgramOptions, RunResult } from './run.js'
import { countPreemptions, guidedReplay, replay } from './strategies/index.js'
import type { GuidedOptions, GuidedStep } from './strategies/index.js'

export { formatSizes } from './run-size.js'
export type { RunSize } from './run-size.js'

/**
 * What the shrinker needs of a violation: its clause key and message. The checkers' `Violation`
 * (`conformance/checkers`) is one; the simulator does not import the checkers.
 */
export interface ShrinkViolation {
  readonly key: string
  readonly message: string
}


/** Options of {@link shrinkRun}. */
export interface ShrinkOptions<V extends ShrinkViolation = ShrinkViolation> {
  readonly program: Program
  /** The failing run's decision log. */
  readonly decisions: DecisionLog
  /** The clause key to keep violating, e.g. `AGENT-TEARDOWN-TEST 97`. */
  readonly key: string
  /** The factory under test; the reference factory by default. */
  readonly install?: InstallFactory
  /** A whole process under test instead (a process adapter); takes precedence over `install`. */
  readonly process?: ProcessFactory
  /**
   * The violations of one run (every checker, `checkRun`, in `scenarios/` and `certify`). A
   * campaign over a scenario that expects deadlocks passes its own filter, so the shrinker keeps
   * to the same notion of failure.
   */
  readonly check: (program: Program, result: RunResult) => readonly V[]
  /** Maximum runs spent shrinking (default {@link DEFAULT_SHRINK_BUDGET}). */
  readonly budget?: number
}

/** What {@link shrinkRun} produced. */
export interface ShrinkResult<V extends ShrinkViolation = ShrinkViolation> {
  /** `false` when the failure did not reproduce under the guided replay (nothing was shrunk). */
  readonly reproduced: boolean
  readonly program: Program
  /** The shrunk run: a strict replay of `result.decisions` on `program` reproduces it. */
  readonly result: RunResult
  /** The violation kept (the first of its key in the shrunk run). */
  readonly violation: V | undefined
  /** Every violation of the shrunk run. */
  readonly violations: readonly V[]
  readonly before: RunSize
  readonly after: RunSize
  /** Runs spent. */
  readonly runs: number
  /** Candidates kept: program edits, then decision edits. */
  readonly kept: { readonly program: number; readonly decisions: number }
}

/** Runs a shrink spends at most unless told otherwise. */
export const DEFAULT_SHRINK_BUDGET = 600

/** Count operations nested anywhere in a value (objects with an `op` field that is a string). */
function countOps(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countOps(v), 0)
  if (typeof value !== 'object' || value === null) return 0
  let n = typeof (value as { op?: unknown }).op === 'string' ? 1 : 0
  for (const v of Object.values(value)) n += countOps(v)
  return n
}

function countBehaviours(program: Program): number {
  let n = 0
  const env = program.env
  n += env?.listeners?.length ?? 0
  n += env?.effects?.length ?? 0
  for (const steps of Object.values(env?.model ?? {})) n += steps.length
  n += Object.keys(env?.loads ?? {}).length
  n += env?.persisted?.length ?? 0
  n += env?.minting?.length ?? 0
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk)
    if (typeof value !== 'object' || value === null) return
    const o = value as Record<string, unknown>
    if (typeof o.steps === 'number' && ('throwSync' in o || 'rejectAt' in o || 'hangAt' in o || 'commitThrows' in o || 'commitOp' in o || 'effects' in o || 'listeners' in o)) {
      n += ['throwSync', 'rejectAt', 'hangAt', 'commitThrows', 'commitOp'].filter((k) => o[k] !== undefined && o[k] !== false).length
      n += (o.effects as unknown[] | undefined)?.length ?? 0
      n += (o.listeners as unknown[] | undefined)?.length ?? 0
    }
    Object.values(o).forEach(walk)
  }
  program.actors.forEach(walk)
  walk(env?.listeners)
  walk(env?.effects)
  walk(env?.model)
  walk(env?.minting)
  return n
}

/** Measure a program and a schedule (preemptions as counted by a guided replay of it). */
export function sizeOf(program: Program, decisions: DecisionLog, steps: readonly GuidedStep[]): RunSize {
  return {
    actors: program.actors.length,
    operations: countOps(program.actors) + countOps(program.env ?? {}),
    behaviours: countBehaviours(program),
    decisions: decisions.decisions.length,
    preemptions: countPreemptions(steps),
  }
}


/** Measure a run without shrinking it (one guided replay of its log, to count preemptions). */
export async function measureRun(program: Program, decisions: DecisionLog, install?: InstallFactory | RunProgramOptions): Promise<RunSize> {
  const strategy = guidedReplay(decisions, { match: 'label' })
  strategy.beginRun()
  await runProgram(program, strategy, typeof install === 'function' ? { install } : install ?? {})
  return sizeOf(program, decisions, strategy.steps)
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** Paths of the program tree, breadth first (shallow edits first). */
function paths(root: Json): (string | number)[][] {
  const out: (string | number)[][] = []
  const queue: { value: Json; path: (string | number)[] }[] = [{ value: root, path: [] }]
  while (queue.length > 0) {
    const { value, path } = queue.shift()!
    if (path.length > 0) out.push(path)
    if (Array.isArray(value)) value.forEach((v, i) => queue.push({ value: v, path: [...path, i] }))
    else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) queue.push({ value: v, path: [...path, k] })
  }
  return out
}

function parentOf(root: Json, path: readonly (string | number)[]): Json {
  let at: any = root
  for (const step of path.slice(0, -1)) at = at[step]
  return at as Json
}

/** The edits of one path: remove it (array element or object field) and, for numbers, lower it. */
function editsAt(root: Json, path: readonly (string | number)[]): Json[] {
  const parent = parentOf(root, path) as any
  const last = path[path.length - 1]!
  const value = parent[last] as Json
  const out: Json[] = []
  const edited = (change: (p: any) => void): Json => {
    const copy = clone(root)
    change(parentOf(copy, path))
    return copy
  }
  // The format version and names are not behaviour.
  if (path.length === 1 && (last === 'v' || last === 'name')) return out
  if (Array.isArray(parent)) out.push(edited((p) => p.splice(last as number, 1)))
  else out.push(edited((p) => { delete p[last] }))
  if (typeof value === 'number' && value > 0) {
    out.push(edited((p) => { p[last] = 0 }))
    if (value > 2) out.push(edited((p) => { p[last] = Math.floor(value / 2) }))
    if (value > 1) out.push(edited((p) => { p[last] = value - 1 }))
  }
  return out
}

/**
 * Candidate smaller programs, coarse first: each actor, each actor's operation, each environment
 * section, then every other node of the tree. Lazily generated; invalid ones are skipped.
 */
export function* programCandidates(program: Program): Generator<Program> {
  const root = program as unknown as Json
  const seen = new Set<string>()
  const emit = function* (candidate: Json): Generator<Program> {
    const text = JSON.stringify(candidate)
    if (seen.has(text)) return
    seen.add(text)
    let resolved: Program
    try {
      validateProgramShape(candidate)
      // What the edit left naming nothing (a send to an id whose create it dropped) is renamed or
      // dropped too, so a candidate is never refused for a reference alone.
      resolved = resolveReferences(candidate)
      validateProgram(resolved)
    } catch {
      return
    }
    if (resolved !== (candidate as unknown as Program)) {
      const again = JSON.stringify(resolved)
      if (seen.has(again)) return
      seen.add(again)
    }
    yield resolved
  }
  const all = paths(root)
  const rank = (p: (string | number)[]): number => {
    if (p[0] === 'actors' && p.length === 2) return 0
    if (p[0] === 'actors' && p.length === 4 && p[2] === 'ops') return 1
    if (p[0] === 'env' && p.length === 2) return 2
    return 3
  }
  for (let r = 0; r <= 3; r++) {
    for (const p of all) if (rank(p) === r) for (const c of editsAt(root, p)) yield* emit(c)
  }
}

interface Attempt<V> {
  readonly result: RunResult
  readonly steps: readonly GuidedStep[]
  readonly violations: readonly V[]
}

/** Shrink a failing run, keeping the violation of `options.key`. */
export async function shrinkRun<V extends ShrinkViolation>(options: ShrinkOptions<V>): Promise<ShrinkResult<V>> {
  const budget = options.budget ?? DEFAULT_SHRINK_BUDGET
  const check = options.check
  const runOptions: RunProgramOptions = options.process ? { process: options.process } : options.install ? { install: options.install } : {}
  let runs = 0
  const attempt = async (program: Program, log: DecisionLog, guide: GuidedOptions): Promise<Attempt<V> | undefined> => {
    runs++
    const strategy = guidedReplay(log, guide)
    strategy.beginRun()
    let result: RunResult
    try {
      result = await runProgram(program, strategy, runOptions)
    } catch {
      // A harness error on an edited program (it never should) just rules the candidate out.
      return undefined
    }
    const violations = check(program, result)
    return violations.some((v) => v.key === options.key) ? { result, steps: strategy.steps, violations } : undefined
  }

  const baseline = await attempt(options.program, options.decisions, { match: 'label' })
  if (baseline === undefined) {
    const strategy = replay(options.decisions)
    strategy.beginRun()
    const result = await runProgram(options.program, strategy, runOptions)
    const violations = check(options.program, result)
    const size = sizeOf(options.program, options.decisions, [])
    return {
      reproduced: false, program: options.program, result, violation: violations.find((v) => v.key === options.key), violations,
      before: size, after: size, runs: runs + 1, kept: { program: 0, decisions: 0 },
    }
  }
  const before = sizeOf(options.program, baseline.result.decisions, baseline.steps)
  let program = options.program
  let current = baseline
  let keptProgram = 0
  let keptDecisions = 0

  // 1. The program, under the current schedule where it still fits. After a kept edit the next
  // pass resumes at the same candidate index (the earlier candidates just failed to fail), and a
  // final pass from the start confirms nothing more goes.
  let start = 0
  let keptThisRound = false
  while (runs < budget) {
    let index = 0
    let kept = false
    for (const candidate of programCandidates(program)) {
      if (runs >= budget) break
      if (index++ < start) continue
      const found = await attempt(candidate, current.result.decisions, { match: 'label' })
      if (found) {
        program = candidate
        current = found
        keptProgram++
        kept = keptThisRound = true
        start = index - 1
        break
      }
    }
    if (kept) continue
    if (start === 0 || !keptThisRound) break
    start = 0
    keptThisRound = false
  }

  // 2. The schedule: the shortest prefix that still fails, then fewer non-default picks.
  const picks = (a: Attempt<V>): number => a.steps.length
  if (runs < budget) {
    let lo = 0
    let hi = picks(current)
    let best: Attempt<V> | undefined
    while (lo < hi && runs < budget) {
      const mid = (lo + hi) >> 1
      const found = await attempt(program, current.result.decisions, { match: 'position', upTo: mid })
      if (found) {
        best = found
        hi = mid
      } else lo = mid + 1
    }
    if (best) {
      current = best
      keptDecisions++
    }
  }
  for (let changed = true; changed && runs < budget;) {
    changed = false
    for (let t = 0; t < current.steps.length && runs < budget; t++) {
      if (current.steps[t]!.isDefault) continue
      const found = await attempt(program, current.result.decisions, { match: 'position', skip: new Set([t]) })
      if (found && nonDefault(found.steps) < nonDefault(current.steps)) {
        current = found
        keptDecisions++
        changed = true
      }
    }
  }

  return {
    reproduced: true, program, result: current.result, violation: current.violations.find((v) => v.key === options.key),
    violations: current.violations, before, after: sizeOf(program, current.result.decisions, current.steps), runs,
    kept: { program: keptProgram, decisions: keptDecisions },
  }
}

function nonDefault(steps: readonly GuidedStep[]): number {
  let n = 0
  for (const s of steps) if (!s.isDefault) n++
  return n
}
