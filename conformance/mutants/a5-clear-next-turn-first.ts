/**
 * Mutant for appendix A5 (inbox): `clear()` writes its two canceled splices in the wrong order.
 *
 * Bug: `clear()` deletes the next-turn list before the next-step list, so the durable splices and
 * the discarded notifications come next-turn first (violates §6.4 `clear`, §9 121).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { InboxImpl } from '../../core/inbox.js'
import type { InboxNotifier } from '../../core/inbox.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyInbox extends InboxImpl {
  override clear(): void {
    // BUG: next-turn first.
    for (const target of ['next-turn', 'next-step'] as const) {
      const length = this.lists[target].length
      if (length > 0) this.commit(target, 0, length, [], true)
    }
  }
}

class BuggyAgent extends ReferenceAgent {
  protected override createInbox(session: Session, notify: InboxNotifier): InboxImpl {
    return new BuggyInbox(session, notify)
  }
}

export default referenceAdapter(
  { name: 'mutant:a5-clear-next-turn-first', version: '0.1.0', reproduces: 'A5: clear() writes its canceled splices next-turn first' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
