/**
 * Mutant for catalog M35 (inbox): steering is dropped at a terminal stop without being recorded
 * as delivered or discarded.
 *
 * Bug: after the agent/turn-stopping dispatch the driver ends the turn unconditionally and sweeps
 * whatever steering arrived meanwhile out of the inbox with a claim: the message never reaches any
 * request (no user/message) and is never reported as discarded (violates P-LEDGER, §10.1, §9 162).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { REFERENCE_TURN_STEPS, runTurn } from '../../core/driver.js'
import type { TurnSteps } from '../../core/driver.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { RunningPhase } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

/** The reference driver's steps, but steering that arrived during turn-stopping is swept away. */
const BUGGY_STEPS: TurnSteps = {
  ...REFERENCE_TURN_STEPS,
  continueAfterStop(host, turn) {
    // BUG: the turn is over; late steering is claimed and never reaches a request.
    host.inbox.claim('next-step', turn)
    return false
  },
}

class BuggyAgent extends ReferenceAgent {
  protected override runTurn(phase: RunningPhase): Promise<boolean> {
    return runTurn(this.host, phase, BUGGY_STEPS)
  }
}

export default referenceAdapter(
  { name: 'mutant:m35-steering-dropped-at-stop', version: '0.1.0', reproduces: 'M35: steering that lands during turn-stopping is consumed without reaching a request' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
