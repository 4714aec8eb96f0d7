/**
 * Mutant for appendix A3 (initiator): a child's setup runs under the child as initiator.
 *
 * Bug: `runSetup` calls `setup(agentCtx)` inside `withInitiator(child, …)` instead of under the
 * caller's initiator. A child created from a parent's driver sees itself, not the parent, as the
 * initiator during setup (violates §3.1 step 5, §8, §9 41).
 */
import type { AgentSetup, AgentSetupCommit } from '../../core/contract.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

function isCommit(value: unknown): value is AgentSetupCommit {
  return typeof value === 'object' && value !== null && typeof (value as AgentSetupCommit).commit === 'function'
}

export default referenceAdapter(
  { name: 'mutant:a3-setup-under-child-initiator', version: '0.1.0', reproduces: 'A3: setup runs under the child as initiator' },
  class extends ReferenceFactory {
    protected override async runSetup(tx: Transaction, setup: AgentSetup | undefined): Promise<AgentSetupCommit | undefined> {
      const agent = tx.agent!
      // BUG: the child is installed as initiator around its own setup.
      const result = setup ? agent.ctx.agents.withInitiator(agent, () => setup(agent.ctx)) : undefined
      if (tx.controller.signal.aborted) throw tx.reason
      await this.checkpoint(`factory:${tx.id}:setup`)
      const value = await Promise.race([Promise.resolve(result), tx.aborted])
      this.assertLive(tx)
      return isCommit(value) ? value : undefined
    }
  },
)
