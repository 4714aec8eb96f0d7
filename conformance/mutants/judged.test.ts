/**
 * Each blind spot the checkers no longer have (`judged.ts`): its mutant's saved run replays strictly
 * to its hash and violates the clause; a run decided by the trace's facts is declined again without
 * them (the shape the checkers used to decline); and the reference, on the same program under the
 * same schedule, shows no violation.
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../adapters/adapter.js'
import { loadAdapter } from '../adapters/adapter-loader.js'
import { checkRun } from '../checkers/index.js'
import { readRunFile } from '../../sim/trace/run-file.js'
import { runProgram } from '../../sim/run.js'
import { guidedReplay, replay } from '../../sim/strategies/index.js'
import { JUDGED } from './judged.js'

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'judged')

describe('blind spots removed, each proven by a mutant', () => {
  it('every run file has its proof, and every proof its run file', () => {
    expect(readdirSync(DIR).sort()).toEqual(JUDGED.map((p) => p.run).sort())
  })

  for (const proof of JUDGED) {
    it(`${proof.mutant} violates ${proof.clause} (${proof.rows.join(', ')}) on its saved run, and the reference does not`, async () => {
      const file = readRunFile(join(DIR, proof.run))
      expect(file.adapter).toBe(`conformance/mutants/${proof.mutant}`)
      const mutant = normalizeAdapter(await loadAdapter(file.adapter!), proof.mutant)
      const strict = replay(file.decisions)
      strict.beginRun()
      const result = await runProgram(file.program, strict, { process: mutant.processFactory })
      expect(result.hash).toBe(file.hash)
      expect(checkRun(file.program, result.trace, result.outcome).map((v) => v.key)).toContain(proof.clause)
      if (proof.byFacts) expect(checkRun(file.program, { ...result.trace, facts: undefined }, result.outcome).map((v) => v.key)).not.toContain(proof.clause)
      const guided = guidedReplay(file.decisions)
      guided.beginRun()
      const reference = await runProgram(file.program, guided, { install: normalizeAdapter(REFERENCE_ADAPTER, 'reference').installFactory })
      expect(checkRun(file.program, reference.trace, reference.outcome)).toEqual([])
    })
  }
})
