/**
 * Mutant for catalog M10 (registry/lifecycle edges): lifecycle-edge dispatch is not contained per
 * listener.
 *
 * Bug: `publish` emits agent/session-start with a plain (veto) emit instead of a contained one. The
 * first throwing session-start listener stops delivery to later listeners and its exception turns
 * into a spurious rollback of a fully announced agent (violates §1.9/§3.1 step 10: session-start is
 * contained; every listener receives every edge).
 */
import type { ReferenceAgent } from '../../core/agent.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m10-uncontained-session-start', version: '0.1.0', reproduces: 'M10: a throwing session-start listener is not contained' },
  class extends ReferenceFactory {
    protected override emitSessionStart(tx: Transaction, agent: ReferenceAgent): void {
      // BUG: plain emit; a throwing listener stops the dispatch and vetoes publication.
      this.ctx.events.veto('agent/session-start', agent, { agent, source: tx.source })
    }
  },
)
