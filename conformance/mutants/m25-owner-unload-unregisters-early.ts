/**
 * Mutant for catalog M25 (teardown): on owner unload, unregistration is not nested in the ordered
 * teardown.
 *
 * Bug: the owner fiber's lifecycle effect (`ownerUnloading`) unregisters the agent at once, as a
 * sibling of the ordered teardown, instead of leaving the detach to it. On owner unload with an open
 * turn, agent/disposed arrives before the final turn/end and before the scope is disposed; the
 * handle.dispose path stays correct (violates P-ORDER, §5.3, §9 97).
 */
import { ERRORS } from '../../core/contract.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m25-owner-unload-unregisters-early', version: '0.1.0', reproduces: 'M25: owner unload unregisters before the ordered teardown' },
  class extends ReferenceFactory {
    protected override ownerUnloading(tx: Transaction): Promise<void> {
      tx.abort(new Error(ERRORS.ownerDisposed(tx.id)))
      // BUG: unregistered concurrently with the drain.
      tx.detachAgent?.()
      return this.teardown(tx, 'owner')
    }
  },
)
