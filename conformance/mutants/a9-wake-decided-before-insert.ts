/**
 * Mutant A9 (cancel/wake, spec-derived): the wake rule reads the phase from before the insertion.
 *
 * Bug: `send` decides whether to start a driver or latch the wake on the phase it read before
 * inserting the message, not on the phase after the insertion's observers ran (§7.2 steps 3–4).
 * When an `agent/inbox/inserted` (or splice) observer starts maintenance on the idle agent, the
 * send still believes it is idle: starting a driver fails (the agent is in maintenance) and the
 * wake is neither run nor latched, so the followup parks forever behind a task that has long
 * settled (violates §7.2 "Latch replay", §9 31). Only reentrant programs (an operation from inside
 * an inbox observer) reach it.
 */
import type { AgentOptions, InboxTarget, Session, UserMessage } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { isDisposedCause } from '../../core/phases.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  override send(message: UserMessage, target: InboxTarget, wakeup: boolean): void {
    const before = this.phase
    const wakingAfterAbort = wakeup && before.kind !== 'idle' && before.abort.signal.aborted
    if (this.tornDown && before.kind === 'idle') throw new Error(`agent "${this.id}" is disposed`)
    this.inbox.append(wakingAfterAbort ? 'next-turn' : target, message)
    if (!wakeup) return
    // BUG: the phase read before the insertion decides (the reference reads it again here).
    if (before.kind === 'idle') {
      if (!this.tornDown) this.startDriver()
    } else if (before.kind === 'maintenance' || (before.kind === 'running' && wakingAfterAbort)) {
      if (!isDisposedCause(before.abort.signal.reason)) before.wakeRequested = true
    }
  }
}

export default referenceAdapter(
  { name: 'mutant:a9-wake-decided-before-insert', version: '0.1.0', reproduces: 'A9: the wake rule reads the phase from before the insertion (a wake whose inserted observer started maintenance is lost)' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
