/**
 * Mutant for catalog M18 (rollback/teardown): the factory is not a structural co-owner of the
 * agents it published.
 *
 * Bug: `shutdown` (the factory owner, run on factory/plugin unload) forgets every published agent
 * before tearing down what it tracks: pending creations are still aborted, but live agents stay
 * registered and drivable on a retired factory (violates P-QUIESCE, §5.2, §9 103).
 */
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m18-factory-forgets-live-agents', version: '0.1.0', reproduces: 'M18: factory unload leaves its live agents running' },
  class extends ReferenceFactory {
    override async shutdown(): Promise<void> {
      // BUG: only unpublished transactions are the factory's business.
      for (const tx of [...this.tracked]) if (tx.published) this.tracked.delete(tx)
      await super.shutdown()
    }
  },
)
