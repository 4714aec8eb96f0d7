import { describe, expect, it } from 'vitest'
import { DIRECTED_CASES } from '../cases/index.js'
import { CHECKED_CLAUSES } from '../checkers/index.js'
import { CLAUSES } from './clauses.js'

describe('clause coverage of the conformance suite', () => {
  it('every §9 clause has a directed case (which runs through the process port on every runtime)', () => {
    const cased = new Set(DIRECTED_CASES.map((c) => c.clause))
    const missing = CLAUSES.filter((c) => c.group !== 'X-RUN' && !cased.has(c.clause)).map((c) => `${c.group} ${c.clause}`)
    expect(missing).toEqual([])
  })

  it('every directed case names a §9 clause that exists, under its own group', () => {
    const groupOf = new Map(CLAUSES.filter((c) => c.group !== 'X-RUN').map((c) => [c.clause, c.group]))
    for (const c of DIRECTED_CASES) expect(`${c.group} ${c.clause}`).toBe(`${groupOf.get(c.clause)} ${c.clause}`)
  })

  it('every checked clause names a §9 clause', () => {
    for (const n of CHECKED_CLAUSES) expect(n).toBeGreaterThanOrEqual(1)
  })
})
