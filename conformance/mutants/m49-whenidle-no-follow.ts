/**
 * Mutant for catalog M49 (status/idle): whenIdle does not follow replacement work.
 *
 * Bug: `whenIdle` awaits the activity it observed once and returns, without re-checking whether a
 * replacement activity (latch replay, work sent by an idle listener, a resend after cancel) took
 * over before it retired (violates P-IDLE identity following, §7.5, §9 27).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  override async whenIdle(): Promise<void> {
    // BUG: no identity-following loop.
    await this.activityDone
  }
}

export default referenceAdapter(
  { name: 'mutant:m49-whenidle-no-follow', version: '0.1.0', reproduces: 'M49: whenIdle does not follow replacement work' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
