/**
 * Mutant for catalog M15 (rollback): a partially delivered announcement is not paired during
 * rollback.
 *
 * Bug: on a rollback the teardown detaches the agent but never the session (the factory assumes a
 * session nobody has seen needs no disposal). After a throwing agent/created (or session/created)
 * listener the observers saw session/created, agent/created, agent/disposed and then nothing: the
 * session stays in the store with no agent and the id is not reusable (violates P-PAIR, P-ORDER,
 * P-CLEAN; §3.5 J/K).
 */
import { ERRORS } from '../../core/contract.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { TeardownTrigger, Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapter.js'

export default referenceAdapter(
  { name: 'mutant:m15-rollback-keeps-session', version: '0.1.0', reproduces: 'M15: a partially delivered announcement is not paired during rollback' },
  class extends ReferenceFactory {
    protected override async runTeardown(tx: Transaction, trigger: TeardownTrigger): Promise<void> {
      tx.abort(new Error(ERRORS.lifecycleDisposed(tx.id)))
      tx.stopListening()
      try {
        if (!tx.constructionSettled) await tx.whenConstructed()
        const agent = tx.agent
        if (agent) {
          agent.markTornDown()
          let clearDeferred = false
          try {
            agent.cancel({ kind: 'disposed' }, tx.detachSession ? {} : { keepInbox: true })
          } catch {
            clearDeferred = true
            agent.cancel({ kind: 'disposed' }, { keepInbox: true })
          }
          await this.checkpoint(`factory:${tx.id}:quiesce`)
          await agent.whenIdle()
          if (clearDeferred) {
            try { agent.inbox.clear() } catch (error) { this.ctx.services.warn(`agent "${tx.id}" could not clear its inbox during teardown`, error) }
          }
          await this.checkpoint(`factory:${tx.id}:scope`)
          await agent.scope.dispose()
        }
      } finally {
        try {
          tx.detachAgent?.()
        } finally {
          // BUG: a rolled-back session is never detached.
          if (trigger !== 'rollback') tx.detachSession?.()
          this.tracked.delete(tx)
          tx.ownerEffectRetired = true
          void tx.ownerEffect?.()
        }
      }
    }
  },
)
