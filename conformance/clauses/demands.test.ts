import { describe, expect, it } from 'vitest'
import { caseTitle, DIRECTED_CASES } from '../cases/index.js'
import { SUITE_DEMANDS } from './demands.js'
import { DIRECTED_PROGRAMS } from '../programs/directed-programs.js'

describe('the contract\'s demands on the suite (§11–§12)', () => {
  for (const d of SUITE_DEMANDS) {
    it(`${d.id}: every named program is a directed program and every named case exists and runs on every runtime`, () => {
      expect(d.programs.length + d.cases.length).toBeGreaterThan(0)
      for (const name of d.programs) expect(DIRECTED_PROGRAMS.map((p) => p.name), `${d.id}: program ${name}`).toContain(name)
      for (const prefix of d.cases) {
        const found = DIRECTED_CASES.filter((c) => caseTitle(c).startsWith(prefix))
        expect(found.length, `${d.id}: case ${prefix}`).toBeGreaterThan(0)
        for (const c of found) expect(c.needs ?? [], `${d.id}: ${caseTitle(c)} needs no capability`).toEqual([])
      }
    })
  }

  it('names every Suite (MUST) and suite-must-not line: D17, D18, Q4, Q6, Q7, Q8', () => {
    expect(SUITE_DEMANDS.map((d) => d.id)).toEqual(expect.arrayContaining(['D17', 'D18', 'Q4', 'Q6', 'Q7', 'Q8']))
  })
})

describe('the capability table of conformance/README.md matches the cases', () => {
  it('every capability is in the table, with exactly the §9 clauses of the cases that need it', async () => {
    const { readFileSync } = await import('node:fs')
    const { CAPABILITY_NAMES } = await import('../adapters/capabilities.js')
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    for (const name of CAPABILITY_NAMES) {
      // `—` for a capability no directed case needs (only a directed program does).
      const row = new RegExp(`^\\| \`${name}\` \\|[^\\n]*\\| ([\\d, ]+|—) \\|$`, 'm').exec(readme)
      expect(row, `README row for ${name}`).not.toBeNull()
      const documented = row![1] === '—' ? [] : row![1]!.split(',').map((n) => Number(n.trim())).sort((x, y) => x - y)
      const needed = [...new Set(DIRECTED_CASES.filter((c) => c.needs?.includes(name)).map((c) => c.clause))].sort((x, y) => x - y)
      expect(documented, name).toEqual(needed)
    }
  })
})
