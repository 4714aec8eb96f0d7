/**
 * Mutant J06 (inbox, a blind spot of the checkers until a canceled splice's cause had to reach its
 * agent): disposing one agent clears every agent's inbox.
 *
 * Bug: the teardown's inbox discard runs over every agent the factory tracks, not only the one torn
 * down (a shared clear keyed by the factory instead of the agent): another agent's pending input is
 * durably canceled although nothing asked to cancel it (violates §7.3, §9 163). X-INPUT 163 took
 * any teardown-kind operation made since the agent's publication (a dispose of any id, any owner's
 * unload) as the cause of a canceled splice with no cancel open, so no checker saw it.
 */
import type { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:j06-dispose-clears-every-inbox', version: '0.1.0', reproduces: 'J06: a teardown clears the inbox of every agent of the factory' },
  class extends ReferenceFactory {
    protected override cancelForTeardown(tx: Transaction, agent: ReferenceAgent, keepInbox: boolean): void {
      super.cancelForTeardown(tx, agent, keepInbox)
      // BUG: the discard goes to every agent the factory holds.
      if (!keepInbox) for (const other of this.tracked) if (other !== tx && other.agentAnnounced) other.agent?.inbox.clear()
    }
  },
)
