/**
 * Mutant A12 (status, spec-derived from §12 Q8 and HEAD): a driver that cannot start leaves the
 * agent `running`.
 *
 * Bug: a waking send that starts a driver while the initiator scope is closing (a shutdown has
 * begun) cannot enter `withInitiator`; the agent settles its activity but never returns to idle,
 * as HEAD does. The item parks, `whenIdle()` resolves, teardown completes, and the agent reads
 * `running` from then on — also after it has left the registry — with no `agent/status idle` ever
 * emitted (violates §7.4, §12 Q8, §9 11/27). No event shows it: only reading the status once things
 * settle does.
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { RunningPhase } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  protected override startDriver(): void {
    const idle = this.phase
    if (idle.kind !== 'idle') return
    const phase: RunningPhase = { kind: 'running', abort: new AbortController(), turn: idle.lastTurn, step: 0, wakeRequested: false }
    const done = this.replaceActivity()
    this.setPhase(phase)
    if (this.phase !== phase) { done(); return }
    try {
      void this.ctx.agents.withInitiator(this, () => this.drive(phase, done))
    } catch (error) {
      this.host.services.warn(`agent "${this.id}" could not start its driver`, error)
      // BUG: the activity settles but the phase stays running (no return to idle).
      done()
    }
  }
}

export default referenceAdapter(
  { name: 'mutant:a12-driver-start-failure-keeps-running', version: '0.1.0', reproduces: 'A12: a driver that cannot start (initiator scope closing, §12 Q8) leaves the agent running' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
