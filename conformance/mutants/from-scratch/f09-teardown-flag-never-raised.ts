/**
 * f09 — the agent is never told that its teardown began.
 *
 * Breaks: `beginTeardown` does nothing, so the agent relies on the disposal abort alone. A waking send
 * that reaches the agent once its driver converged to idle during the teardown (an `agent/status`
 * `idle` listener that sends again, or any send between the abort and the scope disposal) starts a
 * fresh driver with a fresh controller; the teardown's `whenIdle` follows it and waits for a whole new
 * model turn, and a latched wake of an earlier user cancel is replayed the same way.
 * Violates: AGENT-TEARDOWN-TEST 110 (a waking send that lands after disposal began is not run; also
 * 111, §5.1 step 4 "this never waits on a fresh model turn", §12 Q3).
 * Realistic: the abort with `{kind:'disposed'}` already stops the current turn and never latches, so
 * a separate flag looks redundant.
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import { mutant, scratchFactory } from './scratch.js'

class TeardownFlagNeverRaised extends ScratchAgent {
  override beginTeardown(): void { /* BUG: the flag that stops new drivers is never raised */ }
}

export default factoryAdapter(mutant('f09'), (ctx) => scratchFactory(ctx, { agent: TeardownFlagNeverRaised }))
