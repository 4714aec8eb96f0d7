/**
 * f12 — `agent/inbox/discarded` is emitted as a veto emit, not contained.
 *
 * Breaks: the inbox's `discarded` notifications go through `events.veto`, so a listener that throws
 * stops the later listeners and the throw escapes into the edit that caused it. A plain `cancel`
 * throws out of its `inbox.clear()` after the first list's splice and before the abort: the
 * next-turn list stays pending and the running turn is never aborted. `inbox.remove`/`replace`
 * throw to their callers after committing, and the teardown's clear takes the §12 Q4 path.
 * Violates: AGENT-INBOX-TEST 125 (§1.9: every `agent/*` notification but the creation edges is a
 * contained emit, so the cancel must not throw its listener's fault; `contained-emits.ts`), and
 * X-CANCEL 153 (cancel mid-step drops the queued tail, one aborted turn; §5.4).
 * Realistic: `veto` and `contained` sit side by side on `ctx.events`, the creation edges use `veto`,
 * and a copied line keeps the wrong one; ordinary listeners never throw.
 * @module
 */
import type { Session } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import type { InboxListener, SplicedInbox } from '../../../examples/from-scratch-factory/inbox.js'
import { mutant, scratchFactory } from './scratch.js'

class DiscardedNotContained extends ScratchAgent {
  protected override newInbox(session: Session, listener: InboxListener): SplicedInbox {
    return super.newInbox(session, {
      ...listener,
      discarded: (message) => this.ctx.events.veto('agent/inbox/discarded', this, { agent: this, message }), // BUG
    })
  }
}

export default factoryAdapter(mutant('f12'), (ctx) => scratchFactory(ctx, { agent: DiscardedNotContained }))
