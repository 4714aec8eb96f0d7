/**
 * f07 — the teardown detaches the session before the agent.
 *
 * Breaks: step 6 of the teardown runs `detachSession` first and `detachAgent` in its `finally`, so
 * `session/disposed` is emitted before `agent/disposed`, and `agent/disposed` listeners find the
 * session already gone from the store.
 * Violates: AGENT-TEARDOWN-TEST 97 (at `agent/disposed` the session is still stored; §3.6 rule 4
 * "`agent/disposed` precedes `session/disposed`", §5.1 step 6).
 * Realistic: both detaches sit in one try/finally and the session is "the outer object"; swapping the
 * two lines also keeps the containment the example wants.
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { Lifecycle } from '../../../examples/from-scratch-factory/lifecycle.js'
import { mutant, scratchFactory } from './scratch.js'

class SessionDetachedFirst extends Lifecycle {
  protected override detach(): void {
    try {
      this.detachSession?.() // BUG: the session goes first
    } finally {
      this.detachAgent?.()
    }
  }
}

export default factoryAdapter(mutant('f07'), (ctx) => scratchFactory(ctx, { lifecycle: SessionDetachedFirst }))
