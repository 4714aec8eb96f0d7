/**
 * Mutant J07 (teardown order, a blind spot of the checkers until every disposer action counted as a
 * scope disposal): the agent scope unwinds after the registry edges.
 *
 * Bug: teardown detaches the agent and the session (`agent/disposed`, `session/disposed`) and only
 * then disposes the agent scope, a microtask later: a scoped registration's cleanup runs after the
 * agent has left the registry (violates §5.1 step 5 before step 6, §9 97). AGENT-TEARDOWN-TEST 97
 * read only the disposer actions `throw`, `reject`, `slow` and `op` as scope disposals, so a scope
 * whose disposers were all `block` (they return at once) was never judged.
 */
import type { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:j07-scope-disposed-after-detach', version: '0.1.0', reproduces: 'J07: the agent scope is disposed after agent/disposed and session/disposed' },
  class extends ReferenceFactory {
    protected override disposeScope(_tx: Transaction, agent: ReferenceAgent): Promise<void> {
      // BUG: the scope unwinds after the detach that follows this step.
      return new Promise((resolve) => {
        queueMicrotask(() => { void agent.scope.dispose() })
        resolve()
      })
    }
  },
)
