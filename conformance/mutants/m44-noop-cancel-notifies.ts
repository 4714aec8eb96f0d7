/**
 * Mutant for catalog M44 (cancel/wake): a no-op cancel still notifies observers.
 *
 * Bug: `cancel` emits a notification (an agent/status edge repeating the current status, the
 * contract has no cancel-requested event, §11 D9) whenever it is called, even when it aborted
 * nothing and discarded nothing (an idle cancel with an empty inbox, or an idle keepInbox cancel
 * with parked items). Observers see a spurious edge, and the status trace repeats a value
 * (violates §7.3 step 3 "no notification event", §9 22/142).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { AgentCancelCause, CancelOptions } from '../../core/contract.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  override cancel(cause: AgentCancelCause, options: CancelOptions = {}): void {
    if (!options.keepInbox) {
      this.inbox.clear()
      if (this.phase.kind !== 'idle') this.phase.wakeRequested = false
    }
    const phase = this.phase
    if (phase.kind !== 'idle' && !phase.abort.signal.aborted) phase.abort.abort(cause)
    // BUG: observers are told about every cancel call, effective or not.
    this.host.bus.contained('agent/status', this, { agent: this, status: this.status })
  }
}

export default referenceAdapter(
  { name: 'mutant:m44-noop-cancel-notifies', version: '0.1.0', reproduces: 'M44: a no-op cancel still emits a notification' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
