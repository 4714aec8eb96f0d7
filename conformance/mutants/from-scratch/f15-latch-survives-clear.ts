/**
 * f15 — a cancel that clears the inbox leaves the wake latch set.
 *
 * Breaks: `cancel` without `keepInbox` drops the pending items but keeps the current activity's
 * `wakeRequested`. The latch of a waking send made after an earlier abort survives the plain cancel
 * that should have dropped it with its message; any input that arrives before the activity converges,
 * a non-waking `inject` or `queue` included, is then run by the stale latch replay.
 * Violates: X-CANCEL 146 (keepInbox + latched send + plain cancel: the latch and item are dropped,
 * nothing runs until the next send; §7.3 step 1 "reset `wakeRequested`", §7.2 step 5 "non-waking
 * input never starts anything").
 * Realistic: clearing the inbox looks like enough, since the replay also requires pending work.
 * @module
 */
import type { AgentCancelCause, CancelOptions } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import { mutant, scratchFactory } from './scratch.js'

class LatchSurvivesClear extends ScratchAgent {
  override cancel(cause: AgentCancelCause, options: CancelOptions = {}): void {
    const phase = this.phase
    const latched = phase.kind !== 'idle' && phase.wakeRequested
    super.cancel(cause, options)
    if (phase.kind !== 'idle') phase.wakeRequested = latched // BUG: the clear does not drop the latch
  }
}

export default factoryAdapter(mutant('f15'), (ctx) => scratchFactory(ctx, { agent: LatchSurvivesClear }))
