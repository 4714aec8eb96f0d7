/**
 * Mutant A10 (cancel/wake, spec-derived): a cancel after the stop check aborts a completed turn.
 *
 * Bug: once the last step passed its stop check, the driver awaits a final checkpoint (as a
 * durability flush would be) and then checks the activity signal again, so a cancel that lands
 * during that checkpoint turns a completed turn into an `aborted` one: the model's reply is in the
 * log, yet the turn says it was cancelled, and the canceller believes it stopped work that had
 * already finished (violates §10.1, §7.3, §9 157: cancellation windows end at the stop check).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { REFERENCE_TURN_STEPS, runTurn } from '../../core/driver.js'
import type { TurnSteps } from '../../core/driver.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { RunningPhase } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

/** The reference driver's steps, plus a final checkpoint that re-checks the signal. */
const BUGGY_STEPS: TurnSteps = {
  ...REFERENCE_TURN_STEPS,
  async finishTurn(host, _phase, signal) {
    await host.services.checkpoint(`agent:${host.agent.id}:checkpoint`)
    // BUG: the turn already passed its stop check; a cancel now must not touch it.
    signal.throwIfAborted()
  },
}

class BuggyAgent extends ReferenceAgent {
  protected override runTurn(phase: RunningPhase): Promise<boolean> {
    return runTurn(this.host, phase, BUGGY_STEPS)
  }
}

export default referenceAdapter(
  { name: 'mutant:a10-cancel-after-stop-check', version: '0.1.0', reproduces: 'A10: a cancel landing in the final checkpoint after the stop check aborts a completed turn' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
