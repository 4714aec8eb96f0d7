/**
 * Mutant for catalog M33 (inbox): disposal leaves pending inbox items without a terminal outcome.
 *
 * Bug: `runTeardown` cancels with `keepInbox: true`, so queued and parked items are neither
 * durably canceled nor reported as discarded: the durable inbox still lists them after dispose and
 * each inserted id lacks a terminal outcome (violates P-LEDGER, §5.1 step 3, §9 114).
 */
import { ERRORS } from '../../core/contract.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { TeardownTrigger, Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapter.js'

export default referenceAdapter(
  { name: 'mutant:m33-teardown-keeps-inbox', version: '0.1.0', reproduces: 'M33: disposal leaves pending inbox items without a terminal outcome' },
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
          // BUG: the pending items are kept.
          agent.cancel({ kind: 'disposed' }, { keepInbox: true })
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
