/**
 * Mutant for catalog M40 (cancel/wake): an idle cancel poisons the next prompt.
 *
 * Bug: cancelling an idle agent with nothing pending arms a one-shot "cancelled" marker, and the
 * next waking send is swallowed by it (accepted, never inserted, never run), so whenIdle resolves
 * with no turn (violates §7.3 step 3, §9 142).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { AgentCancelCause, CancelOptions, InboxTarget, UserMessage } from '../../core/contract.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  #cancelArmed = false

  override cancel(cause: AgentCancelCause, options: CancelOptions = {}): void {
    // BUG: an idle cancel with nothing to cancel arms a marker for later input.
    if (this.phase.kind === 'idle' && !this.inbox.hasPending) this.#cancelArmed = true
    super.cancel(cause, options)
  }

  override send(message: UserMessage, target: InboxTarget, wakeup: boolean): void {
    if (wakeup && this.#cancelArmed) {
      this.#cancelArmed = false
      return
    }
    super.send(message, target, wakeup)
  }
}

export default referenceAdapter(
  { name: 'mutant:m40-idle-cancel-poisons', version: '0.1.0', reproduces: 'M40: an idle cancel drops the next prompt' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
