/**
 * Mutant for catalog M22 (teardown): a throwing agent/status listener breaks the driver or the
 * disposal.
 *
 * Bug: `setPhase` emits agent/status with a plain (veto) emit. A listener that throws on "running"
 * escapes from the waking send before the driver starts (the agent is stuck "running" and
 * whenIdle never resolves); one that throws on "idle" escapes from the driver's exit before its
 * activity is released, so whenIdle, and with it dispose(), hang (violates P-IDLE, P-QUIESCE,
 * §7.4, §9 23/113).
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { Phase } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  protected override setPhase(phase: Phase): void {
    const before = this.status
    this.phase = phase
    const after = this.status
    // BUG: not contained.
    if (before !== after) this.host.bus.veto('agent/status', this, { agent: this, status: after })
  }
}

export default referenceAdapter(
  { name: 'mutant:m22-uncontained-status', version: '0.1.0', reproduces: 'M22: a throwing agent/status listener breaks the driver and disposal' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
