/**
 * Mutant for catalog M31 (teardown): a disposal started from the "running" notification still
 * opens the turn.
 *
 * Bug: the driver does not re-check its activity signal before appending `turn/start`. When an
 * agent/status listener disposes (or cancels) the agent on "running", a turn/start is still
 * appended on an agent that is being torn down (violates §7.2 step 4, §9 107/150).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { appendTurnStart, REFERENCE_TURN_STEPS, runTurn } from '../../core/driver.js'
import type { TurnSteps } from '../../core/driver.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { RunningPhase } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

/** The reference driver's steps, but the turn opens without checking the activity's signal. */
const BUGGY_STEPS: TurnSteps = {
  ...REFERENCE_TURN_STEPS,
  // BUG: no abort check before the turn opens.
  openTurn: appendTurnStart,
}

class BuggyAgent extends ReferenceAgent {
  protected override runTurn(phase: RunningPhase): Promise<boolean> {
    return runTurn(this.host, phase, BUGGY_STEPS)
  }
}

export default referenceAdapter(
  { name: 'mutant:m31-turn-opens-after-dispose', version: '0.1.0', reproduces: 'M31: a disposal started from the running notification still opens the turn' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
