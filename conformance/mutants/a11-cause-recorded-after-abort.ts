/**
 * Mutant A11 (cancel/wake, spec-derived): the cancel cause is recorded after the abort's observers ran.
 *
 * Bug: `cancel` aborts the activity and only then records the cause the turn will report, if none
 * is recorded yet. A cancel made from inside an observer of that abort (a tool's cleanup, a
 * cascade) runs in between and records its own cause first, so the turn ends `aborted` with the
 * second cause instead of the first (violates §7.3 "first cause wins", §9 109/156). Directed cases
 * that cancel twice in sequence pass; only a cancel from an abort observer shows it.
 */
import type { AgentCancelCause, AgentOptions, CancelOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { REFERENCE_TURN_STEPS, runTurn } from '../../core/driver.js'
import type { TurnSteps } from '../../core/driver.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { RunningPhase } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

/** The cause recorded per activity controller. */
const recorded = new WeakMap<AbortController, unknown>()

/** The reference driver's steps, but an aborted turn reports the recorded cause. */
const BUGGY_STEPS: TurnSteps = {
  ...REFERENCE_TURN_STEPS,
  abortReason: (_host, phase, signal) => (recorded.has(phase.abort) ? recorded.get(phase.abort) : signal.reason),
}

class BuggyAgent extends ReferenceAgent {
  override cancel(cause: AgentCancelCause, options: CancelOptions = {}): void {
    const phase = this.phase
    super.cancel(cause, options)
    // BUG: recorded after the abort dispatched to its observers, which may have cancelled again.
    if (phase.kind !== 'idle' && phase.abort.signal.aborted && !recorded.has(phase.abort)) recorded.set(phase.abort, cause)
  }

  protected override runTurn(phase: RunningPhase): Promise<boolean> {
    return runTurn(this.host, phase, BUGGY_STEPS)
  }
}

export default referenceAdapter(
  { name: 'mutant:a11-cause-recorded-after-abort', version: '0.1.0', reproduces: 'A11: the cancel cause is recorded after the abort observers ran (a cancel from an abort observer wins)' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
