/**
 * Mutant for catalog M32 (teardown): the handle tears down with stop-and-wait instead of disposing.
 *
 * Bug: the handle returned by `setupAndPublish` implements `dispose()` as "cancel, then await
 * idle": the turn is aborted, but the agent and its session never leave the registries and the id
 * stays unusable (violates P-QUIESCE for consumer-owned handles, §5.2, §9 66/98).
 */
import type { AgentHandle, AgentOptions, AgentSetup, Session } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import { fiberDying, ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapter.js'

export default referenceAdapter(
  { name: 'mutant:m32-dispose-is-stop-and-wait', version: '0.1.0', reproduces: 'M32: handle.dispose only stops and waits; the agent stays registered' },
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
        const commit = await this.runSetup(tx, setup)
        this.publish(tx, commit)
      } catch (error) {
        await this.teardown(tx, 'rollback')
        throw error
      }
      tx.published = true
      tx.stopListening()
      const agent = tx.agent
      // BUG: stop-and-wait; nothing is detached.
      return { agent, dispose: async () => { agent.cancel({ kind: 'disposed' }); await agent.whenIdle() } }
    }
  },
)
