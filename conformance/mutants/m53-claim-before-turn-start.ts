/**
 * Mutant for catalog M53 (persistence/resume): live turn state advances before `turn/start`
 * commits.
 *
 * Bug: the driver advances its turn counter and stages (claims) the admitted prompt before the
 * durable `turn/start` append. The claim splice and agent/inbox/claimed precede turn/start, so the
 * log says a message was claimed into a turn that had not started, and a rejected turn/start append
 * would leave the counter ahead of the log (violates P-REPLAY, §3.2, §9 125/159).
 */
import type { AgentOptions, Session, UserMessage } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { REFERENCE_TURN_STEPS, runTurn } from '../../core/driver.js'
import type { TurnSteps } from '../../core/driver.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { RunningPhase } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

/** The first batch of each turn, claimed before its turn/start. */
const staged = new WeakMap<RunningPhase, UserMessage[]>()

/** The reference driver's steps, but the turn's live state and first claim come before turn/start. */
const BUGGY_STEPS: TurnSteps = {
  ...REFERENCE_TURN_STEPS,
  openTurn(host, phase) {
    phase.abort.signal.throwIfAborted()
    const turn = phase.turn + 1
    // BUG: live state first, durable commit second.
    phase.turn = turn
    phase.step = 0
    staged.set(phase, host.inbox.claim('next-turn', turn))
    try {
      host.session.append('turn/start', { turn })
    } catch (error) {
      host.bus.contained('agent/error', host.agent, { agent: host.agent, turn, step: 0, error })
      throw error
    }
    return turn
  },
  claim(host, phase, target, turn) {
    const batch = staged.get(phase)
    staged.delete(phase)
    return batch ?? host.inbox.claim(target, turn)
  },
}

class BuggyAgent extends ReferenceAgent {
  protected override runTurn(phase: RunningPhase): Promise<boolean> {
    return runTurn(this.host, phase, BUGGY_STEPS)
  }
}

export default referenceAdapter(
  { name: 'mutant:m53-claim-before-turn-start', version: '0.1.0', reproduces: 'M53: the turn counter and the admitted prompt advance before turn/start commits' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
