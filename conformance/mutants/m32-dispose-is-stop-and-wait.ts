/**
 * Mutant for catalog M32 (teardown): the handle tears down with stop-and-wait instead of disposing.
 *
 * Bug: the handle returned by `setupAndPublish` implements `dispose()` as "cancel, then await
 * idle": the turn is aborted, but the agent and its session never leave the registries and the id
 * stays unusable (violates P-QUIESCE for consumer-owned handles, §5.2, §9 66/98).
 */
import type { ReferenceAgent } from '../../core/agent.js'
import type { AgentHandle } from '../../core/contract.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m32-dispose-is-stop-and-wait', version: '0.1.0', reproduces: 'M32: handle.dispose only stops and waits; the agent stays registered' },
  class extends ReferenceFactory {
    protected override handleFor(_tx: Transaction, agent: ReferenceAgent): AgentHandle {
      // BUG: stop-and-wait; nothing is detached.
      return { agent, dispose: async () => { agent.cancel({ kind: 'disposed' }); await agent.whenIdle() } }
    }
  },
)
