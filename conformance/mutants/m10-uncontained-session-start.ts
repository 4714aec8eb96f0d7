/**
 * Mutant for catalog M10 (registry/lifecycle edges): lifecycle-edge dispatch is not contained per
 * listener.
 *
 * Bug: `publish` emits agent/session-start with a plain (veto) emit instead of a contained one. The
 * first throwing session-start listener stops delivery to later listeners and its exception turns
 * into a spurious rollback of a fully announced agent (violates §1.9/§3.1 step 10: session-start is
 * contained; every listener receives every edge).
 */
import type { AgentSetupCommit } from '../../core/contract.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapter.js'

export default referenceAdapter(
  { name: 'mutant:m10-uncontained-session-start', version: '0.1.0', reproduces: 'M10: a throwing session-start listener is not contained' },
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
      // BUG: plain emit; a throwing listener stops the dispatch and vetoes publication.
      this.ctx.events.veto('agent/session-start', agent, { agent, source: tx.source })
      this.assertLive(tx)
    }
  },
)
