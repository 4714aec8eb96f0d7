/**
 * Mutant for catalog M37 (inbox): a blocked admission clears unrelated pending work.
 *
 * Bug: when an agent/pre-step listener rejects the claimed batch, the driver runs a broad cleanup
 * (`inbox.clear()`), which also cancels queued prompts and steering that were never proposed
 * (violates P-LEDGER/FIFO: a rejection affects only the claimed batch, §6.4, §9 163/165).
 */
import type { AgentOptions, PreStepDecision, Session, UserMessage } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { modelStep } from '../../core/driver.js'
import type { DriverHost, Ending } from '../../core/driver.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import type { RunningPhase } from '../../core/phases.js'
import { referenceAdapter } from '../adapter.js'

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** A copy of the reference `runTurn` (core/driver.ts) with the bug marked `BUG`. */
async function buggyRunTurn(host: DriverHost, phase: RunningPhase): Promise<boolean> {
  const { agent, session, inbox, bus } = host
  const sig = phase.abort.signal
  sig.throwIfAborted()
  const turn = phase.turn + 1
  try {
    session.append('turn/start', { turn })
  } catch (error) {
    bus.contained('agent/error', agent, { agent, turn, step: 0, error })
    throw error
  }
  phase.turn = turn
  phase.step = 0
  let target: 'next-turn' | 'next-step' = 'next-turn'
  let ending: Ending | null = null
  try {
    for (;;) {
      sig.throwIfAborted()
      const step = phase.step + 1
      const batch = inbox.claim(target, turn)
      // The prompt-assembly hook of §10.1: an await that observes the signal (a cancellation window).
      await host.services.checkpoint(`agent:${agent.id}:assembly`)
      sig.throwIfAborted()
      const decision = await bus.waterfall<unknown, PreStepDecision>(
        'agent/pre-step', agent, { agent, messages: batch, turn, step, signal: sig },
        () => ({ kind: 'enter', messages: batch }),
      )
      sig.throwIfAborted()
      if (decision.kind === 'reject') {
        ending = { kind: 'blocked' }
        // BUG: a broad cancel instead of dropping only the claimed batch.
        inbox.clear()
        return false
      }
      if (ending && decision.messages.length === 0) break
      if (phase.step === 0 && decision.messages.length === 0) {
        ending = { kind: 'completed' }
        return false
      }
      sig.throwIfAborted()
      session.append('step/start', { turn, step })
      phase.step = step
      try {
        for (const message of decision.messages) session.append('user/message', message as UserMessage)
        ending = await modelStep(host, sig, turn, step)
      } finally {
        session.append('step/end', { turn, step })
      }
      sig.throwIfAborted()
      if (ending && inbox.nextStep.length === 0) {
        await bus.serial('agent/turn-stopping', agent, { agent, turn, signal: sig })
        sig.throwIfAborted()
      }
      if (ending && inbox.nextStep.length === 0) break
      target = 'next-step'
    }
  } catch (error) {
    if (sig.aborted) {
      ending = { kind: 'aborted', reason: sig.reason }
      throw error
    }
    ending = { kind: 'error', error: { message: errorMessage(error), code: 'UNKNOWN' } }
    bus.contained('agent/error', agent, { agent, turn, step: phase.step, error })
    throw error
  } finally {
    session.append('turn/end', { turn, reason: ending })
  }
  if (!inbox.hasPending) return false
  phase.abort = new AbortController()
  phase.wakeRequested = false
  phase.step = 0
  return true
}

class BuggyAgent extends ReferenceAgent {
  protected override runTurn(phase: RunningPhase): Promise<boolean> {
    return buggyRunTurn(this.host, phase)
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
