/**
 * Mutant for catalog M33 (inbox): disposal leaves pending inbox items without a terminal outcome.
 *
 * Bug: `runTeardown` cancels with `keepInbox: true`, so queued and parked items are neither
 * durably canceled nor reported as discarded: the durable inbox still lists them after dispose and
 * each inserted id lacks a terminal outcome (violates P-LEDGER, §5.1 step 3, §9 114).
 */
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m33-teardown-keeps-inbox', version: '0.1.0', reproduces: 'M33: disposal leaves pending inbox items without a terminal outcome' },
  class extends ReferenceFactory {
    protected override discardsInbox(_tx: Transaction): boolean {
      // BUG: the pending items are kept.
      return false
    }
  },
)
