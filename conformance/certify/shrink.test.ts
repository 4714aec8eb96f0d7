/**
 * certify shrinks the simulated counterexample of each failing clause (AGENT-REGISTRY-LIFECYCLE 79
 * here, which mutant A6 fails first in a directed program) before reporting it: the reported run
 * is smaller than the one found, replays strictly to the same clause, and the run as found stays
 * on disk; the certificate is the same whether the shrink ran in this thread or in a worker.
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readRunFile } from '../../sim/trace/run-file.js'
import { runProgram } from '../../sim/run.js'
import { replay } from '../../sim/strategies/index.js'
import { normalizeAdapter } from '../adapters/adapter.js'
import { planCertify } from './plan.js'
import { shrinkUnits } from './shrink.js'
import type { UnitVerdict } from './unit.js'
import { checkRun } from '../checkers/index.js'
import { formatFailure } from './failure-text.js'
import a6 from '../mutants/a6-unannounced-disposed-edge.js'
import { certify } from './certify.js'

const KEY = 'AGENT-REGISTRY-LIFECYCLE 79'
const MODULE = 'conformance/mutants/a6-unannounced-disposed-edge.ts'

describe('certify shrinks its failures', () => {
  it(`${KEY} (mutant A6): the reported run is shrunk, replays strictly to the clause, and is printed first`, async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'dsh-certify-shrink-'))
    const report = await certify(a6, { only: [KEY], failFast: true, outDir, adapterModule: MODULE })
    const clause = report.clauses.find((c) => c.key === KEY)!
    expect(clause.status).toBe('fail')
    const f = clause.failure!
    expect(f.via).toBe('directed program')
    expect(f.shrink?.shrunk).toBe(true)
    const { before, after, original } = f.shrink!
    expect(after!.operations).toBeLessThan(before!.operations)
    expect(after!.decisions).toBeLessThan(before!.decisions)
    expect(f.decisions).toBe(after!.decisions)
    expect(original.decisions).toBe(before!.decisions)
    expect(f.runFile).toMatch(/-shrunk\.json$/)
    expect(existsSync(original.runFile!)).toBe(true)
    expect(f.replay).toBe(`npx dsh-kit replay ${f.runFile} --adapter ${MODULE}`)

    const file = readRunFile(f.runFile!)
    expect(file.program).toEqual(f.program)
    expect(file.adapter).toBe(MODULE)
    expect(file.violations?.map((v) => v.clause)).toEqual([KEY])
    const strict = replay(file.decisions)
    strict.beginRun()
    const result = await runProgram(file.program, strict, { install: normalizeAdapter(a6, MODULE).installFactory })
    expect(result.hash).toBe(file.hash)
    expect(checkRun(file.program, result.trace, result.outcome).map((v) => v.key)).toContain(KEY)

    // The text report gives the shrunk program as builder code, then the sizes, then the run as found.
    const text = formatFailure(clause)
    const at = (s: string): number => text.indexOf(s)
    expect(at('program (shrunk):\n    program([')).toBeGreaterThan(0)
    expect(at(`shrunk from ${before!.operations} operations to ${after!.operations} `)).toBeGreaterThan(at('program (shrunk):'))
    expect(at(`as found (${before!.decisions} decisions): npx dsh-kit replay ${original.runFile}`)).toBeGreaterThan(at('shrunk from'))

    // Workers shrink the same way (the units are deterministic, the budget is a run count).
    const pooled = await certify(a6, { only: [KEY], failFast: true, outDir, adapterModule: MODULE, workers: 2 })
    expect(pooled.clauses.find((c) => c.key === KEY)!.failure).toEqual(f)

    // --no-shrink: the run as found, as before.
    const plain = await certify(a6, { only: [KEY], failFast: true, outDir, adapterModule: MODULE, shrink: false })
    const g = plain.clauses.find((c) => c.key === KEY)!.failure!
    expect(g.shrink).toBeUndefined()
    expect(g.runFile).toBe(original.runFile)
    expect(g.program).toEqual(original.program)
  }, 120_000)

  it('shrinks the first failure of each clause in unit order, and only simulated runs that finished', () => {
    const plan = planCertify(normalizeAdapter(a6, MODULE))
    const failure = (runFile?: string) => ({ message: 'm', via: 'random program' as const, ...(runFile ? { runFile } : {}) })
    const caseIndex = plan.units.findIndex((u) => u.kind === 'case')
    const runs = plan.units.map((u, i) => [u, i] as const).filter(([u]) => u.kind === 'random').map(([, i]) => i)
    const verdicts: (UnitVerdict | undefined)[] = new Array(plan.units.length).fill(undefined)
    verdicts[caseIndex] = { kind: 'case', clause: 1, failures: [{ key: 'A 1', failure: { message: 'm', via: 'directed case' } }] }
    verdicts[runs[0]!] = { kind: 'run', failures: [{ key: 'A 1', failure: failure('f0') }, { key: 'B 2', failure: failure() }] }
    verdicts[runs[1]!] = { kind: 'run', failures: [{ key: 'B 2', failure: failure('f1') }, { key: 'C 3', failure: failure('f1') }] }
    verdicts[runs[2]!] = { kind: 'run', failures: [{ key: 'C 3', failure: failure('f2') }] }
    // A 1 was first found by a directed case and B 2 by a run that never finished: neither is shrunk.
    expect(shrinkUnits(plan, verdicts)).toEqual([{ kind: 'shrink', key: 'C 3', of: plan.units[runs[1]!] }])
  })
})
