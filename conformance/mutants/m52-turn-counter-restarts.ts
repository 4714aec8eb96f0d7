/**
 * Mutant for catalog M52 (persistence/resume): turn numbering restarts in seeded, forked or
 * resumed sessions.
 *
 * Bug: the agent starts its turn counter at 0 instead of the last logged `turn/start` number, so a
 * resumed or seeded session gets duplicate turn numbers (violates P-REPLAY, §3.1 step 4,
 * §9 44/169).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { ContextImpl } from '../../core/scope/context.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  constructor(session: Session, options: AgentOptions, parentCtx: ContextImpl) {
    super(session, options, parentCtx)
    // BUG: the counter is not seeded from the log.
    this.phase = { kind: 'idle', lastTurn: 0 }
  }
}

export default referenceAdapter(
  { name: 'mutant:m52-turn-counter-restarts', version: '0.1.0', reproduces: 'M52: turn numbering restarts at 1 in seeded and resumed sessions' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
