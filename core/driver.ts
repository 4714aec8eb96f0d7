import type { Agent, InboxTarget, PreStepDecision, RootServices, Session, UserMessage } from './contract.js'
import type { InboxImpl } from './inbox.js'
import type { RunningPhase } from './phases.js'
import type { EventBus } from './scope/events.js'

/** What the turn driver needs from its agent. */
export interface DriverHost {
  readonly agent: Agent
  readonly session: Session
  readonly inbox: InboxImpl
  readonly bus: EventBus
  readonly services: RootServices
  readonly maxTokens: number | undefined
}

export type Ending = { kind: 'completed' } | { kind: 'blocked' } | { kind: 'aborted'; reason: unknown } | { kind: 'error'; error: { message: string; code: string } }

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * The steps of a turn that a variant of the driver may replace one at a time (the conformance
 * suite's mutants each replace one); {@link REFERENCE_TURN_STEPS} are the reference driver's.
 */
export interface TurnSteps {
  /**
   * Open the turn (§7.2 step 4, §10.1): refuse an already aborted activity, append `turn/start`
   * (a failed append is reported as `agent/error` and rethrown), then advance the phase's
   * counters. Returns the turn's number.
   */
  openTurn(host: DriverHost, phase: RunningPhase): number
  /** Claim the batch of the next step (§6.4): next-step items, then one next-turn item at a turn's first step. */
  claim(host: DriverHost, phase: RunningPhase, target: InboxTarget, turn: number): UserMessage[]
  /** An `agent/pre-step` listener rejected `batch`: the turn closes `blocked`, the batch alone is dropped (§9 165). */
  rejected(host: DriverHost, batch: readonly UserMessage[]): void
  /** After `agent/turn-stopping` of the step that ended the turn: whether steering sent meanwhile makes another step (§9 162). */
  continueAfterStop(host: DriverHost, turn: number): boolean
}

/**
 * Append the next turn's `turn/start` (a failed append is reported as `agent/error` and rethrown),
 * then advance the phase's counters; returns the turn's number. The unchecked half of
 * {@link TurnSteps.openTurn}.
 */
export function appendTurnStart(host: DriverHost, phase: RunningPhase): number {
  const turn = phase.turn + 1
  try {
    host.session.append('turn/start', { turn })
  } catch (error) {
    host.bus.contained('agent/error', host.agent, { agent: host.agent, turn, step: 0, error })
    throw error
  }
  phase.turn = turn
  phase.step = 0
  return turn
}

/** The reference driver's steps. */
export const REFERENCE_TURN_STEPS: TurnSteps = {
  openTurn(host, phase) {
    phase.abort.signal.throwIfAborted()
    return appendTurnStart(host, phase)
  },
  claim: (host, _phase, target, turn) => host.inbox.claim(target, turn),
  rejected: () => undefined,
  continueAfterStop: (host) => host.inbox.nextStep.length > 0,
}

/**
 * One turn of the minimal driver of §10.1. Everything up to the first await (the `turn/start`
 * append and the first claim) runs synchronously inside the waking `send()`. Returns whether the
 * driver should run another turn (pending work after a normally closed turn).
 */
export async function runTurn(host: DriverHost, phase: RunningPhase, steps: TurnSteps = REFERENCE_TURN_STEPS): Promise<boolean> {
  const { agent, session, inbox, bus } = host
  const sig = phase.abort.signal
  const turn = steps.openTurn(host, phase)
  let target: InboxTarget = 'next-turn'
  let ending: Ending | null = null
  try {
    for (;;) {
      sig.throwIfAborted()
      const step = phase.step + 1
      const batch = steps.claim(host, phase, target, turn)
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
        steps.rejected(host, batch)
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
        if (!steps.continueAfterStop(host, turn)) break
      }
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
  // An abort that landed while turn/end was being appended (a cancel or a dispose from one of its
  // observers) ends this activity: pending work parks (§7.3) or the teardown drops it (§5.1), and
  // the controller below must not replace the aborted one (a turn would open after dispose, §9 107).
  if (!inbox.hasPending || sig.aborted) return false
  phase.abort = new AbortController()
  phase.wakeRequested = false
  phase.step = 0
  return true
}

/** One model call; returns the turn ending (`completed`) or `null` when a tool follow-up step is requested. */
export async function modelStep(host: DriverHost, sig: AbortSignal, turn: number, step: number): Promise<Ending | null> {
  const model = host.services.model
  if (!model) throw new Error(`agent "${host.agent.id}" has no model configured`)
  // Never dispatch a request on an already aborted activity (e.g. disposal from a step/start observer, §9 108).
  sig.throwIfAborted()
  const request = { sessionId: host.agent.id, messages: host.session.deriveMessages(), signal: sig }
  const reply = await model.call(host.maxTokens === undefined ? request : { ...request, maxTokens: host.maxTokens })
  sig.throwIfAborted()
  host.session.append('assistant/message', { turn, step, text: reply.text })
  return reply.followUp ? null : { kind: 'completed' }
}
