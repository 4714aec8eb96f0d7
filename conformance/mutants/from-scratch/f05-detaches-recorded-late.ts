/**
 * f05 — the registry detaches are recorded only once both enters succeeded.
 *
 * Breaks: step 7 keeps `sessions.enter`'s detach in a local and stores both detaches after
 * `agents.enter` returns. When only the agent id is occupied (an agent registered directly under the
 * id, §1.7 `register`), `agents.enter` throws `already registered`, the rollback finds no session
 * detach, and the session entered a moment before stays in the store for ever: an orphan.
 * Violates: AGENT-ATOMIC-TEST 65 (no orphan; §3.5 row L "if its session had been entered it is
 * removed silently", §5.1 step 6).
 * Realistic: assigning results together after a block of calls reads tidier; the comment in the
 * example ("record each detach as soon as it exists") is exactly the lesson.
 * @module
 */
import type { Session } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import type { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import { ScratchFactory } from '../../../examples/from-scratch-factory/factory.js'
import type { Lifecycle } from '../../../examples/from-scratch-factory/lifecycle.js'
import { mutant, scratchFactory } from './scratch.js'

class DetachesRecordedLate extends ScratchFactory {
  protected override enter(lifecycle: Lifecycle, agent: ScratchAgent, session: Session): void {
    const detachSession = agent.ctx.sessions.enter(session)
    const detachAgent = agent.ctx.agents.enter(agent, lifecycle.ownerCtx.agent) // BUG: may throw with the session entered
    Object.assign(lifecycle, { detachSession, detachAgent })
  }
}

export default factoryAdapter(mutant('f05'), (ctx) => scratchFactory(ctx, { factory: DetachesRecordedLate }))
