/**
 * Helpers shared by the directed cases that drive agents (AGENT-RUNTIME-SCOPE, agent-level
 * AGENT-INBOX-TEST, AGENT-INITIATOR 139–141, X-CANCEL, X-INPUT). Public contract only: the session
 * log, the inbox, handles, events, the scripted model's recorded requests. No timers.
 */
import type { Agent, ModelRequest, SessionEvent, UserMessage } from '../../core/contract.js'
import { script } from '../../core/scripted-model.js'
import type { ScriptEntry } from '../../core/scripted-model.js'
import type { Gate } from './harness.js'

/** The reason of a turn aborted by `cancel(cause)`. */
export const aborted = (reason: unknown): unknown => ({ kind: 'aborted', reason })
export const USER = { kind: 'user' } as const
export const COMPLETED = { kind: 'completed' } as const

/** Events of one type in the session log. */
export function eventsOf(agent: Agent, type: string): SessionEvent[] {
  return agent.session.events.filter((e) => e.type === type)
}

/** Number of events of one type in the session log. */
export function count(agent: Agent, type: string): number {
  return eventsOf(agent, type).length
}

/** `turn/end` reasons in log order. */
export function turnEnds(agent: Agent): unknown[] {
  return eventsOf(agent, 'turn/end').map((e) => (e.data as { reason: unknown }).reason)
}

/** `turn/start` turn numbers in log order. */
export function turnStarts(agent: Agent): number[] {
  return eventsOf(agent, 'turn/start').map((e) => (e.data as { turn: number }).turn)
}

/** Plain text of a message's content. */
export function textOf(message: Pick<UserMessage, 'content'>): string {
  return (message.content ?? []).map((b) => b.text).join('')
}

/** Texts of the `user/message` events in log order. */
export function userTexts(agent: Agent): string[] {
  return eventsOf(agent, 'user/message').map((e) => textOf(e.data as unknown as UserMessage))
}

/** Per turn (in log order): the texts of the `user/message` events between its `turn/start` and `turn/end`. */
export function turnsWithTexts(agent: Agent): { turn: number; texts: string[]; steps: number; reason: unknown }[] {
  const out: { turn: number; texts: string[]; steps: number; reason: unknown }[] = []
  let open: { turn: number; texts: string[]; steps: number; reason: unknown } | undefined
  for (const e of agent.session.events) {
    const data = e.data as Record<string, unknown>
    if (e.type === 'turn/start') { open = { turn: data.turn as number, texts: [], steps: 0, reason: undefined }; out.push(open) }
    else if (e.type === 'step/start' && open) open.steps++
    else if (e.type === 'user/message' && open) open.texts.push(textOf(data as unknown as UserMessage))
    else if (e.type === 'turn/end' && open) { open.reason = data.reason; open = undefined }
  }
  return out
}

/** Seq of the first event matching `pred`, or -1. */
export function seqOf(agent: Agent, pred: (e: SessionEvent) => boolean, nth = 0): number {
  return agent.session.events.filter(pred)[nth]?.seq ?? -1
}

/** Resolves when `signal` aborts (immediately if it already has). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), { once: true })
  })
}

/** A model entry that opens `reached` when the call starts, then hangs until aborted. */
export function hangAt(reached: Gate<ModelRequest> | Gate): ScriptEntry {
  return script.fn((request) => { (reached as Gate<ModelRequest>).open(request); return script.hang() })
}

/**
 * A slow abort convergence without timers: the call opens `reached`, waits for its signal to abort,
 * opens `abortSeen` (if given), then stays held until `slow` opens, and only then rejects with the
 * signal's reason.
 */
export function slowConvergence(reached: Gate<ModelRequest> | Gate, slow: Gate, abortSeen?: Gate): ScriptEntry {
  return script.toolFollowUp(async (request) => {
    ;(reached as Gate<ModelRequest>).open(request)
    await untilAborted(request.signal)
    abortSeen?.open()
    await slow.promise
  })
}

/** True once `promise` has settled (read after `settle()`). */
export function tracked(promise: Promise<unknown>): { readonly done: boolean } {
  const state = { done: false }
  promise.then(() => { state.done = true }, () => { state.done = true })
  return state
}
