/**
 * f00 — the example as it stood before its §9 107 fix: a fixture for measuring whether the kit
 * finds a real bug of an independent factory by itself.
 *
 * Breaks: after a turn closes normally with work pending, the driver opens the next turn on a fresh
 * activity controller without asking whether the old one was aborted meanwhile. A teardown requested
 * from an observer of that turn's `turn/end` aborts the old controller (§5.1 step 3), the abort is lost,
 * and the next turn opens and calls the model after `dispose()` began.
 * Violates: AGENT-TEARDOWN-TEST 107 (also 110: work runs after disposal began), §5.1 step 4, §7.4.
 * Realistic: it is the example's own bug, written from the contract's §10.1 pseudocode, which renews
 * the controller unconditionally; found after the example certified clean under `--profile thorough`
 * (`examples/from-scratch-factory/regressions/turn-after-dispose.mjs` shows it).
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import type { Running } from '../../../examples/from-scratch-factory/driver.js'
import { mutant, scratchFactory } from './scratch.js'

class TurnAfterDisposeBegan extends ScratchAgent {
  protected override nextTurn(running: Running): void {
    // BUG: no `running.abort.signal.throwIfAborted()` first.
    running.abort = new AbortController()
    running.wakeRequested = false
  }
}

export default factoryAdapter(mutant('f00'), (ctx) => scratchFactory(ctx, { agent: TurnAfterDisposeBegan }))
