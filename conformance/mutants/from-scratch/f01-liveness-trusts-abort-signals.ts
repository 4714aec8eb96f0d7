/**
 * f01 — the liveness re-check trusts the creation abort alone.
 *
 * Breaks: `checkLive` only asks whether the fused creation signal was aborted. An owner fiber that
 * began unloading aborts that signal from its lifecycle effect, but the framework starts that effect
 * a microtask after the unload begins (§2.3), so an owner unloaded from inside a `session/created` or
 * `agent/created` listener is still "live" at the next re-check and publication carries on: the
 * remaining creation edges fire and the handle may resolve before the teardown runs.
 * Violates: AGENT-PREPARE-PUBLISH 60 (also AGENT-TEARDOWN-TEST 93/94, rows M–O of §3.5 and the
 * paragraph after the table: "an owner whose fiber has begun unloading counts as dead").
 * Realistic: the fused signal looks like the single source of truth for "should creation stop"; the
 * microtask between an unload and its effects is easy to forget.
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchFactory } from '../../../examples/from-scratch-factory/factory.js'
import type { Lifecycle } from '../../../examples/from-scratch-factory/lifecycle.js'
import { mutant, scratchFactory } from './scratch.js'

class TrustsAbortSignals extends ScratchFactory {
  protected override checkLive(lifecycle: Lifecycle): void {
    lifecycle.signal.throwIfAborted() // BUG: no look at the owner's or the factory's fiber
  }
}

export default factoryAdapter(mutant('f01'), (ctx) => scratchFactory(ctx, { factory: TrustsAbortSignals }))
