/**
 * What index `k` of the interaction mode's stream runs (the stream is described in `seeds.ts`): the
 * suite's program `k mod L` and the schedules of its pass. Loaded by the threads that run seeds.
 * @module
 */
import type { SuiteEntry } from '../../conformance/interaction/suite.js'
import { interactionSchedules, MODE_SCHEDULES } from '../../conformance/interaction/schedules.js'
import type { ScheduleBound } from '../../conformance/interaction/schedules.js'
import { EXPLORED } from '../../conformance/interaction/variants.js'
import { pct } from '../../sim/strategies/index.js'
import type { Strategy } from '../../sim/strategies/index.js'
import type { ArbitraryOptions } from '../arbitraries/index.js'
import { suiteFor } from './seeds.js'

/** PCT schedules per program in the passes after the bounded ones. */
const PCT_SCHEDULES = 8

/** What index `k` of the stream runs. */
export interface InteractionRun {
  readonly entry: SuiteEntry
  readonly pass: number
  /** The schedules, each strategy begun. */
  schedules(): Iterable<Strategy>
}

/** The bound of a pass that explores a bounded tree. */
function boundOf(pass: number): ScheduleBound | undefined {
  if (pass === 0) return MODE_SCHEDULES
  if (pass === 1) return EXPLORED
  return undefined
}

/** Index `k` of the stream (see the module documentation). */
export function interactionRun(k: number, options: ArbitraryOptions): InteractionRun {
  const suite = suiteFor(options)
  // An index below the suite's length is its own entry, in the first pass: the suite is built up to it only.
  const inFirstPass = suite.at(k)
  const pass = inFirstPass === undefined ? Math.floor(k / suite.entries.length) : 0
  const entry = inFirstPass ?? suite.entries[k % suite.entries.length]!
  const bound = boundOf(pass)
  return {
    entry, pass,
    schedules: () => bound ? interactionSchedules(bound) : pctSchedules(k),
  }
}

function* pctSchedules(k: number): Generator<Strategy> {
  const strategy = pct({ seed: `interaction ${k}`, depth: 1 + (k % 3) })
  for (let i = 0; i < PCT_SCHEDULES && strategy.beginRun(); i++) yield strategy
}
