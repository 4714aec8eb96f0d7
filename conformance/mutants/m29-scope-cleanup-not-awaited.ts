/**
 * Mutant for catalog M29 (teardown): teardown does not wait for the work the agent started.
 *
 * Bug: `runTeardown` starts the agent scope's disposal but does not await it, so agent/disposed and
 * session/disposed fire (and dispose() resolves) while the agent's scoped registrations and child
 * agents are still unwinding; a slow scoped cleanup outlives the teardown (violates P-QUIESCE,
 * §5.1 step 5, §9 100/115). (The reference has no flush step, §11 D2: the scope's async cleanup is
 * the work the agent started that teardown must drain.)
 */
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { ReferenceAgent } from '../../core/agent.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m29-scope-cleanup-not-awaited', version: '0.1.0', reproduces: 'M29: teardown does not wait for the cleanup the agent started' },
  class extends ReferenceFactory {
    protected override disposeScope(_tx: Transaction, agent: ReferenceAgent): Promise<void> {
      // BUG: not awaited.
      void agent.scope.dispose()
      return Promise.resolve()
    }
  },
)
