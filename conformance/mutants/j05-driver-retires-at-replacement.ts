/**
 * Mutant J05 (idle, a blind spot of the checkers until the settled probe asked an idle agent's
 * `whenIdle()` again whenever something happened to it): a driver's activity retires only when the
 * next activity replaces it.
 *
 * Bug: when a driver exits, the promise `whenIdle()` follows is not resolved there but when the next
 * activity (a wake, a maintenance) replaces it: between the two the agent reads `idle` with nothing
 * in flight, yet `whenIdle()` does not settle (violates §7.5, §9 24). The settled probe asked an idle
 * agent's `whenIdle()` only when input was pending, a turn was open or the run was ending, so an
 * agent that went idle and was later given other work (which cured it) was never asked in between.
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { RunningPhase } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  #retiring: (() => void) | undefined

  protected override drive(phase: RunningPhase, done: () => void): Promise<void> {
    // BUG: the exiting driver's activity is retired by its replacement, not at its exit.
    return super.drive(phase, () => { this.#retiring = done })
  }

  protected override replaceActivity(): () => void {
    const retiring = this.#retiring
    this.#retiring = undefined
    const done = super.replaceActivity()
    retiring?.()
    return done
  }
}

export default referenceAdapter(
  { name: 'mutant:j05-driver-retires-at-replacement', version: '0.1.0', reproduces: 'J05: whenIdle() of an idle agent waits for its next activity to start' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
