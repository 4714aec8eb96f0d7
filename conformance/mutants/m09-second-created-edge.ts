/**
 * Mutant for catalog M09 (registry, in the factory's use of it): the announcement is not one-shot.
 *
 * Bug: after `agents.announce(agent)` the factory emits agent/created once more on its own (as if
 * announcing were its job too). Every listener sees two created edges for one entry but only one
 * agent/disposed later, so lifecycle mirrors never balance (violates P-PAIR, §3.6 rule 1).
 */
import type { ReferenceAgent } from '../../core/agent.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m09-second-created-edge', version: '0.1.0', reproduces: 'M09: a second agent/created edge for the same entry' },
  class extends ReferenceFactory {
    protected override announceAgent(tx: Transaction, agent: ReferenceAgent): void {
      super.announceAgent(tx, agent)
      // BUG: announced again by hand.
      this.ctx.events.contained('agent/created', agent, { agent })
    }
  },
)
