/**
 * f10 — every step's claim takes a next-turn item, not only a turn's first step.
 *
 * Breaks: the inbox's `claim` ignores its target and always claims as for a turn's first step: all
 * next-step items plus the first next-turn item. In a turn of several steps (a tool follow-up, or
 * steering that makes another step), a followup sent meanwhile is pulled into the running turn as a
 * step instead of opening its own turn.
 * Violates: AGENT-INBOX-TEST 126 (the first step claims next-step items then one next-turn item; later
 * steps only next-step items; §6.4 claim batching rule; also X-INPUT 166).
 * Realistic: the driver passes the target on every step; an inbox that "always gives the model what
 * is waiting" looks friendlier, and single-step turns, the common case, behave the same.
 * @module
 */
import type { InboxTarget, UserMessage } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { SplicedInbox } from '../../../examples/from-scratch-factory/inbox.js'
import { mutant, scratchFactory } from './scratch.js'

class ClaimIgnoresTarget extends SplicedInbox {
  override claim(_target: InboxTarget, turn: number): UserMessage[] {
    return super.claim('next-turn', turn) // BUG: later steps take a next-turn item too
  }
}

export default factoryAdapter(mutant('f10'), (ctx) => scratchFactory(ctx, { inbox: ClaimIgnoresTarget }))
