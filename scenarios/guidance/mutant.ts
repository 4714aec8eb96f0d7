/**
 * The mutant a guided campaign's seed runs, made in the thread that runs the seed from what the
 * feeding thread drew (`guided-draw.ts`): apart from the draw, since making it needs the mutator and
 * its generators (fast-check), which the feeding thread does not load.
 * @module
 */
import type { Program } from '../../sim/program/program.js'
import { rngFromSplit } from '../../sim/streams.js'
import type { ArbitraryOptions } from '../arbitraries/index.js'
import { LoadedPrograms } from './guided-draw.js'
import type { DrawnProgram } from './guided-draw.js'
import { mutateProgram } from './mutate.js'

/** The mutant a seed drew (see `drawGuided`), made with the campaign's generator options. */
export function mutantProgram(r: number, drawn: Extract<DrawnProgram, { origin: 'mutant' }>, arbitrary: ArbitraryOptions, loaded = new LoadedPrograms()): Program {
  const { program } = mutateProgram(loaded.get(drawn.parent), rngFromSplit(drawn.split), { arbitrary, donors: drawn.donors.map((d) => () => loaded.get(d)) })
  return { ...program, name: `guided ${r} from ${drawn.parent.r}` }
}
