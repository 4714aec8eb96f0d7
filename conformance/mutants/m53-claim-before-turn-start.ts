/**
 * Mutant for catalog M53 (persistence/resume): live turn state advances before `turn/start`
 * commits.
 *
 * Bug: the driver advances its turn counter and stages (claims) the admitted prompt before the
 * durable `turn/start` append. The claim splice and agent/inbox/claimed precede turn/start, so the
 * log says a message was claimed into a turn that had not started, and a rejected turn/start append
 * would leave the counter ahead of the log (violates P-REPLAY, §3.2, §9 125/159).
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
  // BUG: live state first, durable commit second.
  phase.turn = turn
  phase.step = 0
  let staged: UserMessage[] | undefined = inbox.claim('next-turn', turn)
  try {
    session.append('turn/start', { turn })
  } catch (error) {
    bus.contained('agent/error', agent, { agent, turn, step: 0, error })
    throw error
  }
  let target: 'next-turn' | 'next-step' = 'next-turn'
  let ending: Ending | null = null
  try {
    for (;;) {
      sig.throwIfAborted()
      const step = phase.step + 1
      const batch = staged ?? inbox.claim(target, turn)
      staged = undefined
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
  { name: 'mutant:m53-claim-before-turn-start', version: '0.1.0', reproduces: 'M53: the turn counter and the admitted prompt advance before turn/start commits' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
