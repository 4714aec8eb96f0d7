/**
 * Mutant for catalog M57 (persistence/resume): the live state aliases caller data.
 *
 * Bug: the inbox's commit step stores the caller's message objects in its live lists instead of the
 * logged (frozen) snapshots. A caller that mutates a message after sending it changes the live
 * inbox, and later the user/message the driver appends, so the live state diverges from what the
 * splice logged and a replay differs (violates P-REPLAY, §6.3 "using the logged snapshot", §9 171
 * applied to the inbox).
 */
import type { AgentOptions, InboxTarget, Session, UserMessage } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { InboxImpl, normalizeSplice } from '../../core/inbox.js'
import type { InboxNotifier } from '../../core/inbox.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyInbox extends InboxImpl {
  protected override commit(target: InboxTarget, rawStart: number, rawDelete: number, inserted: readonly UserMessage[], ordinary: boolean, silent = false): UserMessage[] {
    const list = this.list(target)
    if (!Array.isArray(inserted)) throw new TypeError('inbox splice expects an array of messages')
    const { start, removed } = normalizeSplice(list.length, rawStart, rawDelete)
    if (removed === 0 && inserted.length === 0) return []
    this.checkUnique(target, start, removed, inserted)
    const payload: Record<string, unknown> = { target, start }
    if (removed > 0) payload.removedCount = removed
    payload.inserted = inserted
    if (ordinary && removed > 0) payload.outcome = 'canceled'
    this.session.append('agent/inbox/spliced', payload)
    // BUG: the caller's objects, not the logged snapshots.
    const out = list.splice(start, removed, ...inserted)
    if (!silent) {
      if (ordinary) for (const m of out) this.notify.discarded(m)
      for (const m of inserted) this.notify.inserted(m)
    }
    return out
  }
}

class BuggyAgent extends ReferenceAgent {
  protected override createInbox(session: Session, notify: InboxNotifier): InboxImpl {
    return new BuggyInbox(session, notify)
  }
}

export default referenceAdapter(
  { name: 'mutant:m57-inbox-aliases-caller-message', version: '0.1.0', reproduces: 'M57: the inbox holds caller message objects instead of the logged snapshots' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
