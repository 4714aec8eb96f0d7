/**
 * Mutant for catalog M15 (rollback): a partially delivered announcement is not paired during
 * rollback.
 *
 * Bug: on a rollback the teardown detaches the agent but never the session (the factory assumes a
 * session nobody has seen needs no disposal). After a throwing agent/created (or session/created)
 * listener the observers saw session/created, agent/created, agent/disposed and then nothing: the
 * session stays in the store with no agent and the id is not reusable (violates P-PAIR, P-ORDER,
 * P-CLEAN; §3.5 J/K).
 */
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { TeardownTrigger, Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m15-rollback-keeps-session', version: '0.1.0', reproduces: 'M15: a partially delivered announcement is not paired during rollback' },
  class extends ReferenceFactory {
    protected override detachEntries(tx: Transaction, trigger: TeardownTrigger): void {
      try {
        tx.detachAgent?.()
      } finally {
        // BUG: a rolled-back session is never detached.
        if (trigger !== 'rollback') tx.detachSession?.()
      }
    }
  },
)
