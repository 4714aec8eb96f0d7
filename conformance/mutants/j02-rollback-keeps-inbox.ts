/**
 * Mutant J02 (rollback, a blind spot of the checkers until the trace recorded where a rollback
 * began): a rollback keeps the inbox.
 *
 * Bug: the rollback of a published creation tears the agent down without discarding its pending
 * inbox, as the rollback of a creation never announced rightly does (§3.5): input sent during the
 * publication (from a creation listener) is still pending at `agent/disposed` instead of being
 * durably canceled (violates §5.1 step 3, §9 114). Before the world recorded the injected throw
 * that begins such a rollback, AGENT-TEARDOWN-TEST 114 skipped every creation that failed after
 * publication, so no checker saw it.
 */
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

/** Transactions being rolled back. */
const rollingBack = new WeakSet<Transaction>()

class BuggyFactory extends ReferenceFactory {
  protected override runTeardown(tx: Transaction, trigger: Parameters<ReferenceFactory['runTeardown']>[1]): Promise<void> {
    if (trigger === 'rollback') rollingBack.add(tx)
    return super.runTeardown(tx, trigger)
  }

  // BUG: a rollback keeps the inbox even when the agent was announced.
  protected override discardsInbox(tx: Transaction): boolean {
    return !rollingBack.has(tx) && super.discardsInbox(tx)
  }
}

export default referenceAdapter(
  { name: 'mutant:j02-rollback-keeps-inbox', version: '0.1.0', reproduces: 'J02: the rollback of a published creation keeps its pending inbox' },
  BuggyFactory,
)
