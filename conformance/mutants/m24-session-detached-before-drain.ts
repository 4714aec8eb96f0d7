/**
 * Mutant for catalog M24 (teardown): the session is detached concurrently with the final drain.
 *
 * Bug: `runTeardown` detaches the session right after requesting the cancel, before awaiting the
 * driver's quiescence. The closing `turn/end {aborted, disposed}` is appended to a session that no
 * store publishes any more, so observers and persistence never see it, and session/disposed comes
 * before agent/disposed (violates P-ORDER, P-QUIESCE, §5.1 steps 4–6, §9 97).
 */
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { ReferenceAgent } from '../../core/agent.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m24-session-detached-before-drain', version: '0.1.0', reproduces: 'M24: the session is detached before the driver drained' },
  class extends ReferenceFactory {
    protected override cancelForTeardown(tx: Transaction, agent: ReferenceAgent, keepInbox: boolean): void {
      super.cancelForTeardown(tx, agent, keepInbox)
      // BUG: the session leaves the store while the driver is still converging.
      tx.detachSession?.()
    }
  },
)
