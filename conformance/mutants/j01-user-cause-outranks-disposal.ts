/**
 * Mutant J01 (cancel/teardown, a blind spot of the checkers until the trace recorded aborts): a
 * user cause outranks a disposal.
 *
 * Bug: a `cancel` with a cause other than `disposed` is recorded as the turn's cause even when the
 * activity was already aborted by a teardown (`cancel({kind:'disposed'})`), as if an explicit
 * request should win over an implicit one. The turn ends `aborted` with `user` although the first
 * cause was `disposed` (violates §7.3 "first cause wins per activity", §9 109/156). Before the
 * world recorded when activity signals abort, X-CANCEL 156 declined every turn whose first request
 * was a teardown (its disposal may reach the agent later), so no checker saw it.
 */
import type { AgentCancelCause, AgentOptions, CancelOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { REFERENCE_TURN_STEPS, runTurn } from '../../core/driver.js'
import type { TurnSteps } from '../../core/driver.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { RunningPhase } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

/** The explicit cause given per activity controller after its abort. */
const explicit = new WeakMap<AbortController, AgentCancelCause>()

const BUGGY_STEPS: TurnSteps = {
  ...REFERENCE_TURN_STEPS,
  abortReason: (_host, phase, signal) => explicit.get(phase.abort) ?? signal.reason,
}

class BuggyAgent extends ReferenceAgent {
  override cancel(cause: AgentCancelCause, options: CancelOptions = {}): void {
    const phase = this.phase
    super.cancel(cause, options)
    // BUG: an explicit cause replaces a disposal that aborted the activity first.
    if (phase.kind !== 'idle' && cause.kind !== 'disposed' && (phase.abort.signal.reason as AgentCancelCause | undefined)?.kind === 'disposed') explicit.set(phase.abort, cause)
  }

  protected override runTurn(phase: RunningPhase): Promise<boolean> {
    return runTurn(this.host, phase, BUGGY_STEPS)
  }
}

export default referenceAdapter(
  { name: 'mutant:j01-user-cause-outranks-disposal', version: '0.1.0', reproduces: 'J01: a cancel after a disposal replaces the disposed cause of the aborted turn' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
