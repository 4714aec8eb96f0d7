/**
 * Mutant J03 (wake, a blind spot of the checkers until they told a keepInbox cancel that parked
 * input from one that found nothing to abort): a wake only starts from an empty inbox.
 *
 * Bug: a waking send to an idle agent starts a driver only when the inbox held nothing before it,
 * as if pending input meant a driver were already on its way: a followup after quiet input parked
 * while idle (an `inject`) stays pending, and the agent stays idle (violates §7.2 step 4, §9
 * 19). A `cancel(…, {keepInbox: true})` made afterwards on the idle agent aborts nothing and parks
 * nothing (§7.3), but AGENT-RUNTIME-SCOPE 19 took any keepInbox cancel after a send as its park, so
 * no checker saw the message left behind in that shape.
 */
import type { AgentOptions, InboxTarget, Session, UserMessage } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  override send(message: UserMessage, target: InboxTarget, wakeup: boolean): void {
    // BUG: input already pending is taken for a wake already under way.
    if (wakeup && this.phase.kind === 'idle' && this.inbox.hasPending) return super.send(message, target, false)
    super.send(message, target, wakeup)
  }
}

export default referenceAdapter(
  { name: 'mutant:j03-wake-only-an-empty-inbox', version: '0.1.0', reproduces: 'J03: a waking send to an idle agent with input already pending starts no driver' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
