/**
 * What the world records of an inbox: the message id an inbox event's payload names, and the live
 * inbox projection by message id.
 * @module
 */
import type { Agent } from '../../core/contract.js'
import type { InboxSnapshot } from '../trace/trace.js'

/** The id of an inbox event's message, or what its payload carried instead (a factory bug the inbox checker names). */
export function inboxMessageId(payload: { message?: unknown } | undefined): { id?: string; missing?: string } {
  const message = payload?.message as { id?: unknown } | undefined
  if (typeof message?.id === 'string') return { id: message.id }
  if (message === undefined || message === null) return { missing: `carries no message (payload keys: ${Object.keys(payload ?? {}).join(', ') || 'none'})` }
  if (typeof message !== 'object') return { missing: `carries message ${short(message)} instead of the UserMessage` }
  return { missing: `carries a message with no string id (${short(message)})` }
}

function short(value: unknown): string {
  let text: string
  try { text = JSON.stringify(value) ?? String(value) } catch { text = String(value) }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/** The live inbox projection by message id. */
export function inboxSnapshot(agent: Agent): InboxSnapshot {
  return { nextTurn: agent.inbox.nextTurn.map((m) => m.id), nextStep: agent.inbox.nextStep.map((m) => m.id) }
}
