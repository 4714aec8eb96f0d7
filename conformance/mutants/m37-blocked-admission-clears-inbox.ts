/**
 * Mutant for catalog M37 (inbox): a blocked admission clears unrelated pending work.
 *
 * Bug: when an agent/pre-step listener rejects the claimed batch, the driver runs a broad cleanup
 * (`inbox.clear()`), which also cancels queued prompts and steering that were never proposed
 * (violates P-LEDGER/FIFO: a rejection affects only the claimed batch, §6.4, §9 163/165).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { REFERENCE_TURN_STEPS, runTurn } from '../../core/driver.js'
import type { TurnSteps } from '../../core/driver.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { RunningPhase } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

/** The reference driver's steps, but a rejected batch takes all pending work with it. */
const BUGGY_STEPS: TurnSteps = {
  ...REFERENCE_TURN_STEPS,
  rejected(host) {
    // BUG: a broad cancel instead of dropping only the claimed batch.
    host.inbox.clear()
  },
}

class BuggyAgent extends ReferenceAgent {
  protected override runTurn(phase: RunningPhase): Promise<boolean> {
    return runTurn(this.host, phase, BUGGY_STEPS)
  }
}

export default referenceAdapter(
  { name: 'mutant:m37-blocked-admission-clears-inbox', version: '0.1.0', reproduces: 'M37: a blocked admission discards unrelated pending work' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
