/**
 * Mutant for catalog M29 (teardown): teardown does not wait for the work the agent started.
 *
 * Bug: `runTeardown` starts the agent scope's disposal but does not await it, so agent/disposed and
 * session/disposed fire (and dispose() resolves) while the agent's scoped registrations and child
 * agents are still unwinding; a slow scoped cleanup outlives the teardown (violates P-QUIESCE,
 * §5.1 step 5, §9 100/115). (The reference has no flush step, §11 D2: the scope's async cleanup is
 * the work the agent started that teardown must drain.)
 */
import { ERRORS } from '../../core/contract.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { TeardownTrigger, Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapter.js'

export default referenceAdapter(
  { name: 'mutant:m29-scope-cleanup-not-awaited', version: '0.1.0', reproduces: 'M29: teardown does not wait for the cleanup the agent started' },
  class extends ReferenceFactory {
    protected override async runTeardown(tx: Transaction, _trigger: TeardownTrigger): Promise<void> {
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
          // BUG: not awaited.
          void agent.scope.dispose()
        }
      } finally {
        try {
          tx.detachAgent?.()
        } finally {
          tx.detachSession?.()
          this.tracked.delete(tx)
          tx.ownerEffectRetired = true
          void tx.ownerEffect?.()
        }
      }
    }
  },
)
