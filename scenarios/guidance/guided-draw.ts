/**
 * The programs of a guided campaign: which seeds run a mutant of the corpus, drawn in the thread
 * that feeds the workers; the mutant itself is made by the thread that runs the seed.
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
 * The feeding thread only decides: it draws which entry is the parent and which are the donors,
 * and the seed of the mutation's stream, and sends them with the seed ({@link DrawnProgram}). The
 * thread that runs the seed makes the mutant (`mutantProgram`, `mutant.ts`), or draws the seed's own
 * program (a named scenario or a fresh one: `drawForSeed(r)`). The corpus holds its programs
 * serialized ({@link StoredProgram}): they cross between threads as bytes, and the feeding thread
 * never builds, copies or traces a program (drawing and mutating programs there made it the
 * campaign's bottleneck, and the corpus most of its heap).
 * @module
 */
import { deserialize, serialize } from 'node:v8'
import type { Program } from '../../sim/program/program.js'
import { createRng } from '../../sim/streams.js'
import type { SplitState } from '../../sim/streams.js'
import { scenarioOfSeed } from '../campaign/scenario-seeds.js'
import type { Scenario } from '../catalog/scenario.js'
import type { Corpus } from './corpus.js'
import { operationSlots } from './op-slots.js'

/** Seeds between the corpus a program is drawn from and the program's seed (see the module doc). */
export const GUIDANCE_LAG = 32

/** Share of the non-scenario seeds that draw a fresh program even when the corpus has entries. */
export const FRESH_SHARE = 0.25

/** Programs of other entries a mutation may splice pieces from. */
const DONORS = 3

/**
 * A program as a guided campaign's corpus holds it: its structured-clone serialization (what
 * `postMessage` would send; shared references and `undefined` fields kept), outside the JS heap,
 * and its operations (nested ones included), which weigh its entry.
 */
export interface StoredProgram {
  readonly bytes: Uint8Array
  readonly size: number
}

/** Store `program` for the corpus. */
export function storeProgram(program: Program): StoredProgram {
  return { bytes: serialize(program), size: operationSlots(program).length }
}

/** A stored program, as a fresh object. */
export function loadProgram(bytes: Uint8Array): Program {
  return deserialize(bytes) as Program
}

/** A corpus entry's program as a mutant's parent or donor: the seed that reached it, and the program. */
export interface CorpusProgram {
  readonly r: number
  readonly bytes: Uint8Array
}

/**
 * What one seed runs: a mutant of the corpus (its parent, donors and the seed of the mutation's
 * stream, all decided by the feeding thread), or the seed's own program (a named scenario or a
 * fresh one: `drawForSeed(r)`, drawn by whoever needs it).
 */
export type DrawnProgram =
  | {
    readonly origin: 'mutant'
    readonly parent: CorpusProgram
    readonly donors: readonly CorpusProgram[]
    /** The seed of the stream the mutation draws from. */
    readonly split: SplitState
  }
  | { readonly origin: 'fresh' | 'scenario' }

/** Draw what one seed runs (see the module doc); `corpus` undefined: from the empty corpus. */
export function drawGuided(r: number, corpus: Corpus<StoredProgram> | undefined, mix: readonly Scenario[]): DrawnProgram {
  if (scenarioOfSeed(r, mix)) return { origin: 'scenario' }
  const rng = createRng(r, 'guidance')
  if (corpus === undefined || corpus.entries.length === 0 || rng.bool(FRESH_SHARE)) return { origin: 'fresh' }
  const parent = corpus.choose(rng)!
  const entries = corpus.entries
  const donors: CorpusProgram[] = []
  for (let k = Math.min(DONORS, entries.length); k > 0; k--) {
    const donor = rng.pick(entries)
    donors.push({ r: donor.r, bytes: donor.program.bytes })
  }
  return { origin: 'mutant', parent: { r: parent.r, bytes: parent.program.bytes }, donors, split: rng.splitState() }
}

/**
 * Corpus programs a thread keeps loaded (the most recently used), so a parent drawn again is not
 * deserialized again (about 30 µs for a program of a kilobyte).
 */
const LOADED = 1024

/**
 * The corpus programs a thread has loaded, by the seed that reached them (one campaign's: a run
 * seed names one program there). Mutation only reads a parent and its donors, so one loaded copy
 * serves every mutant made from it.
 */
export class LoadedPrograms {
  readonly #programs = new Map<number, Program>()

  get(p: CorpusProgram): Program {
    const program = this.#programs.get(p.r)
    if (program === undefined) return this.keep(p.r, loadProgram(p.bytes))
    this.#programs.delete(p.r)
    this.#programs.set(p.r, program)
    return program
  }

  /** Keep `program`, the program of run seed `r` as this thread ran it (it sends it for the corpus). */
  keep(r: number, program: Program): Program {
    this.#programs.delete(r)
    if (this.#programs.size >= LOADED) this.#programs.delete(this.#programs.keys().next().value!)
    this.#programs.set(r, program)
    return program
  }
}

/** The queue of drawn programs, by seed index. */
export class GuidedDraw {
  readonly #drawn = new Map<number, DrawnProgram>()

  /**
   * @param seedAt the run seed of the `j`-th seed of the campaign (shards interleave).
   * @param maxSeeds the campaign's seed budget (nothing is drawn past it).
   */
  constructor(
    private readonly corpus: Corpus<StoredProgram>, private readonly mix: readonly Scenario[],
    private readonly seedAt: (j: number) => number, private readonly maxSeeds: number,
  ) {}

  /**
   * What the `j`-th seed runs: drawn already when `j > L` (`j` is at most the last seed taken
   * + L + 1); seeds `0 … L` come from the empty corpus, so they are drawn when first asked for.
   */
  programFor(j: number): DrawnProgram {
    let drawn = this.#drawn.get(j)
    if (drawn === undefined && j <= GUIDANCE_LAG) this.#drawn.set(j, (drawn = drawGuided(this.seedAt(j), undefined, this.mix)))
    if (drawn === undefined) throw new Error(`guided draw: seed ${j} is not drawn yet (the ledger must take seed ${j - GUIDANCE_LAG - 1} first)`)
    return drawn
  }

  /** The ledger took the `j`-th seed (after it fed the corpus): its draw is dropped, seed `j+L+1`'s drawn. */
  taken(j: number): void {
    this.#drawn.delete(j)
    this.#draw(j + GUIDANCE_LAG + 1)
  }

  #draw(j: number): void {
    if (j >= this.maxSeeds) return
    this.#drawn.set(j, drawGuided(this.seedAt(j), this.corpus, this.mix))
  }
}
