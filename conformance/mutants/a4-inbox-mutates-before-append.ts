/**
 * Mutant for appendix A4 (inbox): the live projection is mutated before the durable splice is
 * appended.
 *
 * Bug: the inbox's commit step applies a mutation to its in-memory lists first and appends the
 * `agent/inbox/spliced` event second. A synchronous session/event observer sees the post-splice
 * lists, and an append that throws (reentrant send from an observer, non-JSON message) leaves the
 * live state ahead of the log (violates AGENT-INBOX-COMMIT, P-REPLAY, §6.3, §9 122/124/128).
 */
import type { AgentOptions, InboxSplice, InboxTarget, Session, UserMessage } from '../../core/contract.js'
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
    // BUG: memory first, log second (and nothing is undone if the append throws).
    const out = list.splice(start, removed, ...inserted)
    const event = this.session.append('agent/inbox/spliced', payload)
    const logged = (event.data as unknown as InboxSplice).inserted
    list.splice(start, logged.length, ...logged)
    if (!silent) {
      if (ordinary) for (const m of out) this.notify.discarded(m)
      for (const m of logged) this.notify.inserted(m)
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
  { name: 'mutant:a4-inbox-mutates-before-append', version: '0.1.0', reproduces: 'A4: the live inbox projection changes before the durable splice is appended' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
