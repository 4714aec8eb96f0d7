/**
 * Mutant for catalog M20 (rollback): liveness is not re-checked after the synchronous publication
 * listeners.
 *
 * Bug: `publish` checks liveness once before entering the registries and never again, so an
 * agent/created or agent/session-start listener that disposes the owner does not stop publication:
 * session-start still fires and create resolves with a handle to an agent being torn down
 * (violates §3.1 steps 9–10, §3.5 M–O, §9 60/61/94).
 */
import type { Transaction } from '../../core/factory/transaction.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m20-no-recheck-after-edges', version: '0.1.0', reproduces: 'M20: liveness is not re-checked after publication listeners' },
  class extends ReferenceFactory {
    protected override recheckAfterEdge(_tx: Transaction): void {
      // BUG: no assertLive between (or after) the edges.
    }
  },
)
