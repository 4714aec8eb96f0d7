/**
 * The interaction mode in a campaign: which run seeds run a program of the interaction suite
 * (`conformance/interaction/suite.ts`), which program, and under which schedules.
 *
 * The mode's stream is indexed: index `k` runs the suite's program `k mod L` (`L` programs), in
 * pass `⌊k/L⌋`:
 * - pass 0, every schedule with at most 2 preemptions (bounded DFS, cut at 32 schedules);
 * - pass 1, every schedule with at most 3 preemptions (cut at 128): what the scope's feasible
 *   situations were explored with, so pass 1 reaches what pass 0's cut left out;
 * - later passes, 8 PCT schedules seeded by `k` (depth `1 + k mod 3`): fresh schedules, as long as
 *   the campaign runs.
 *
 * A default campaign mixes the mode in: run seed `r` with `r mod 16 = 5` (one seed in 16) runs
 * index `⌊r/16⌋` beside its own program, so the suite starts at the first such seed of any campaign
 * and its order (most disruptive actions first) decides what comes early.
 * An interaction campaign (`--interaction`) runs index `r` for every seed `r`.
 * @module
 */
import { interactionSuite } from '../../conformance/interaction/suite.js'
import type { InteractionSuite, SuiteEntry } from '../../conformance/interaction/suite.js'
import { interactionSchedules, MODE_SCHEDULES } from '../../conformance/interaction/schedules.js'
import type { ScheduleBound } from '../../conformance/interaction/schedules.js'
import { EXPLORED } from '../../conformance/interaction/variants.js'
import { pct } from '../../sim/strategies/index.js'
import type { Strategy } from '../../sim/strategies/index.js'
import type { ArbitraryOptions } from '../arbitraries/index.js'

/** One run seed in this many runs the mode in a mixed campaign, at this position. */
export const INTERACTION_PERIOD = 16
export const INTERACTION_SLOT = 5

/** Passes an interaction campaign runs by default: the mode's schedules, then the deeper ones. */
export const INTERACTION_PASSES = 2

/** PCT schedules per program in the passes after the bounded ones. */
const PCT_SCHEDULES = 8

/** The stream index run seed `r` runs in a mixed campaign, if it is an interaction seed. */
export function interactionIndexOfSeed(r: number): number | undefined {
  return r % INTERACTION_PERIOD === INTERACTION_SLOT ? Math.floor(r / INTERACTION_PERIOD) : undefined
}

/** The suite a campaign with these options runs (its operation kinds). */
export function suiteFor(options: ArbitraryOptions): InteractionSuite {
  return interactionSuite(options.operations === undefined ? {} : { operations: options.operations })
}

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
