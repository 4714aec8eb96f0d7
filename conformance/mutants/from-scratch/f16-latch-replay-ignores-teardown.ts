/**
 * f16 — the latch replay does not ask whether teardown began.
 *
 * Breaks: at convergence a latched wake with work pending starts a new driver even when the agent's
 * teardown has begun. A user cancel wins the activity's abort, so the teardown's later
 * `{kind:'disposed'}` abort is a no-op and a waking send made after `dispose()` is latched (its cause
 * is `user`, not `disposed`); the converging driver replays it, a new turn opens and calls the model,
 * and the teardown's `whenIdle` waits for it.
 * Violates: AGENT-TEARDOWN-TEST 110 (a waking send that lands after disposal began is not run; also
 * §5.1 step 4 "never waits on a fresh model turn", X-CANCEL 156's first-cause rule makes the window).
 * Realistic: §7.2's latch replay rule reads "if wakeRequested && inbox.hasPending, start a new driver"
 * and says nothing of teardown; disposal "never latches", so the case looks impossible.
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import type { Phase } from '../../../examples/from-scratch-factory/agent.js'
import { mutant, scratchFactory } from './scratch.js'

class LatchReplayIgnoresTeardown extends ScratchAgent {
  protected override replaysLatch(phase: Exclude<Phase, { kind: 'idle' }>): boolean {
    return phase.wakeRequested && this.inbox.hasPending // BUG: no teardown check
  }
}

export default factoryAdapter(mutant('f16'), (ctx) => scratchFactory(ctx, { agent: LatchReplayIgnoresTeardown }))
