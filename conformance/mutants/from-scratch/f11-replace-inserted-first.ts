/**
 * f11 — an edit that removes and inserts notifies `inserted` before `discarded`.
 *
 * Breaks: the live notifications of an ordinary edit fire every `agent/inbox/inserted` first, then
 * every `agent/inbox/discarded`. Only an edit that does both shows it: `replace`, or a public
 * `splice` with deletions and insertions; a listener that mirrors the inbox by id sees the new item
 * added and then the old one removed — with an id kept by `replace`, it ends without the item.
 * Violates: AGENT-INBOX-TEST 118 (`replace`: discarded [old], then inserted [new]; §6.3 "first one
 * discarded per removed message, then one inserted per inserted message").
 * Realistic: "what was added, then what was removed" is as natural an order as the reverse, and
 * append/clear/remove, which do only one of the two, cannot tell.
 * @module
 */
import type { UserMessage } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { SplicedInbox } from '../../../examples/from-scratch-factory/inbox.js'
import { mutant, scratchFactory } from './scratch.js'

class ReplaceInsertedFirst extends SplicedInbox {
  protected override notify(removed: readonly UserMessage[], inserted: readonly UserMessage[]): void {
    super.notify([], inserted) // BUG: inserted before discarded
    super.notify(removed, [])
  }
}

export default factoryAdapter(mutant('f11'), (ctx) => scratchFactory(ctx, { inbox: ReplaceInsertedFirst }))
