/**
 * Mutant for catalog M28 (teardown): a successful handle disposal leaves owner-side bookkeeping.
 *
 * Bug: `runTeardown` never retires the `agentLoop.lifecycle(<id>)` effect it registered on the
 * owner fiber. A long-lived owner that creates and disposes N agents accumulates N stale effects,
 * and its eventual unload re-runs N teardown hooks for dead agents (violates §5.1 step 7, §9 99).
 */
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { TeardownTrigger, Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m28-owner-effect-not-retired', version: '0.1.0', reproduces: 'M28: a disposed handle leaves its lifecycle effect on the owner fiber' },
  class extends ReferenceFactory {
    protected override release(tx: Transaction, trigger: TeardownTrigger): void {
      try {
        this.detachEntries(tx, trigger)
      } finally {
        this.tracked.delete(tx)
        // BUG: the owner fiber's lifecycle effect is never retired.
      }
    }
  },
)
