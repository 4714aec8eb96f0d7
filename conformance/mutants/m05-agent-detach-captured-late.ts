/**
 * Mutant for catalog M05 (registry, in the factory's use of it): the registration's disposer is
 * captured only after the announcement returned.
 *
 * Bug: `publish` keeps the agent registry's detach capability in a local and stores it on the
 * transaction only after agents.announce returns. A throwing agent/created listener aborts publish
 * before the disposer is stored, so the rollback cannot unregister: the agent stays registered
 * forever and the id is never reusable (violates P-CLEAN, P-PAIR; §3.5 K).
 */
import type { AgentSetupCommit } from '../../core/contract.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m05-agent-detach-captured-late', version: '0.1.0', reproduces: 'M05: a throwing agent/created listener leaks the registry entry' },
  class extends ReferenceFactory {
    protected override publish(tx: Transaction, commit: AgentSetupCommit | undefined): void {
      const agent = tx.agent!
      const session = tx.session!
      commit?.commit()
      this.assertLive(tx)
      tx.detachSession = agent.ctx.sessions.enter(session)
      const detachAgent = agent.ctx.agents.enter(agent, tx.ownerCtx.agent)
      agent.ctx.sessions.announce(session)
      this.assertLive(tx)
      agent.ctx.agents.announce(agent)
      // BUG: stored only once the announcement succeeded.
      tx.detachAgent = detachAgent
      this.assertLive(tx)
      this.ctx.events.contained('agent/session-start', agent, { agent, source: tx.source })
      this.assertLive(tx)
    }
  },
)
