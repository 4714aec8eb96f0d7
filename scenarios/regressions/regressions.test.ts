/**
 * The regression corpus: one saved, shrunk failing run per mutant of the gallery. Each file
 * replays strictly against its mutant and must violate its recorded clauses again, with the same
 * trace; and the reference factory, run on the same program under a guided replay of the same
 * schedule (its run may diverge from the mutant's where the bug changed the course of events),
 * must show no violation at all.
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../../conformance/adapters/adapter.js'
import { checkRun } from '../../conformance/checkers/index.js'
import { MUTANTS } from '../../conformance/mutants/index.js'
import { readRunFile } from '../../sim/trace/run-file.js'
import { runProgram } from '../../sim/run.js'
import { guidedReplay, replay } from '../../sim/strategies/index.js'
import { NOT_FOUND } from './not-found.js'

const DIR = dirname(fileURLToPath(import.meta.url))
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()
const reference = normalizeAdapter(REFERENCE_ADAPTER, 'reference').installFactory

function mutantOf(adapterPath: string | undefined) {
  const entry = MUTANTS.find((m) => adapterPath === `conformance/mutants/${m.file}`)
  if (!entry) throw new Error(`run file names adapter ${JSON.stringify(adapterPath)}, which is not a mutant of conformance/mutants/index.ts`)
  return entry
}

describe('regression corpus', () => {
  it('has a run file for every mutant, except those listed in not-found.ts with the reason', () => {
    const covered = new Set(FILES.map((f) => mutantOf(readRunFile(join(DIR, f)).adapter).file))
    const missing = MUTANTS.map((m) => m.file).filter((f) => !covered.has(f) && !(f in NOT_FOUND))
    expect(missing).toEqual([])
    for (const f of Object.keys(NOT_FOUND)) expect(covered.has(f), `${f} has a regression file now; drop it from not-found.ts`).toBe(false)
  })

  for (const name of FILES) {
    const file = readRunFile(join(DIR, name))
    const mutant = mutantOf(file.adapter)
    const clauses = (file.violations ?? []).map((v) => v.clause)

    it(`${name}: ${mutant.catalog} violates ${clauses.join(', ')} again on a strict replay`, async () => {
      expect(clauses.length).toBeGreaterThan(0)
      const strategy = replay(file.decisions)
      strategy.beginRun()
      const result = await runProgram(file.program, strategy, { install: normalizeAdapter(mutant.adapter, mutant.file).installFactory })
      expect(result.hash).toBe(file.hash)
      const found = checkRun(file.program, result.trace, result.outcome).map((v) => v.key)
      for (const clause of clauses) expect(found).toContain(clause)
    })

    it(`${name}: the reference factory shows no violation on the same program and schedule`, async () => {
      const strategy = guidedReplay(file.decisions)
      strategy.beginRun()
      const result = await runProgram(file.program, strategy, { install: reference })
      expect(checkRun(file.program, result.trace, result.outcome)).toEqual([])
    })
  }
})
