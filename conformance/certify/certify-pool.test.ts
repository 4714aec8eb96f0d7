/**
 * Workers started before the suite loads (`startCertifyPool`, as the CLI does) give the same
 * certificate as workers `certify` starts itself, are refused when started with other options than
 * the certification's, and are closed by `certify` either way.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import a6 from '../mutants/a6-unannounced-disposed-edge.js'
import { certify } from './certify.js'
import { startCertifyPool } from './certify-pool.js'
import { CertifyOptionError } from './clause-number.js'

const KEY = 'AGENT-REGISTRY-LIFECYCLE 79'
const MODULE = 'conformance/mutants/a6-unannounced-disposed-edge.ts'

describe('certification workers started ahead', () => {
  it('give the certificate certify gives with its own workers, and are closed after', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'dsh-certify-pool-'))
    const options = { only: [KEY], outDir, adapterModule: MODULE, workers: 2, shrink: false }
    const own = await certify(a6, options)
    const pool = startCertifyPool(2, options)
    const ahead = await certify(a6, { ...options, pool })
    const strip = (r: typeof own): unknown => ({ ...r, durationMs: 0 })
    expect(strip(ahead)).toEqual(strip(own))
    expect(ahead.clauses.find((c) => c.key === KEY)!.status).toBe('fail')
    await expect(pool.pool.run({ kind: 'case', index: 0 })).rejects.toThrow('run() after close()')
  }, 120_000)

  it('are refused, and closed, when started with other options than the certification', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'dsh-certify-pool-'))
    const pool = startCertifyPool(1, { only: [KEY], outDir, adapterModule: MODULE, workers: 1 })
    await expect(certify(a6, { only: [KEY], outDir, adapterModule: MODULE, workers: 1, seed: 7, pool })).rejects.toThrow(CertifyOptionError)
    await expect(pool.pool.run({ kind: 'case', index: 0 })).rejects.toThrow('run() after close()')
  })
})
