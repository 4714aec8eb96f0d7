/**
 * Mutant for catalog M19 (rollback): an unload during the synchronous scope-minting window is not
 * noticed.
 *
 * Bug: `setupAndPublish` checks only its own abort controller after construction, not whether the
 * owner fiber began unloading (or the factory went inactive) while the scope was being minted. An
 * observer of the scope minting that unloads the owner therefore does not stop setup: setup runs
 * after the cancellation (violates §3.5 note, §9 104).
 */
import type { Transaction } from '../../core/factory/transaction.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m19-setup-after-minting-unload', version: '0.1.0', reproduces: 'M19: unload during scope minting does not stop setup' },
  class extends ReferenceFactory {
    protected override noticeUnloadDuringConstruction(_tx: Transaction): void {
      // BUG: no liveness re-check of the owner fiber and the factory after construction.
    }
  },
)
