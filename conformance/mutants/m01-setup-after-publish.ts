/**
 * Mutant for catalog M01 (publication): setup runs after the agent is already published.
 *
 * Bug: `setupAndPublish` enters both registries and emits session/created, agent/created and
 * agent/session-start first, and only then calls `setup(agentCtx)` and its `commit()`. Creation
 * listeners see an agent without its setup contributions, and a failing setup rolls back an agent
 * whose created edges were already delivered (violates P-UNPUB, §3.2, §3.4).
 */
import type { AgentHandle, AgentOptions, AgentSetup, Session } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import { fiberDying, ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m01-setup-after-publish', version: '0.1.0', reproduces: 'M01: setup runs after the agent is already published' },
  class extends ReferenceFactory {
    protected override async setupAndPublish(tx: Transaction, session: Session, agentOptions: AgentOptions | undefined, setup: AgentSetup | undefined): Promise<AgentHandle> {
      tx.session = session
      try {
        tx.agent = this.construct(tx, session, agentOptions ?? {})
      } catch (error) {
        tx.settleConstruction()
        void this.teardown(tx, 'rollback')
        throw error
      }
      tx.settleConstruction()
      if (!tx.controller.signal.aborted) {
        if (fiberDying(tx.ownerCtx.fiber)) tx.abort(new Error(ERRORS.ownerDisposed(tx.id)))
        else if (!this.active || fiberDying(this.ctx.fiber)) tx.abort(new Error(ERRORS.loopInactive))
      }
      if (tx.controller.signal.aborted) {
        void this.teardown(tx, 'rollback')
        throw tx.reason
      }
      try {
        // BUG: publish first, then run setup and its commit on the already published agent.
        this.publish(tx, undefined)
        const commit = await this.runSetup(tx, setup)
        commit?.commit()
      } catch (error) {
        await this.teardown(tx, 'rollback')
        throw error
      }
      tx.published = true
      tx.stopListening()
      const agent = tx.agent
      return { agent, dispose: () => this.teardown(tx, 'handle') }
    }
  },
)
