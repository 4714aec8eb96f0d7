import type { ContentBlock, MessageSource, UserMessage } from './contract.js'
import { deepFreeze } from './lossless-json.js'

/** Input of {@link createUserMessage}. */
export interface UserMessageInput {
  content: string | readonly ContentBlock[]
  source?: MessageSource
  /** Defaults to a fresh id from `newId`. */
  id?: string
}

/**
 * Build a deep-frozen user message (§1.1). The id comes from `newId` (pass `ctx.services.newId`
 * for deterministic ids); the default source is `{kind:'user'}`.
 */
export function createUserMessage(input: UserMessageInput, newId: (kind: string) => string = () => globalThis.crypto.randomUUID()): UserMessage {
  const content = typeof input.content === 'string' ? [{ type: 'text' as const, text: input.content }] : input.content.map((b) => ({ ...b }))
  return deepFreeze({ id: input.id ?? newId('message'), role: 'user' as const, content, source: input.source ? { ...input.source } : { kind: 'user' } })
}
