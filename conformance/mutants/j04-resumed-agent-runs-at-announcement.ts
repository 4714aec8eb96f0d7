/**
 * Mutant J04 (publication, a blind spot of the checkers until the trace recorded each operation's
 * synchronous span): a resumed agent runs its pending input at its announcement.
 *
 * Bug: a resumed agent whose restored inbox holds pending input starts its driver when it is
 * announced (`agent/created`), before `agent/session-start` and before its creation resolved: an
 * `agent/status running` during creation nobody asked for (violates §3.1, §9 56; the pending input
 * should wait for a wake). AGENT-PREPARE-PUBLISH 56 excused any status that followed an inline
 * operation made during the creation (a creation listener may drive the agent, catalog M13), from
 * whatever dispatch and on whatever agent, so a listener doing anything at all hid it.
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

class CatchingUpAgent extends ReferenceAgent {
  /** Run what the restored inbox holds. */
  catchUp(): void {
    if (this.phase.kind === 'idle' && this.inbox.hasPending) this.startDriver()
  }
}

export default referenceAdapter(
  { name: 'mutant:j04-resumed-agent-runs-at-announcement', version: '0.1.0', reproduces: 'J04: a resumed agent with pending input starts running when it is announced, before session-start' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new CatchingUpAgent(session, agentOptions, this.ctx)
    }

    protected override announceAgent(tx: Transaction, agent: ReferenceAgent): void {
      super.announceAgent(tx, agent)
      // BUG: the restored input is run before the publication ends.
      ;(agent as CatchingUpAgent).catchUp()
    }
  },
)
