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
 *
 * Which program and schedules an index runs is `run.ts`'s: the threads that run seeds need it, the
 * thread feeding a campaign's workers does not (it would load the strategies).
 * @module
 */
import { interactionSuite } from '../../conformance/interaction/suite.js'
import type { InteractionSuite } from '../../conformance/interaction/suite.js'
import type { ArbitraryOptions } from '../arbitraries/index.js'

/** One run seed in this many runs the mode in a mixed campaign, at this position. */
export const INTERACTION_PERIOD = 16
export const INTERACTION_SLOT = 5

/** Passes an interaction campaign runs by default: the mode's schedules, then the deeper ones. */
export const INTERACTION_PASSES = 2

/** The stream index run seed `r` runs in a mixed campaign, if it is an interaction seed. */
export function interactionIndexOfSeed(r: number): number | undefined {
  return r % INTERACTION_PERIOD === INTERACTION_SLOT ? Math.floor(r / INTERACTION_PERIOD) : undefined
}

/** The suite a campaign with these options runs (its operation kinds). */
export function suiteFor(options: ArbitraryOptions): InteractionSuite {
  return interactionSuite(options.operations === undefined ? {} : { operations: options.operations })
}
