/**
 * Small assertion helpers shared by the create/resume/setup/publish directed cases. Public
 * contract only: registries, events recorded by the harness, returned promises.
 */
import assert from 'node:assert/strict'
import type { AgentHandle, CreateAgentOptions, SessionEvent, SessionId } from '../../core/contract.js'
import type { Harness, HarnessOptions, CaseTarget } from './harness.js'
import { makeHarness } from './harness.js'

/** The publication edges of one id. */
export const PUBLICATION = ['session/created', 'agent/created', 'agent/session-start'] as const

/** Await a rejection and return its value (fails if the promise fulfils). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  let outcome: { ok: true } | { ok: false; error: unknown }
  try {
    await promise
    outcome = { ok: true }
  } catch (error) {
    outcome = { ok: false, error }
  }
  if (outcome.ok) assert.fail('expected the promise to reject')
  return outcome.error
}

/** Await a rejection whose message contains `message` (the exact contract string). */
export async function rejectsWith(promise: Promise<unknown>, message: string): Promise<Error> {
  const error = await rejection(promise)
  assert.ok(error instanceof Error, `expected an Error, got ${String(error)}`)
  assert.ok(error.message.includes(message), `expected message containing ${JSON.stringify(message)}, got ${JSON.stringify(error.message)}`)
  return error
}

/** Lifecycle edges (created/disposed/session-start) observed for one id, in order. */
export function lifecycle(h: Harness, id: string): string[] {
  return h.names(id, (o) => /\/(created|disposed|session-start)$/.test(o.name))
}

/** Nothing of `id` was ever published and neither registry holds it now. */
export function assertNothingPublished(h: Harness, id: string): void {
  const published = h.names(id, (o) => (PUBLICATION as readonly string[]).includes(o.name))
  assert.deepEqual(published, [], `nothing should be published for "${id}"`)
  assert.equal(h.ctx.sessions.get(id), undefined, `session "${id}" should not be live`)
  assert.equal(h.ctx.agents.get(id), undefined, `agent "${id}" should not be live`)
}

/** Both registries are empty. */
export function assertEmpty(h: Harness): void {
  assert.deepEqual(h.ctx.sessions.list(), [])
  assert.deepEqual(h.ctx.agents.list(), [])
}

/** Send a followup and wait until the agent is idle again. */
export async function drive(h: Harness, handle: Pick<AgentHandle, 'agent'>, text: string): Promise<void> {
  handle.agent.followup(h.msg(text))
  await handle.agent.whenIdle()
}

/** A persisted session and the process that can resume it. */
export interface Persisted {
  /** The new process (the old one was shut down gracefully). */
  readonly h: Harness
  /** The persisted events as found on disk before any resume. */
  readonly events: SessionEvent[]
  /** The original session's derived history right before shutdown. */
  readonly history: ReturnType<AgentHandle['agent']['session']['deriveMessages']>
  /** The original header. */
  readonly header: AgentHandle['agent']['session']['header']
}

/**
 * Create `id` in a fresh process, drive `turns` followups to idle, shut down gracefully and return
 * a new process over the same disk (with `next` options, e.g. load hooks).
 */
export async function persisted(
  target: CaseTarget,
  id: SessionId,
  options: { create?: Partial<CreateAgentOptions>; turns?: number; next?: HarnessOptions } = {},
): Promise<Persisted> {
  const first = await makeHarness(target)
  const handle = await first.create(id, options.create)
  for (let i = 1; i <= (options.turns ?? 2); i++) await drive(first, handle, `${id} turn ${i}`)
  const history = handle.agent.session.deriveMessages()
  const header = handle.agent.session.header
  const h = await first.restart(options.next)
  const record = h.disk.get(id)
  assert.ok(record, `session "${id}" should be persisted`)
  return { h, events: [...record.events], history, header }
}
