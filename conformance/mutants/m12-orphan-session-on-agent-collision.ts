/**
 * Mutant for catalog M12 (registry, in the factory's use of it): an identity collision found at the
 * agent registry leaves an orphan session.
 *
 * Bug: `publish` enters the session, then the agent, but records the session's detach capability
 * only after the agent entered. When `agents.enter` throws `already registered` (the agent id is
 * held by some agent registered directly, §3.5 L), the rollback cannot detach the session: the store
 * keeps a session with no agent and the id stays unusable (violates P-CLEAN).
 */
import type { ReferenceAgent } from '../../core/agent.js'
import type { Session } from '../../core/contract.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m12-orphan-session-on-agent-collision', version: '0.1.0', reproduces: 'M12: a collision detected after the session was entered leaves an orphan session' },
  class extends ReferenceFactory {
    protected override enterEntries(tx: Transaction, agent: ReferenceAgent, session: Session): void {
      const detachSession = agent.ctx.sessions.enter(session)
      tx.detachAgent = agent.ctx.agents.enter(agent, tx.ownerCtx.agent)
      // BUG: recorded only if the agent entered too.
      tx.detachSession = detachSession
    }
  },
)
