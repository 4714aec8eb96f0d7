/**
 * Mutant for catalog M13 (registry/dispatch): the lifecycle-event subject breaks agent methods.
 *
 * Bug: `publish` hands agent/session-start listeners a delegating Proxy of the agent instead of the
 * agent itself. Reads work, but every method that touches the agent's native private state (send,
 * followup, steer, cancel, whenIdle) throws a TypeError through it, so the documented first
 * injection point cannot drive the agent (violates §1.9: the payload carries the exact agent).
 */
import type { AgentSetupCommit } from '../../core/contract.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapter.js'

export default referenceAdapter(
  { name: 'mutant:m13-proxy-receiver', version: '0.1.0', reproduces: 'M13: the session-start subject is a proxy whose methods throw' },
  class extends ReferenceFactory {
    protected override publish(tx: Transaction, commit: AgentSetupCommit | undefined): void {
      const agent = tx.agent!
      const session = tx.session!
      commit?.commit()
      this.assertLive(tx)
      tx.detachSession = agent.ctx.sessions.enter(session)
      tx.detachAgent = agent.ctx.agents.enter(agent, tx.ownerCtx.agent)
      agent.ctx.sessions.announce(session)
      this.assertLive(tx)
      agent.ctx.agents.announce(agent)
      this.assertLive(tx)
      // BUG: a delegating receiver instead of the agent.
      this.ctx.events.contained('agent/session-start', agent, { agent: new Proxy(agent, {}), source: tx.source })
      this.assertLive(tx)
    }
  },
)
