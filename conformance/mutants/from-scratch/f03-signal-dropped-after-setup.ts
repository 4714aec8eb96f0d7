/**
 * f03 — the creation signal is let go once setup settled, before publication.
 *
 * Breaks: the factory stops listening to the caller's signal (and the factory's) as soon as setup's
 * result is in, reading "creation signal" as "setup signal". An abort that lands after setup — from
 * `commit()`, from a `session/created` or `agent/created` listener, or from an `agent/session-start`
 * listener — no longer reaches the fused controller, so the liveness re-checks let publication
 * complete and the create resolves, where it must roll back and reject with the reason.
 * Violates: AGENT-PREPARE-PUBLISH 58 (an aborted creation signal rejects with its reason and leaves no
 * entries; §3.3 "between setup and publication: caught by the pre-publication liveness check", §3.1
 * steps 6–10 re-checks).
 * Realistic: §3.3's table talks of setup and loads; the window between setup and the handle is a
 * single synchronous run that ordinary callers never abort into.
 * @module
 */
import type { AgentSetup, AgentSetupCommit } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchFactory } from '../../../examples/from-scratch-factory/factory.js'
import type { Lifecycle } from '../../../examples/from-scratch-factory/lifecycle.js'
import { mutant, scratchFactory } from './scratch.js'

class SignalDroppedAfterSetup extends ScratchFactory {
  protected override async awaitSetup(result: ReturnType<AgentSetup>, lifecycle: Lifecycle): Promise<void | AgentSetupCommit> {
    const value = await super.awaitSetup(result, lifecycle)
    lifecycle.stopListening() // BUG: publication is still to come
    return value
  }
}

export default factoryAdapter(mutant('f03'), (ctx) => scratchFactory(ctx, { factory: SignalDroppedAfterSetup }))
