/**
 * The clause reference travels with the kit: `docs/clauses.md` is what the tables generate, every
 * clause rests on sections the kit restates, and every `§` the shipped text cites is one of them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderClauseDoc } from './clause-doc.js'
import { checksOf, findClause, sectionsOf } from './clause-reference.js'
import { CLAUSES } from './clauses.js'
import { SECTION_BY_ID } from './contract-sections.js'

const ROOT = new URL('../..', import.meta.url).pathname

/** The text files the package ships that readers see: READMEs, docs and non-test sources. */
function shippedText(): string[] {
  const files = ['README.md']
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const path = join(dir, name)
      if (statSync(join(ROOT, path)).isDirectory()) {
        if (name !== 'fixtures' && name !== 'regressions') walk(path)
      } else if (/\.(ts|md)$/.test(name) && !name.endsWith('.test.ts')) files.push(path)
    }
  }
  for (const dir of ['core', 'sim', 'conformance', 'scenarios', 'cli', 'docs']) walk(dir)
  return files
}

describe('the clause reference', () => {
  it('docs/clauses.md is what `npm run docs` generates from the clause tables', () => {
    const committed = readFileSync(join(ROOT, 'docs/clauses.md'), 'utf8')
    expect(committed === renderClauseDoc(), 'docs/clauses.md is stale: run `npm run docs` and commit it').toBe(true)
  })

  it('every contract clause rests on at least one section the kit restates, and the doc has an entry for each', () => {
    const doc = renderClauseDoc()
    for (const c of CLAUSES) {
      if (c.group !== 'X-RUN') expect(sectionsOf(c).length, `${c.group} ${c.clause}`).toBeGreaterThan(0)
      expect(doc).toContain(`#### ${c.group} ${c.clause}\n`)
    }
  })

  it('every § the shipped text cites is a section docs/clauses.md restates', () => {
    const unknown: string[] = []
    for (const file of shippedText()) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      for (const m of text.matchAll(/§\s?(\d+(?:\.\d+)*)(?:\s+([QD]\d+))?/g)) {
        const id = m[2] ? `${m[1]} ${m[2]}` : m[1]!
        if (!SECTION_BY_ID.has(id)) unknown.push(`${file}: ${m[0]}`)
      }
    }
    expect(unknown).toEqual([])
  })

  it('no README, doc or message sends an npm user to the contract text, which the package does not ship', () => {
    const offending: string[] = []
    for (const file of shippedText()) {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n')
      lines.forEach((line, i) => {
        if (!/contract\.md|shared\/spec/.test(line)) return
        // Developer notes (comments) may name the source; user-facing text may not.
        const comment = file.endsWith('.ts') && /^\s*(\/\/|\*|\/\*\*)/.test(line)
        if (!comment) offending.push(`${relative(ROOT, join(ROOT, file))}:${i + 1}: ${line.trim()}`)
      })
    }
    expect(offending).toEqual([])
  })

  it('finds a clause by key in any case and spacing, by bare number, and names an unknown one', () => {
    expect(findClause('AGENT-TEARDOWN-TEST 97').clause).toBe(97)
    expect(findClause('  agent-teardown-test   97 ').clause).toBe(97)
    expect(findClause('97').group).toBe('AGENT-TEARDOWN-TEST')
    expect(findClause('X-RUN 2').group).toBe('X-RUN')
    expect(() => findClause('AGENT-ATOMIC-TEST 97')).toThrow(/unknown clause "AGENT-ATOMIC-TEST 97"; clause 97 is AGENT-TEARDOWN-TEST 97/)
    expect(() => findClause('999')).toThrow(/unknown clause "999"/)
  })

  it('says how each clause is checked consistently with the tables: every clause is checked for a factory adapter, and a process adapter only lacks what a capability gates', () => {
    for (const c of CLAUSES) {
      const k = checksOf(c)
      expect(k.factory, `${c.group} ${c.clause}`).toBe('checked')
      if (k.process !== 'checked') expect(k.needs.length, `${c.group} ${c.clause}`).toBeGreaterThan(0)
    }
  })
})
