/**
 * Mutant for catalog M13 (registry/dispatch): the lifecycle-event subject breaks agent methods.
 *
 * Bug: `publish` hands agent/session-start listeners a delegating Proxy of the agent instead of the
 * agent itself. Reads work, but every method that touches the agent's native private state (send,
 * followup, steer, cancel, whenIdle) throws a TypeError through it, so the documented first
 * injection point cannot drive the agent (violates §1.9: the payload carries the exact agent).
 */
import type { ReferenceAgent } from '../../core/agent.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m13-proxy-receiver', version: '0.1.0', reproduces: 'M13: the session-start subject is a proxy whose methods throw' },
  class extends ReferenceFactory {
    protected override emitSessionStart(tx: Transaction, agent: ReferenceAgent): void {
      // BUG: a delegating receiver instead of the agent.
      this.ctx.events.contained('agent/session-start', agent, { agent: new Proxy(agent, {}), source: tx.source })
    }
  },
)
