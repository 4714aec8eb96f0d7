/**
 * A stub agent a program registers directly in the agent registry (`{op: 'register'}`), to hold an
 * id the way an agent registered outside any factory does (§3.5 row L). It is not a driver: every
 * method throws, except `whenIdle`, which resolves; its inbox is empty and its session is a minimal
 * read-only object with no events.
 * @module
 */
import type { Agent, Context, Inbox, Session, SessionId } from '../../core/contract.js'

/** Build the stub agent registered by a program under `id`. */
export function createStubAgent(id: SessionId): Agent {
  const refuse = (): never => { throw new Error(`stub agent "${id}" registered by the program`) }
  const inbox: Inbox = Object.freeze({
    nextTurn: Object.freeze([]),
    nextStep: Object.freeze([]),
    hasPending: false,
    append: refuse,
    prepend: refuse,
    replace: refuse,
    remove: refuse,
    clear: refuse,
    splice: refuse,
  })
  const session: Session = Object.freeze({
    header: Object.freeze({ version: 0, id, createdAt: 0 }),
    id,
    events: Object.freeze([]),
    seq: 0,
    firstLiveSeq: 0,
    append: refuse,
    deriveMessages: refuse,
  })
  return Object.freeze({
    id,
    options: Object.freeze({}),
    session,
    inbox,
    /** A stub has no scope: reading its context throws (a parent create under it then fails). */
    get ctx(): Context { return refuse() },
    status: 'idle' as const,
    send: refuse,
    followup: refuse,
    steer: refuse,
    inject: refuse,
    queue: refuse,
    cancel: refuse,
    whenIdle: () => Promise.resolve(),
    runMaintenance: refuse,
  })
}
