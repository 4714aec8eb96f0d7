/**
 * Mutant for catalog M07 (registry, in the factory's use of it): the registered agent and the
 * stored session disagree.
 *
 * Bug: `construct` builds the agent over a second Session object prepared with the same id, header
 * and log, while `publish` enters the original one in the store. The ids are equal (the kit
 * registry rejects a mismatched id, which is the other half of M07), but
 * `sessions.get(id) !== agents.get(id).session`: everything the agent appends goes to a session no
 * store publishes, so observers and persistence never see it (violates §9 9/55).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m07-agent-on-copied-session', version: '0.1.0', reproduces: 'M07: agents.get(id).session is not sessions.get(id)' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      // BUG: a copy, not the session that publish() enters.
      const copy = this.ctx.sessions.prepare(session.id, session.events.length > 0 ? { header: session.header, seed: [...session.events] } : { header: session.header })
      return new ReferenceAgent(copy, agentOptions, this.ctx)
    }
  },
)
