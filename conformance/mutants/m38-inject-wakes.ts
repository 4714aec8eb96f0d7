/**
 * Mutant for catalog M38 (cancel/wake): quiet (non-waking) input is treated as waking.
 *
 * Bug: `inject` sends with `wakeup = true`: an idle inject opens a turn and calls the model instead
 * of parking durably until the next wake (violates §7.2 step 5, §9 123).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { UserMessage } from '../../core/contract.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  override inject(message: UserMessage): void {
    // BUG: quiet input wakes the driver.
    this.send(message, 'next-step', true)
  }
}

export default referenceAdapter(
  { name: 'mutant:m38-inject-wakes', version: '0.1.0', reproduces: 'M38: quiet (non-waking) input is treated as waking' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
