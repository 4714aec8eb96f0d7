/**
 * What a random-program campaign runs for each run seed: a function of the seed alone.
 * @module
 */
import fc from 'fast-check'
import type { Program } from '../../sim/program/program.js'
import { programArbitrary } from '../arbitraries/index.js'
import type { ArbitraryOptions } from '../arbitraries/index.js'
import { swarmOptionsArbitrary } from '../arbitraries/swarm.js'
import type { Scenario } from '../catalog/scenario.js'
import { scenarioMix, scenarioOfSeed } from './scenario-seeds.js'

export { scenarioMix, scenarioOfSeed }

/** The options of a caller that gives none (one object, so its arbitraries are built once). */
const NO_OPTIONS: ArbitraryOptions = Object.freeze({})

/**
 * The program of run seed `r` in random-program mode, a function of `r` alone. Seeds come in
 * blocks of four (`⌊r/4⌋`), so the four schedule strategies of a portfolio (`r mod 4`) each meet
 * every kind of program; block `b` draws, by `b mod 4`:
 * - 0, 1: a program drawn from every feature at once;
 * - 2: a swarm configuration first (a few operation kinds on one or two sessions), then a program
 *   from it, so features that crowd each other out in the full mix still meet;
 * - 3: a named scenario (the `⌊b/4⌋`-th of {@link scenarioMix}, cyclically), a hand-built race
 *   random programs reach only rarely.
 */
export function programForSeed(r: number, options: ArbitraryOptions = NO_OPTIONS, mix: readonly Scenario[] = scenarioMix(options)): Program {
  return drawForSeed(r, options, mix).program
}

/** {@link programForSeed}, and the named scenario it came from (if it did). */
export function drawForSeed(r: number, options: ArbitraryOptions = NO_OPTIONS, mix: readonly Scenario[] = scenarioMix(options)): { program: Program; scenario?: Scenario } {
  const scenario = scenarioOfSeed(r, mix)
  if (scenario) return { program: { ...scenario.program, name: `scenario ${scenario.name} ${r}` }, scenario }
  const swarm = Math.floor(r / 4) % 4 === 2
  const [program] = fc.sample(arbitrariesFor(options)[swarm ? 'swarm' : 'full'], { seed: r, numRuns: 1 })
  return { program: { ...program!, name: `${swarm ? 'swarm' : 'random'} ${r}` } }
}

/**
 * The two top-level arbitraries of a campaign's options, built once per options object: building
 * them is most of a draw's cost, and arbitraries are immutable (`fc.sample` with a seed gives the
 * same value from a new or a reused one).
 */
const ARBITRARIES = new WeakMap<ArbitraryOptions, { full: fc.Arbitrary<Program>; swarm: fc.Arbitrary<Program> }>()

function arbitrariesFor(options: ArbitraryOptions): { full: fc.Arbitrary<Program>; swarm: fc.Arbitrary<Program> } {
  let built = ARBITRARIES.get(options)
  if (built === undefined) {
    built = { full: programArbitrary(options), swarm: swarmOptionsArbitrary(options).chain((o) => programArbitrary(o)) }
    ARBITRARIES.set(options, built)
  }
  return built
}

