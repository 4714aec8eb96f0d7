/**
 * Mutant for catalog M04 (publication): a derived "started" notification fires before the object's
 * creation edges.
 *
 * Bug: `publish` emits agent/session-start (the derived start edge) right after entering the
 * registries, before session/created and agent/created; when a created listener then vetoes, a
 * start edge has been delivered for an agent that never existed (violates P-ORDER, §3.2).
 */
import type { AgentSetupCommit } from '../../core/contract.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m04-session-start-before-created', version: '0.1.0', reproduces: 'M04: a derived start notification fires before the creation edges' },
  class extends ReferenceFactory {
    protected override publish(tx: Transaction, commit: AgentSetupCommit | undefined): void {
      const agent = tx.agent!
      const session = tx.session!
      commit?.commit()
      this.assertLive(tx)
      tx.detachSession = agent.ctx.sessions.enter(session)
      tx.detachAgent = agent.ctx.agents.enter(agent, tx.ownerCtx.agent)
      // BUG: the start edge goes out before the creation edges.
      this.ctx.events.contained('agent/session-start', agent, { agent, source: tx.source })
      this.assertLive(tx)
      agent.ctx.sessions.announce(session)
      this.assertLive(tx)
      agent.ctx.agents.announce(agent)
      this.assertLive(tx)
    }
  },
)
