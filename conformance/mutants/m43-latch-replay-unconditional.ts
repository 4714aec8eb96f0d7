/**
 * Mutant for catalog M43 (cancel/wake): a latched wake is replayed although its message is gone.
 *
 * Bug: the latch replay at an activity's convergence does not check that the inbox still has
 * pending items, so a followup latched behind maintenance (or a converging abort) and removed
 * before convergence still opens an empty turn: an idle→running→idle flap with no work (violates
 * §7.2 "Latch replay", §9 32/147).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  protected override replayLatch(wakeRequested: boolean): void {
    // BUG: no `inbox.hasPending` check.
    if (wakeRequested && this.phase.kind === 'idle' && !this.tornDown) this.startDriver()
  }
}

export default referenceAdapter(
  { name: 'mutant:m43-latch-replay-unconditional', version: '0.1.0', reproduces: 'M43: a latched wake is replayed after its message was removed' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
