/**
 * The shrinker (`sim/shrink.ts`) with every checker as its notion of failure: what the campaign
 * and `dsh-kit run` use. The algorithm is documented there.
 * @module
 */
import { checkRun } from '../../conformance/checkers/index.js'
import type { Violation } from '../../conformance/checkers/index.js'
import type { Program } from '../../sim/program/program.js'
import type { RunResult } from '../../sim/run.js'
import { shrinkRun as shrinkWith } from '../../sim/shrink.js'
import type { ShrinkOptions as SimShrinkOptions, ShrinkResult as SimShrinkResult } from '../../sim/shrink.js'

export { DEFAULT_SHRINK_BUDGET, measureRun, programCandidates, sizeOf } from '../../sim/shrink.js'
export type { RunSize, ShrinkViolation } from '../../sim/shrink.js'

/** Options of {@link shrinkRun}: those of `sim/shrink.ts`, with `check` defaulting to every checker. */
export type ShrinkOptions = Omit<SimShrinkOptions<Violation>, 'check'> & { readonly check?: SimShrinkOptions<Violation>['check'] }

/** What {@link shrinkRun} produced. */
export type ShrinkResult = SimShrinkResult<Violation>

/** Every checker on one run. */
export function checkAll(program: Program, result: RunResult): readonly Violation[] {
  return checkRun(program, result.trace, result.outcome)
}

/** Shrink a failing run, keeping the violation of `options.key` (every checker by default). */
export function shrinkRun(options: ShrinkOptions): Promise<ShrinkResult> {
  return shrinkWith({ ...options, check: options.check ?? checkAll })
}
