/**
 * f17 — `cancel` on an idle agent does nothing.
 *
 * Breaks: an idle agent's `cancel` returns at once, so input parked while idle (an `inject`, a
 * `queue`, a followup left by an aborted turn or a keepInbox cancel) survives a plain cancel and runs
 * at the next wake, instead of being dropped by durable `canceled` splices.
 * Violates: X-CANCEL 154 (pending input is discarded by a plain cancel; §7.3 step 1 "also when idle",
 * §11 (D8): idle cancel with pending items cancels them).
 * Realistic: upstream's READMEs say exactly this ("idle cancel is a safe no-op", §11 (D8)): the prose a
 * reimplementation is most likely to follow.
 * @module
 */
import type { AgentCancelCause, CancelOptions } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import { mutant, scratchFactory } from './scratch.js'

class IdleCancelNoop extends ScratchAgent {
  override cancel(cause: AgentCancelCause, options: CancelOptions = {}): void {
    if (this.phase.kind === 'idle') return // BUG: nothing to abort, so nothing to do
    super.cancel(cause, options)
  }
}

export default factoryAdapter(mutant('f17'), (ctx) => scratchFactory(ctx, { agent: IdleCancelNoop }))
