/**
 * Mutant for appendix A8 (inbox): a claim takes the next-turn item before draining the next-step
 * items.
 *
 * Bug: the loop-internal claim deletes the first next-turn item first and the next-step items
 * second, so a turn's first batch (and the user/messages of its first step) puts the prompt before
 * the steering that was pending (violates the claim batching rule, §6.4, §9 126).
 */
import type { AgentOptions, InboxTarget, Session, UserMessage } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { InboxImpl } from '../../core/inbox.js'
import type { InboxNotifier } from '../../core/inbox.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyInbox extends InboxImpl {
  override claim(target: InboxTarget, turn: number): UserMessage[] {
    const batch: UserMessage[] = []
    // BUG: next-turn before next-step.
    if (target === 'next-turn' && this.lists['next-turn'].length > 0) batch.push(...this.commit('next-turn', 0, 1, [], false, true))
    const steps = this.lists['next-step'].length
    if (steps > 0) batch.push(...this.commit('next-step', 0, steps, [], false, true))
    for (const message of batch) this.notify.claimed(message, turn)
    return batch
  }
}

class BuggyAgent extends ReferenceAgent {
  protected override createInbox(session: Session, notify: InboxNotifier): InboxImpl {
    return new BuggyInbox(session, notify)
  }
}

export default referenceAdapter(
  { name: 'mutant:a8-claim-next-turn-first', version: '0.1.0', reproduces: 'A8: a claim takes the next-turn item before draining next-step items' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
