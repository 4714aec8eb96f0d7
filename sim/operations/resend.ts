/**
 * The `resend` operation: a fresh message carrying the id of a message already pending in the live
 * agent's inbox. The contract requires the send to throw `message "<id>" is already pending` and to
 * write nothing (§9 120); an accepted re-send is marked `resend accepted <id>` for the checkers.
 * @module
 */
import { createUserMessage } from '../../core/messages.js'
import type { OperationResult, WorldHost } from '../world/world-host.js'
import { stringText } from '../trace/bounded-text.js'

/** The mark label of an accepted re-send of a pending id. */
export const RESEND_ACCEPTED = 'resend accepted'

/** Re-send the first pending id of the live agent `id` through `via`. */
export function resendPending(world: WorldHost, id: string, via: 'followup' | 'inject'): OperationResult {
  const agent = world.live(id)
  if (!agent) return { status: 'info', detail: 'not live' }
  const pending = [...agent.inbox.nextTurn, ...agent.inbox.nextStep][0]
  if (!pending) return { status: 'info', detail: 'nothing pending' }
  const message = createUserMessage({ id: pending.id, content: 'resent' })
  try {
    agent[via](message)
  } catch (error) {
    const text = stringText(error)
    if (/already pending/.test(text)) return { status: 'ok', detail: `rejected ${pending.id}` }
    throw error
  }
  world.trace.mark(`${RESEND_ACCEPTED} ${pending.id}`, world.generation, { id })
  return { status: 'ok', detail: `accepted ${pending.id}` }
}
