/**
 * Mutant for appendix A2 (initiator): `withInitiator` returns a wrapper instead of the operation's
 * exact value.
 *
 * Bug: the agent's context hands out an `agents` view whose `withInitiator` re-wraps a returned
 * promise (`result.then(v => v)`), so callers in the agent's scoped world (setup, tools, the driver)
 * get a different Promise object than the operation returned (violates §8 "return exactly what op
 * returned", §9 130 observed through agentCtx).
 */
import type { AgentOptions, AgentRegistry, Context, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { ContextImpl } from '../../core/scope/context.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  constructor(session: Session, options: AgentOptions, parentCtx: ContextImpl) {
    super(session, options, parentCtx)
    const real = this.ctx
    const agents: AgentRegistry = {
      ...real.agents,
      // BUG: a wrapper promise instead of the exact returned value.
      withInitiator: (agent, op) => {
        const result = real.agents.withInitiator(agent, op)
        return (result instanceof Promise ? result.then((value) => value) : result) as typeof result
      },
    }
    const wrapped = new Proxy(real, {
      get(target, prop) {
        if (prop === 'agents') return agents
        const value: unknown = Reflect.get(target, prop, target)
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
      },
    })
    ;(this as { ctx: Context }).ctx = wrapped
  }
}

export default referenceAdapter(
  { name: 'mutant:a2-initiator-wrapper', version: '0.1.0', reproduces: 'A2: withInitiator returns a wrapper promise instead of the exact one' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
