/**
 * Mutant for appendix A1 (initiator): the initiator store is disabled before the driver's
 * boundary has drained.
 *
 * Bug: the driver is started inside `withInitiator(agent, …)` but the operation does not return the
 * driver's promise, so the boundary is released at once and the registry's drain does not wait for
 * the driver. On a registry/process shutdown the store is disabled while the old driver is still
 * aborting: its continuations read no initiator (or throw `agent initiator scope is disposed`)
 * (violates §8 AGENT-INITIATOR-DRAIN, §9 141).
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
      // BUG: the boundary's operation does not return the driver promise.
      this.ctx.agents.withInitiator(this, () => { void this.drive(phase, done) })
    } catch (error) {
      this.host.services.warn(`agent "${this.id}" could not start its driver`, error)
      if (this.phase === phase) this.setPhase({ kind: 'idle', lastTurn: phase.turn })
      done()
    }
  }
}

export default referenceAdapter(
  { name: 'mutant:a1-driver-boundary-not-returned', version: '0.1.0', reproduces: 'A1: the driver outlives its initiator boundary, so teardown disables the store under it' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
