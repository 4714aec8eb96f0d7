/**
 * Mutant for catalog M24 (teardown): the session is detached concurrently with the final drain.
 *
 * Bug: `runTeardown` detaches the session right after requesting the cancel, before awaiting the
 * driver's quiescence. The closing `turn/end {aborted, disposed}` is appended to a session that no
 * store publishes any more, so observers and persistence never see it, and session/disposed comes
 * before agent/disposed (violates P-ORDER, P-QUIESCE, §5.1 steps 4–6, §9 97).
 */
import { ERRORS } from '../../core/contract.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { TeardownTrigger, Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapter.js'

export default referenceAdapter(
  { name: 'mutant:m24-session-detached-before-drain', version: '0.1.0', reproduces: 'M24: the session is detached before the driver drained' },
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
          // BUG: the session leaves the store while the driver is still converging.
          tx.detachSession?.()
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
          tx.detachSession?.()
          this.tracked.delete(tx)
          tx.ownerEffectRetired = true
          void tx.ownerEffect?.()
        }
      }
    }
  },
)
