/**
 * Mutant for catalog M39 (cancel/wake): cancel aborts only the in-flight step.
 *
 * Bug: `cancel` always behaves as `keepInbox: true`: the running activity is aborted but queued
 * prompts and steering stay pending (no canceled splice, no discarded notification), and the latch
 * survives, so queued work runs after the cancel (violates §7.3 step 1, §9 149/153/154).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { AgentCancelCause, CancelOptions } from '../../core/contract.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  override cancel(cause: AgentCancelCause, _options: CancelOptions = {}): void {
    // BUG: the inbox is never cleared and the latch is kept.
    const phase = this.phase
    if (phase.kind !== 'idle' && !phase.abort.signal.aborted) phase.abort.abort(cause)
  }
}

export default referenceAdapter(
  { name: 'mutant:m39-cancel-only-aborts', version: '0.1.0', reproduces: 'M39: cancel aborts only the in-flight step; queued prompts run afterwards' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
