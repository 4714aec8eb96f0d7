/**
 * Meta-test of the mutant gallery: every directed case passes on the reference adapter, and every
 * mutant fails at least one directed case (unless its index entry says `caughtByDirected: false`,
 * with a reason). Prints a table mutant → caught-by case titles.
 *
 * The clause-checker suite extends this file later (each entry's `expectedClauses`).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { DIRECTED_CASES } from '../cases/index.js'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../adapters/adapter.js'
import { caseTarget } from '../certify/certify.js'
import { runDirected } from './directed.js'
import type { CaseFailure } from './directed.js'
import { MUTANTS } from './index.js'

const caughtBy = new Map<string, CaseFailure[]>()

describe('mutant gallery: directed cases', () => {
  it('the gallery is well formed (unique files, names and catalog ids on every entry; reasons where uncaught)', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(30)
    expect(new Set(MUTANTS.map((m) => m.file)).size).toBe(MUTANTS.length)
    expect(new Set(MUTANTS.map((m) => m.adapter.name)).size).toBe(MUTANTS.length)
    for (const m of MUTANTS) {
      expect(m.adapter.name, m.file).toBe(`mutant:${m.file.replace(/\.ts$/, '')}`)
      expect(m.catalog, m.file).toMatch(/^(M\d\d|A\d+)$/)
      expect(m.adapter.reproduces?.startsWith(`${m.catalog}:`), m.file).toBe(true)
      if (m.caughtByDirected === false) expect(m.reason, m.file).toBeTruthy()
    }
  })

  it('the reference adapter passes every directed case', async () => {
    const failures = await runDirected(caseTarget(normalizeAdapter(REFERENCE_ADAPTER)), DIRECTED_CASES)
    expect(failures).toEqual([])
  }, 120_000)

  for (const m of MUTANTS) {
    const expected = m.caughtByDirected !== false
    it(`${m.file} (${m.catalog}) ${expected ? 'is caught' : 'is kept (not caught by a directed case)'}`, async () => {
      const failures = await runDirected(caseTarget(normalizeAdapter(m.adapter, m.file)), DIRECTED_CASES)
      caughtBy.set(m.file, failures)
      if (expected) expect(failures.length, `${m.file} (${m.adapter.reproduces}) passed every directed case`).toBeGreaterThan(0)
    }, 300_000)
  }

  afterAll(() => {
    const lines = ['', 'mutant → caught by directed cases', '']
    for (const m of MUTANTS) {
      const failures = caughtBy.get(m.file)
      if (!failures) continue
      const flag = m.caughtByDirected === false ? (failures.length > 0 ? '  [marked not caught, but IS caught now: update index.ts]' : `  [not caught: ${m.reason}]`) : ''
      lines.push(`${m.file} (${m.catalog}): ${failures.length} case(s)${flag}`)
      for (const f of failures) lines.push(`    ${f.title}  —  ${f.reason}`)
    }
    console.log(lines.join('\n'))
  })
})
