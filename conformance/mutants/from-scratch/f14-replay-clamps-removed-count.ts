/**
 * f14 — inbox replay clamps a persisted deletion instead of rejecting it.
 *
 * Breaks: before validating a persisted splice, replay clamps its `removedCount` to what the list
 * holds after `start`, as a live splice normalizes its coordinates (§6.2). A persisted splice that
 * removes more items than the replayed list has is then accepted, and the resumed inbox silently
 * differs from what the log says, where construction must fail with
 * `invalid persisted inbox splice at session seq <n>`.
 * Violates: AGENT-INBOX-REPLAY 117 (replay rejects invalid splices; §6.5 "start + removedCount > length"
 * is invalid, "no repair"; also §3.5 row D).
 * Realistic: the live path normalizes, and reusing its leniency for replay looks like robustness.
 * @module
 */
import type { InboxSplice } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { SplicedInbox } from '../../../examples/from-scratch-factory/inbox.js'
import { mutant, scratchFactory } from './scratch.js'

class ReplayClampsRemovedCount extends SplicedInbox {
  protected override replay(splice: InboxSplice): void {
    const list = splice.target === 'next-step' ? this.nextStep : this.nextTurn
    const removedCount = Math.min(splice.removedCount ?? 0, Math.max(0, list.length - splice.start))
    super.replay({ ...splice, removedCount }) // BUG: a repair, where replay must reject
  }
}

export default factoryAdapter(mutant('f14'), (ctx) => scratchFactory(ctx, { inbox: ReplayClampsRemovedCount }))
