/**
 * f18 — `cancel` aborts the activity before it clears the inbox.
 *
 * Breaks: the abort runs first, then the clear and the latch reset. Everything an abort observer does
 * synchronously (a tool or model call reacting to its signal, a maintenance task's handler) happens
 * before the clear: a waking send it makes is reclassified, latched, and then dropped by the clear
 * that follows, together with its latch, so work sent by an abort observer never runs.
 * Violates: X-CANCEL 155 (work sent by an abort-signal observer is latched and runs after
 * convergence; §7.3 steps 1–2 in that order).
 * Realistic: "stop first, then clean up" is the usual instinct, and with no observer acting inside
 * the abort the two orders give the same log.
 * @module
 */
import type { AgentCancelCause, CancelOptions } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import { mutant, scratchFactory } from './scratch.js'

class AbortBeforeClear extends ScratchAgent {
  override cancel(cause: AgentCancelCause, options: CancelOptions = {}): void {
    const phase = this.phase
    if (phase.kind !== 'idle' && !phase.abort.signal.aborted) phase.abort.abort(cause) // BUG: before the clear
    super.cancel(cause, options)
  }
}

export default factoryAdapter(mutant('f18'), (ctx) => scratchFactory(ctx, { agent: AbortBeforeClear }))
