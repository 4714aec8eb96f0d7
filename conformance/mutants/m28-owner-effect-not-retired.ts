/**
 * Mutant for catalog M28 (teardown): a successful handle disposal leaves owner-side bookkeeping.
 *
 * Bug: `runTeardown` never retires the `agentLoop.lifecycle(<id>)` effect it registered on the
 * owner fiber. A long-lived owner that creates and disposes N agents accumulates N stale effects,
 * and its eventual unload re-runs N teardown hooks for dead agents (violates §5.1 step 7, §9 99).
 */
import { ERRORS } from '../../core/contract.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { TeardownTrigger, Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapter.js'

export default referenceAdapter(
  { name: 'mutant:m28-owner-effect-not-retired', version: '0.1.0', reproduces: 'M28: a disposed handle leaves its lifecycle effect on the owner fiber' },
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
            agent.cancel({ kind: 'disposed' }, tx.detachSession && tx.detachAgent ? {} : { keepInbox: true })
          } catch {
            clearDeferred = true
            agent.cancel({ kind: 'disposed' }, { keepInbox: true })
          }
          await this.checkpoint(`factory:${tx.id}:quiesce`)
          await agent.whenIdle()
          if (clearDeferred || (tx.detachSession && tx.detachAgent && agent.inbox.hasPending)) {
            try { agent.inbox.clear() } catch (error) { this.ctx.services.warn(`agent "${tx.id}" could not clear its inbox during teardown`, error) }
          }
          await this.checkpoint(`factory:${tx.id}:scope`)
          await agent.scope.dispose()
        }
      } finally {
        try {
          tx.detachAgent?.()
        } finally {
          tx.detachSession?.()
          this.tracked.delete(tx)
          // BUG: the owner fiber's lifecycle effect is never retired.
        }
      }
    }
  },
)
