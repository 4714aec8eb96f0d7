/**
 * Meta-test of the process-mutant gallery: `certify --profile quick` catches every process mutant
 * (the kit's own process with one store/registry/initiator/session/inbox method changed), naming a
 * clause, and prints the score. The unmutated kit process passes (`cases/reference.test.ts`).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { certify } from '../../certify/certify.js'
import { PROCESS_MUTANTS } from './index.js'

const caught = new Map<string, { clause: string; via: string; ms: number }>()

describe('process-mutant gallery: certify quick catches every process mutant', () => {
  it('the gallery is well formed (at least 12, unique files and names, each says what it reproduces)', () => {
    expect(PROCESS_MUTANTS.length).toBeGreaterThanOrEqual(12)
    expect(new Set(PROCESS_MUTANTS.map((m) => m.file)).size).toBe(PROCESS_MUTANTS.length)
    for (const m of PROCESS_MUTANTS) {
      expect(m.adapter.name, m.file).toBe(`process-mutant:${m.file.replace(/\.ts$/, '')}`)
      expect(m.adapter.reproduces, m.file).toMatch(/^(M\d\d|A[1-8]|§9 \d+):/)
      expect(typeof m.adapter.process, m.file).toBe('function')
    }
  })

  for (const m of PROCESS_MUTANTS) {
    it(`${m.file} is caught by certify --profile quick`, async () => {
      const started = performance.now()
      const report = await certify(m.adapter, { profile: 'quick', failFast: true, outDir: '.dsh-kit/mutant-failures', adapterModule: `conformance/mutants/process/${m.file}` })
      const failing = report.clauses.find((c) => c.status === 'fail')
      if (failing) caught.set(m.file, { clause: failing.key, via: failing.failure!.via, ms: Math.round(performance.now() - started) })
      expect(failing, `${m.file} (${m.adapter.reproduces}) passed the quick profile`).toBeDefined()
      expect(failing!.key).toMatch(/^(AGENT-[A-Z-]+|X-[A-Z]+) \d+$/)
    }, 180_000)
  }

  afterAll(() => {
    const lines = ['', `process-mutant score (certify quick): ${caught.size}/${PROCESS_MUTANTS.length}`, '']
    for (const m of PROCESS_MUTANTS) {
      const c = caught.get(m.file)
      lines.push(`  ${m.file.padEnd(44)} ${c ? `${c.clause}  (${c.via}, ${c.ms} ms)` : 'NOT CAUGHT'}`)
    }
    console.log(lines.join('\n'))
  })
})
