/**
 * The suite against the gallery: every mutant must be caught by the quick profile of `certify`
 * (directed cases, directed programs under many schedules, random programs, all checkers), and the
 * test prints the mutation score and the clause that caught each mutant. (The reference factory's
 * clean certificate is `conformance/certify/reference.conformance.test.ts`.)
 */
import { afterAll, describe, expect, it } from 'vitest'
import { certify } from '../certify/certify.js'
import { MUTANTS } from './index.js'

const caught = new Map<string, { clause: string; via: string; ms: number }>()

describe('mutant gallery: certify quick catches every mutant', () => {
  for (const m of MUTANTS) {
    it(`${m.file} (${m.catalog}) is caught by certify --profile quick`, async () => {
      const started = performance.now()
      const report = await certify(m.adapter, { profile: 'quick', failFast: true, outDir: '.dsh-kit/mutant-failures', adapterModule: `conformance/mutants/${m.file}` })
      const failing = report.clauses.find((c) => c.status === 'fail')
      if (failing) caught.set(m.file, { clause: failing.key, via: failing.failure!.via, ms: Math.round(performance.now() - started) })
      expect(failing, `${m.file} (${m.adapter.reproduces}) passed the quick profile`).toBeDefined()
      // A failure is reproducible: a simulated one carries its replay command, a directed one its rerun.
      expect(failing!.failure!.replay).toMatch(/^npx dsh-kit (replay|certify) /)
    }, 180_000)
  }

  afterAll(() => {
    const lines = ['', `mutation score (certify quick): ${caught.size}/${MUTANTS.length}`, '']
    for (const m of MUTANTS) {
      const c = caught.get(m.file)
      lines.push(`  ${m.file.padEnd(46)} ${m.catalog.padEnd(4)} ${c ? `${c.clause}  (${c.via}, ${c.ms} ms)` : 'NOT CAUGHT'}`)
    }
    console.log(lines.join('\n'))
  })
})
