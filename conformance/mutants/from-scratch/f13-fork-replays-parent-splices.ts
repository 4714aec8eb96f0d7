/**
 * f13 — inbox replay applies the splices of a fork's seed prefix too.
 *
 * Breaks: `replayFrom` returns 0 instead of `header.seedLength`, so an agent created over a seed
 * (a fork: `meta.seedLength` says how much of the log is the parent's) replays the parent's
 * `agent/inbox/spliced` events: the parent's pending messages show up in the child's inbox, and a
 * parent splice that does not fit an empty inbox makes the create fail.
 * Violates: AGENT-CREATE-RESUME 54 (inbox replay of a forked session ignores splices before
 * `header.seedLength`; §6.5).
 * Realistic: a resume replays the whole persisted log, and a fork's log looks just like one; the
 * `seedLength` filter is a one-word detail of §6.5.
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { SplicedInbox } from '../../../examples/from-scratch-factory/inbox.js'
import { mutant, scratchFactory } from './scratch.js'

class ForkReplaysParentSplices extends SplicedInbox {
  protected override replayFrom(): number {
    return 0 // BUG: a fork's prefix is the parent's inbox, not this one's
  }
}

export default factoryAdapter(mutant('f13'), (ctx) => scratchFactory(ctx, { inbox: ForkReplaysParentSplices }))
