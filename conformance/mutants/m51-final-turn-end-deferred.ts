/**
 * Mutant for catalog M51 (status): idle comes before the final turn checkpoint.
 *
 * Bug: the driver closes a completed turn with nothing queued behind it lazily, to write its
 * `turn/end` together with whatever the agent does next: the next `turn/start` or its teardown
 * writes it first. So the agent goes idle and `whenIdle()` resolves while the log still shows the
 * turn open; a crash then leaves an "interrupted" turn that had completed. Every later check point
 * sees a balanced log (the deferred `turn/end` lands right before the next turn or teardown edge),
 * so only a check of the settled state catches it (violates §10.1, §7.4, §9 159).
 */
import type { AgentCancelCause, AgentOptions, CancelOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { REFERENCE_TURN_STEPS, runTurn } from '../../core/driver.js'
import type { DriverHost, TurnSteps } from '../../core/driver.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { isDisposedCause } from '../../core/phases.js'
import type { RunningPhase } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

/** Per agent, the `turn/end` written lazily. */
const deferred = new WeakMap<object, () => void>()

function flush(host: DriverHost): void {
  const close = deferred.get(host.agent)
  if (!close) return
  deferred.delete(host.agent)
  close()
}

/** The reference driver's steps, but a completed last turn is closed lazily. */
const BUGGY_STEPS: TurnSteps = {
  ...REFERENCE_TURN_STEPS,
  openTurn(host, phase) {
    flush(host)
    return REFERENCE_TURN_STEPS.openTurn(host, phase)
  },
  closeTurn(host, phase, turn, ending) {
    flush(host)
    // BUG: the final checkpoint of a completed turn waits for the agent's next durable step.
    if (ending?.kind === 'completed' && !host.inbox.hasPending) {
      deferred.set(host.agent, () => REFERENCE_TURN_STEPS.closeTurn(host, phase, turn, ending))
      return
    }
    REFERENCE_TURN_STEPS.closeTurn(host, phase, turn, ending)
  },
}

class BuggyAgent extends ReferenceAgent {
  protected override runTurn(phase: RunningPhase): Promise<boolean> {
    return runTurn(this.host, phase, BUGGY_STEPS)
  }

  override cancel(cause: AgentCancelCause, options: CancelOptions = {}): void {
    // Teardown writes the deferred turn/end first, so the log is balanced before agent/disposed.
    if (isDisposedCause(cause)) flush(this.host)
    super.cancel(cause, options)
  }
}

export default referenceAdapter(
  { name: 'mutant:m51-final-turn-end-deferred', version: '0.1.0', reproduces: 'M51: idle comes before the final turn checkpoint (a completed turn/end is written lazily)' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
