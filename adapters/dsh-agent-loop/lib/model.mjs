/**
 * The kit's scripted model as an upstream `LlmAdapter`: every `stream()` is one
 * `services.model.call(...)` (the simulator's scheduling point for the model), whose reply is
 * streamed back as upstream chunks. A kit reply with `followUp: true` becomes a call of the no-op
 * tool {@link FOLLOW_UP_TOOL}, so upstream runs a tool step and continues the turn with another
 * step, as the kit's reference driver does.
 * @module
 */
import { CallId, LlmAdapter } from '@deepseek-ai/dsh-llm'
import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'

/** The name of the registered no-op tool a follow-up reply calls. */
export const FOLLOW_UP_TOOL = 'kit_follow_up'

/** The no-op tool definition (its result is one text block). */
export function followUpTool() {
  return defineContentToolFixture({
    name: FOLLOW_UP_TOOL,
    description: 'No-op tool the simulated model calls to ask for another step.',
    parameters: {},
    execute: async () => [{ type: 'text', text: 'ok' }],
  })
}

/** The text of an upstream message (its text blocks, joined). */
function textOf(message) {
  const blocks = Array.isArray(message.content) ? message.content : []
  return blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'tool-result' ? '[tool result]' : b.type === 'tool-call' ? `[tool call ${b.name}]` : '')).join('')
}

/** Upstream request messages as the kit's derived messages (user and assistant text). */
function derived(messages) {
  return (messages ?? []).map((m) => ({ role: m.role === 'assistant' ? 'assistant' : 'user', text: textOf(m) }))
}

/** An `LlmAdapter` whose every call is one call of the kit's model. */
export class KitModelAdapter extends LlmAdapter {
  /** @param model the kit's `Model` (`services.model`) */
  constructor(model) {
    super()
    this.model = model
    this.calls = 0
  }

  async *stream(options) {
    const signal = options.signal
    signal?.throwIfAborted()
    const n = ++this.calls
    // The kit's model honours the signal itself (a hang ends when it aborts).
    const reply = await this.model.call({
      sessionId: options.sessionId,
      messages: derived(options.messages),
      signal: signal ?? new AbortController().signal,
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    })
    signal?.throwIfAborted()
    const text = reply.text
    yield { type: 'block-start', index: 0, blockType: 'text' }
    yield { type: 'text-delta', index: 0, text }
    yield { type: 'block-end', index: 0, block: { type: 'text', text } }
    if (reply.followUp) {
      const id = CallId(`call-${options.sessionId}-${n}`)
      const block = { type: 'tool-call', id, name: FOLLOW_UP_TOOL, arguments: '{}' }
      yield { type: 'block-start', index: 1, blockType: 'tool-call' }
      yield { type: 'tool-call-delta', index: 1, id, name: FOLLOW_UP_TOOL, argumentsDelta: '{}' }
      yield { type: 'block-end', index: 1, block }
    }
    yield { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } }
    yield { type: 'finish', reason: { kind: reply.followUp ? 'tool-calls' : 'stop' } }
  }
}
