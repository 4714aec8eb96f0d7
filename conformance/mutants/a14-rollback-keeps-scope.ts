/**
 * Mutant A14 (rollback, spec-derived): a rollback before publication never unwinds the agent's scope.
 *
 * Bug: when a creation fails before its agent entered the registries (setup rejects, `commit()`
 * throws, the creation signal aborts, the owner or factory unloads during setup), the teardown
 * releases its bookkeeping and rejects, but skips the scope disposal: whatever setup registered
 * through `agentCtx` — listeners, effects, child plugins — stays registered for the life of the
 * process (violates §3.5 rows E–I "scope disposal only", §5.1 step 5, §9 16/39). Nothing is
 * published, so no registry edge is out of order; only what never unwound shows it.
 */
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { ReferenceAgent } from '../../core/agent.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:a14-rollback-keeps-scope', version: '0.1.0', reproduces: 'A14: a rollback before publication never unwinds the agent scope (setup registrations leak)' },
  class extends ReferenceFactory {
    protected override disposeScope(tx: Transaction, agent: ReferenceAgent): Promise<void> {
      // BUG: nothing was published, so nothing seems to need unwinding.
      if (tx.detachSession === undefined) return Promise.resolve()
      return super.disposeScope(tx, agent)
    }
  },
)
