/**
 * The turn driver (§10.1): the smallest loop with upstream's boundary shape — which events are
 * appended, where the activity signal is checked, and what runs synchronously inside the waking
 * `send()` (the `turn/start` append and the first claim).
 * @module
 */
import type { Agent, Context, InboxTarget, PreStepDecision } from 'dsh-lifecycle-kit'
import type { SplicedInbox } from './inbox.js'

/** The agent's state while a driver runs (§7.1 `running`). */
export interface Running {
  readonly kind: 'running'
  /** The current activity's controller; each new turn of the same driver gets a fresh one. */
  abort: AbortController
  turn: number
  step: number
  /** A waking send arrived after the activity was aborted (§7.2): replay it at convergence. */
  wakeRequested: boolean
}

/** What the driver needs from its agent. */
export interface TurnHost {
  readonly agent: Agent
  readonly inbox: SplicedInbox
  /** The context events are dispatched and services reached through. */
  readonly ctx: Context
}

/** How a turn ended: the durable `turn/end.reason`. */
type Ending =
  | { kind: 'completed' }
  | { kind: 'blocked' }
  | { kind: 'aborted'; reason: unknown }
  | { kind: 'error'; error: { message: string; code: string } }

/**
 * Run one turn. Returns whether work is pending after a turn that closed normally (the agent then
 * decides whether the driver runs another, §7.4); an aborted or failed turn ends the driver by throwing.
 */
export async function runTurn(host: TurnHost, phase: Running): Promise<boolean> {
  const { agent, inbox, ctx } = host
  const { session } = agent
  const signal = phase.abort.signal
  signal.throwIfAborted() // a cancel from the `running` notification: no turn opens (§9 150)
  const turn = phase.turn + 1
  try {
    session.append('turn/start', { turn })
  } catch (error) {
    ctx.events.contained('agent/error', agent, { agent, turn, step: 0, error })
    throw error
  }
  phase.turn = turn
  phase.step = 0
  let target: InboxTarget = 'next-turn' // a turn's first step also claims one next-turn item (§6.4)
  let ending: Ending | null = null
  try {
    for (;;) {
      signal.throwIfAborted()
      const step = phase.step + 1
      const batch = inbox.claim(target, turn)
      // The prompt-assembly hook: an await that observes the signal (a cancellation window).
      await ctx.services.checkpoint(`agent:${agent.id}:assembly`)
      signal.throwIfAborted()
      const decision = await ctx.events.waterfall<unknown, PreStepDecision>(
        'agent/pre-step', agent, { agent, messages: batch, turn, step, signal },
        () => ({ kind: 'enter', messages: batch }),
      )
      signal.throwIfAborted()
      if (decision.kind === 'reject') { ending = { kind: 'blocked' }; return false } // the batch is dropped
      if (ending && decision.messages.length === 0) break
      if (phase.step === 0 && decision.messages.length === 0) { ending = { kind: 'completed' }; return false }
      session.append('step/start', { turn, step })
      phase.step = step
      try {
        for (const message of decision.messages) session.append('user/message', message)
        ending = await callModel(host, signal, turn, step)
      } finally {
        session.append('step/end', { turn, step })
      }
      signal.throwIfAborted()
      if (ending && inbox.nextStep.length === 0) {
        await ctx.events.serial('agent/turn-stopping', agent, { agent, turn, signal })
        signal.throwIfAborted()
        if (inbox.nextStep.length === 0) break // steering sent while stopping makes another step (§9 162)
      }
      target = 'next-step'
    }
  } catch (error) {
    if (signal.aborted) {
      ending = { kind: 'aborted', reason: signal.reason } // the first cause, exactly (§7.3)
    } else {
      ending = { kind: 'error', error: { message: error instanceof Error ? error.message : String(error), code: 'UNKNOWN' } }
      ctx.events.contained('agent/error', agent, { agent, turn, step: phase.step, error })
    }
    throw error
  } finally {
    session.append('turn/end', { turn, reason: ending }) // every opened turn is closed
  }
  return inbox.hasPending
}

/** One model request (§10.1 `modelStep`): `completed`, or `null` when the model asks for another step. */
async function callModel(host: TurnHost, signal: AbortSignal, turn: number, step: number): Promise<Ending | null> {
  const { agent, ctx } = host
  const model = ctx.services.model
  if (!model) throw new Error(`agent "${agent.id}" has no model configured`)
  signal.throwIfAborted() // never send a request for an activity already aborted (§9 108)
  const { maxTokens } = agent.options
  const reply = await model.call({
    sessionId: agent.id, messages: agent.session.deriveMessages(), signal, ...(maxTokens === undefined ? {} : { maxTokens }),
  })
  signal.throwIfAborted()
  agent.session.append('assistant/message', { turn, step, text: reply.text })
  return reply.followUp ? null : { kind: 'completed' }
}
