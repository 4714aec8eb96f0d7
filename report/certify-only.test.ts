/**
 * `certify` with `only` and `failFast`: what stops the run is what the certificate reports.
 */
import { describe, expect, it } from 'vitest'
import { ReferenceFactory } from '../core/index.js'
import type { Transaction } from '../core/factory/transaction.js'
import { referenceAdapter } from '../conformance/adapters/adapter.js'
import { certify } from '../conformance/certify/certify.js'
import { formatReport } from './certify-text.js'

// Teardown forgets the session: an orphan session after a same-id rollback (AGENT-ATOMIC-TEST 65), among others.
class Leaky extends ReferenceFactory {
  protected override async runTeardown(tx: Transaction, trigger: Parameters<ReferenceFactory['runTeardown']>[1]): Promise<void> {
    tx.detachSession = undefined
    return super.runTeardown(tx, trigger)
  }
}

describe('certify --only with --fail-fast', () => {
  it('stops at the first failure of a selected clause, not at a violation of a clause it does not report', async () => {
    const report = await certify(referenceAdapter({ name: 'leaky', version: '0' }, Leaky), { only: ['AGENT-ATOMIC-TEST 65'], failFast: true, outDir: '.dsh-kit/test-failures' })
    expect(report.failing).toEqual(['AGENT-ATOMIC-TEST 65'])
    expect(report.clauses.find((c) => c.key === 'AGENT-ATOMIC-TEST 65')?.failure?.replay).toMatch(/^npx dsh-kit replay /)
    // Said once: how many units ran.
    expect(formatReport(report)).toMatch(new RegExp(`^FAILED \\(and incomplete: only ${report.units.ran} of ${report.units.planned} units ran\\): `, 'm'))
  }, 60_000)
})
