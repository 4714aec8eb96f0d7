/**
 * f19 — `whenIdle` waits for the activity it found, not for the ones that replace it.
 *
 * Breaks: `whenIdle` awaits the current activity once. Work started before that activity retired —
 * a latched wake replayed at convergence, a followup sent by an `idle` listener, a maintenance task
 * started from the convergence — is not followed: the waiter resolves while the agent runs again.
 * The teardown's own `whenIdle` (§5.1 step 4) is the same call, so a teardown may also go on to
 * dispose the scope under a running replacement.
 * Violates: AGENT-RUNTIME-SCOPE 27 (whenIdle follows replacement work; §7.5 identity following).
 * Realistic: "await the current activity" is the first version anyone writes; the loop of §7.5 is
 * only needed for work that starts in the same tick as the convergence.
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import { mutant, scratchFactory } from './scratch.js'

class WhenIdleSingleWait extends ScratchAgent {
  override async whenIdle(): Promise<void> {
    await this.activity // BUG: no loop while the activity was replaced
  }
}

export default factoryAdapter(mutant('f19'), (ctx) => scratchFactory(ctx, { agent: WhenIdleSingleWait }))
