/**
 * The second mutant gallery: one bug each in the independent example factory
 * (`examples/from-scratch-factory/`), written from the contract without the first gallery in view.
 * Each entry names its module (`<id>-<name>.ts`, an adapter module), the clause it is expected to
 * violate (from the contract, not from what the kit reports) and the bug in one line.
 * `README.md` has what the kit finds of each, measured.
 * @module
 */

/** One mutant of the gallery. */
export interface ScratchMutant {
  /** `f00`, `f01`, …: the module's prefix. */
  readonly id: string
  /** The module is `<id>-<name>.ts`. */
  readonly name: string
  /** The §9 clause the bug should violate first (others may follow). */
  readonly clause: string
  /** What is wrong, in one line. */
  readonly description: string
}

export const SCRATCH_MUTANTS: readonly ScratchMutant[] = [
  {
    id: 'f00', name: 'turn-after-dispose-began', clause: 'AGENT-TEARDOWN-TEST 107',
    description: 'the example as it stood: the next turn renews an activity controller aborted by a turn/end observer\'s teardown',
  },
]

/** The module path of a mutant, relative to the package root (what `--adapter` takes). */
export function modulePath(m: ScratchMutant): string {
  return `conformance/mutants/from-scratch/${m.id}-${m.name}.ts`
}

/** The entry of `id`; throws for an unknown one. */
export function findScratchMutant(id: string): ScratchMutant {
  const found = SCRATCH_MUTANTS.find((m) => m.id === id)
  if (!found) throw new Error(`unknown from-scratch mutant "${id}" (known: ${SCRATCH_MUTANTS.map((m) => m.id).join(', ')})`)
  return found
}
