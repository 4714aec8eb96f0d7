import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DIRECTED_CASES } from './cases/index.js'

/** §9 numbers named by a test title in `core/` (`AGENT-... 64:` / `X-... 170:`) or by a directed case. */
function testedClauses(): Set<number> {
  const found = new Set(DIRECTED_CASES.map((c) => c.clause))
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (path.endsWith('.test.ts') && !path.endsWith('clause-coverage.test.ts')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/(?:AGENT-[A-Z-]+|X-[A-Z]+) (\d+)[:,]/g)) found.add(Number(m[1]))
      }
    }
  }
  walk(new URL('.', import.meta.url).pathname)
  return found
}

describe('clause coverage of the reference core', () => {
  it('names at least 150 distinct §9 properties, and every one left out is explained in core/README.md', () => {
    const tested = testedClauses()
    const missing = Array.from({ length: 176 }, (_, i) => i + 1).filter((n) => !tested.has(n))
    expect(tested.size).toBeGreaterThanOrEqual(150)
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8')
    const explained = readme.slice(readme.indexOf('## Clause coverage'))
    for (const n of missing) expect(explained, `§9 ${n} is neither tested nor explained`).toMatch(new RegExp(`\\b${n}\\b`))
  })

  it('every directed case names a §9 clause that exists, under its own group', () => {
    for (const c of DIRECTED_CASES) {
      expect(c.clause).toBeGreaterThanOrEqual(1)
      expect(c.clause).toBeLessThanOrEqual(176)
      expect(c.group).toMatch(/^(AGENT-[A-Z-]+|X-[A-Z]+)$/)
    }
  })
})
