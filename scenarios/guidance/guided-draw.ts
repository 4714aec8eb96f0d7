/**
 * The programs of a guided campaign, drawn in the main thread from the corpus.
 *
 * Determinism with workers: the program of the `j`-th seed of the campaign is drawn from the
 * corpus **as it stood after the ledger took seeds `0 … j−L−1`** (in seed order), with `L` =
 * {@link GUIDANCE_LAG}; seeds `0 … L` are drawn from the empty corpus. The campaign draws seed
 * `j+L+1`'s program right after the ledger takes seed `j`, in this thread or with workers alike, so
 * up to `L+1` seeds can be in flight and the programs do not depend on how many workers ran them.
 *
 * Each program is, for run seed `r` (every choice from a stream keyed by `r`):
 * - a named scenario when the campaign mixes them in and `r`'s block is a scenario block (as
 *   unguided, see `campaign-draw.ts`);
 * - else, while the corpus is empty and then with probability {@link FRESH_SHARE}, the same fresh
 *   program an unguided campaign draws for `r` (full mix or swarm);
 * - else a mutant of a corpus entry (`corpus.ts` chooses it, `mutate.ts` mutates it, with pieces
 *   spliced from other entries).
 *
 * Only a mutant is drawn here: a named scenario or a fresh program is a function of `r` alone, so
 * the thread that runs the seed draws it (`seedProgram`), and this one draws it again only if it
 * enters the corpus (most do not). Drawing every fresh program in the thread that feeds the
 * workers made it the campaign's bottleneck.
 * @module
 */
import type { Program } from '../../sim/program/program.js'
import { createRng } from '../../sim/streams.js'
import type { ArbitraryOptions } from '../arbitraries/index.js'
import { drawForSeed, scenarioOfSeed } from '../campaign/draw.js'
import type { Scenario } from '../catalog/scenario.js'
import type { Corpus } from './corpus.js'
import { mutateProgram } from './mutate.js'

/** Seeds between the corpus a program is drawn from and the program's seed (see the module doc). */
export const GUIDANCE_LAG = 32

/** Share of the non-scenario seeds that draw a fresh program even when the corpus has entries. */
export const FRESH_SHARE = 0.25

/** Programs of other entries a mutation may splice pieces from. */
const DONORS = 3

/**
 * What one seed runs: a mutant of the corpus (its program), or the seed's own program (a named
 * scenario or a fresh one: `drawForSeed(r)`, drawn by whoever needs it).
 */
export type DrawnProgram =
  | { readonly origin: 'mutant'; readonly program: Program }
  | { readonly origin: 'fresh' | 'scenario' }

/** Draw one seed's program (see the module doc); `corpus` undefined: from the empty corpus. */
export function drawGuided(r: number, corpus: Corpus | undefined, arbitrary: ArbitraryOptions, mix: readonly Scenario[]): DrawnProgram {
  if (scenarioOfSeed(r, mix)) return { origin: 'scenario' }
  const rng = createRng(r, 'guidance')
  if (corpus === undefined || corpus.entries.length === 0 || rng.bool(FRESH_SHARE)) return { origin: 'fresh' }
  const parent = corpus.choose(rng)!
  const donors = Array.from({ length: Math.min(DONORS, corpus.entries.length) }, () => rng.pick(corpus.entries).program)
  const { program } = mutateProgram(parent.program, rng.split(), { arbitrary, donors })
  return { program: { ...program, name: `guided ${r} from ${parent.r}` }, origin: 'mutant' }
}

/** The queue of drawn programs, by seed index. */
export class GuidedDraw {
  readonly #drawn = new Map<number, DrawnProgram>()

  /**
   * @param seedAt the run seed of the `j`-th seed of the campaign (shards interleave).
   * @param maxSeeds the campaign's seed budget (nothing is drawn past it).
   */
  constructor(
    private readonly corpus: Corpus, private readonly arbitrary: ArbitraryOptions, private readonly mix: readonly Scenario[],
    private readonly seedAt: (j: number) => number, private readonly maxSeeds: number,
  ) {}

  /**
   * The program of the `j`-th seed: drawn already when `j > L` (`j` is at most the last seed taken
   * + L + 1); seeds `0 … L` come from the empty corpus, so they are drawn when first asked for.
   */
  programFor(j: number): DrawnProgram {
    let drawn = this.#drawn.get(j)
    if (drawn === undefined && j <= GUIDANCE_LAG) this.#drawn.set(j, (drawn = drawGuided(this.seedAt(j), undefined, this.arbitrary, this.mix)))
    if (drawn === undefined) throw new Error(`guided draw: seed ${j} is not drawn yet (the ledger must take seed ${j - GUIDANCE_LAG - 1} first)`)
    return drawn
  }

  /** The program the `j`-th seed ran, for the corpus: a function, so a seed's own program is drawn again only if it is kept. */
  corpusProgram(j: number): () => Program {
    const drawn = this.programFor(j)
    return drawn.origin === 'mutant' ? () => drawn.program : () => drawForSeed(this.seedAt(j), this.arbitrary, this.mix).program
  }

  /** The ledger took the `j`-th seed (after it fed the corpus): its program is dropped, seed `j+L+1`'s drawn. */
  taken(j: number): void {
    this.#drawn.delete(j)
    this.#draw(j + GUIDANCE_LAG + 1)
  }

  #draw(j: number): void {
    if (j >= this.maxSeeds) return
    this.#drawn.set(j, drawGuided(this.seedAt(j), this.corpus, this.arbitrary, this.mix))
  }
}
