/**
 * Mutant for catalog M59 (persistence/resume): reusing an id right after the previous holder's
 * teardown collides with it.
 *
 * Bug: `runTeardown` resolves before the detaches ran: they are scheduled behind one more
 * checkpoint and a few microtask hops that the teardown does not await. A same-id create/resume started as soon as
 * dispose() (or owner/factory unload) resolved fails with `already exists`, and the old agent and
 * session are still listed (violates P-QUIESCE, §5.1 "the id becomes reusable exactly when step 6
 * has run", §9 66/100).
 */
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { TeardownTrigger, Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m59-teardown-resolves-before-release', version: '0.1.0', reproduces: 'M59: teardown resolves before the id is released' },
  class extends ReferenceFactory {
    protected override release(tx: Transaction, trigger: TeardownTrigger): void {
      // BUG: the release runs later, outside the awaited teardown.
      void this.checkpoint(`factory:${tx.id}:release`).then(async () => {
        for (let hop = 0; hop < 20; hop++) await Promise.resolve()
        super.release(tx, trigger)
      })
    }
  },
)
