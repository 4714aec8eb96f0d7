/**
 * Mutant for catalog M48 (status/idle): whenIdle trusts the public status.
 *
 * Bug: `whenIdle` resolves at once whenever `status` is not "running", although an activity that
 * reads "idle" may be active (maintenance, with a latched followup that will run when it settles)
 * (violates P-IDLE, §7.5, §9 31/33).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  override async whenIdle(): Promise<void> {
    // BUG: "not running" taken for "idle".
    if (this.status !== 'running') return
    await super.whenIdle()
  }
}

export default referenceAdapter(
  { name: 'mutant:m48-whenidle-status-shortcut', version: '0.1.0', reproduces: 'M48: whenIdle resolves while work is pending because status is not running' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
