/**
 * Mutant for appendix A6 (rollback): an entry that was entered but never announced gets a
 * disposed edge.
 *
 * Bug: on a rollback `runTeardown` emits agent/disposed itself after detaching the agent, whether
 * or not the agent's announcement ever began. A throwing session/created listener (agent entered,
 * never announced) thus produces an impossible agent/disposed; a throwing agent/created listener a
 * second one (violates P-PAIR, §3.6 rule 3, §9 79/95).
 */
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { TeardownTrigger, Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:a6-unannounced-disposed-edge', version: '0.1.0', reproduces: 'A6: rolling back an entered, never announced agent emits agent/disposed' },
  class extends ReferenceFactory {
    protected override detachEntries(tx: Transaction, trigger: TeardownTrigger): void {
      try {
        tx.detachAgent?.()
        // BUG: the factory pairs the rollback by hand, announced or not.
        if (trigger === 'rollback' && tx.detachAgent && tx.agent) this.ctx.events.contained('agent/disposed', tx.agent, { agent: tx.agent })
      } finally {
        tx.detachSession?.()
      }
    }
  },
)
