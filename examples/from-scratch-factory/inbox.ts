/**
 * The inbox (§6): two pending lists projected from the agent's durable `agent/inbox/spliced`
 * events. Every change is written to the session first and applied to memory second, from the
 * logged copy, so the session log alone can rebuild the inbox (§6.3, §6.5).
 * @module
 */
import { ERRORS } from 'dsh-lifecycle-kit'
import type { Inbox, InboxSplice, InboxTarget, MessageId, Session, UserMessage } from 'dsh-lifecycle-kit'

/** Live notifications, fired after a change is committed (§6.3); the agent turns them into events. */
export interface InboxListener {
  inserted(message: UserMessage): void
  discarded(message: UserMessage): void
  claimed(message: UserMessage, turn: number): void
}

/** What a splice is for: an ordinary edit (`outcome: 'canceled'` when it removes) or a claim (§6.2). */
type Purpose = 'edit' | 'claim'

const TARGETS: readonly InboxTarget[] = ['next-turn', 'next-step']

/** Array-style coordinates made safe (§6.2): truncate, NaN → 0, negative start from the end, clamp. */
function normalize(length: number, start: number, deleteCount: number): { start: number; count: number } {
  let s = Math.trunc(Number(start)) || 0
  if (s < 0) s = Math.max(0, length + s)
  s = Math.min(s, length)
  const d = Math.trunc(Number(deleteCount)) || 0
  return { start: s, count: Math.min(Math.max(d, 0), length - s) }
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0
}

/** What a pending list can hold (§6.1): an object keyed by a string `MessageId`. */
function isMessage(value: unknown): value is UserMessage {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
}

export class SplicedInbox implements Inbox {
  readonly #lists: Record<InboxTarget, UserMessage[]> = { 'next-turn': [], 'next-step': [] }

  /** Replays the session's splices (§6.5); throws `invalid persisted inbox splice at session seq <n>`. */
  constructor(private readonly session: Session, private readonly listener: InboxListener) {
    const from = this.replayFrom(session)
    for (const event of session.events) {
      if (event.type !== 'agent/inbox/spliced' || event.seq < from) continue
      try {
        this.replay(event.data as unknown as InboxSplice)
      } catch (error) {
        throw new Error(ERRORS.invalidSplice(event.seq), { cause: error })
      }
    }
  }

  get nextTurn(): readonly UserMessage[] { return [...this.#lists['next-turn']] }
  get nextStep(): readonly UserMessage[] { return [...this.#lists['next-step']] }
  get hasPending(): boolean { return this.#lists['next-turn'].length > 0 || this.#lists['next-step'].length > 0 }

  append(target: InboxTarget, message: UserMessage): void {
    this.#commit(target, this.#list(target).length, 0, [message], 'edit')
  }

  prepend(target: InboxTarget, message: UserMessage): void {
    this.#commit(target, 0, 0, [message], 'edit')
  }

  replace(id: MessageId, message: UserMessage): boolean {
    const at = this.#find(id)
    if (at) this.#commit(at.target, at.index, 1, [message], 'edit')
    return at !== undefined
  }

  remove(id: MessageId): boolean {
    const at = this.#find(id)
    if (at) this.#commit(at.target, at.index, 1, [], 'edit')
    return at !== undefined
  }

  /** Next-step first, then next-turn; an empty list writes nothing (§6.4). */
  clear(): void {
    for (const target of ['next-step', 'next-turn'] as const) {
      const length = this.#lists[target].length
      if (length > 0) this.#commit(target, 0, length, [], 'edit')
    }
  }

  splice(target: InboxTarget, start: number, deleteCount: number, inserted: readonly UserMessage[]): UserMessage[] {
    return this.#commit(target, start, deleteCount, inserted, 'edit')
  }

  /**
   * The driver's claim (§6.4): every next-step item, then, at a turn's first step, the first
   * next-turn item; two pure deletions, then one `claimed` per message in batch order.
   */
  claim(target: InboxTarget, turn: number): UserMessage[] {
    const batch = this.#commit('next-step', 0, this.#lists['next-step'].length, [], 'claim')
    if (target === 'next-turn') batch.push(...this.#commit('next-turn', 0, 1, [], 'claim'))
    for (const message of batch) this.listener.claimed(message, turn)
    return batch
  }

  #list(target: InboxTarget): UserMessage[] {
    if (!TARGETS.includes(target)) throw new TypeError(`unknown inbox target ${JSON.stringify(target)}`)
    return this.#lists[target]
  }

  #find(id: MessageId): { target: InboxTarget; index: number } | undefined {
    for (const target of TARGETS) { // next-turn is searched first (§6.4 replace)
      const index = this.#lists[target].findIndex((m) => m.id === id)
      if (index >= 0) return { target, index }
    }
    return undefined
  }

  /**
   * One validation for live edits (after normalizing) and replay (§6.3, §6.5), so a change the
   * inbox accepts is one its replay accepts too: a known target, a range inside the list, an
   * array of messages, and ids unique across both lists once the splice is applied (§6.1).
   */
  #validate(target: InboxTarget, start: number, count: number, inserted: readonly UserMessage[]): void {
    const list = this.#list(target)
    if (!isCount(start) || !isCount(count)) throw new RangeError('start and removedCount must be non-negative safe integers')
    if (start + count > list.length) throw new RangeError(`splice [${start}, +${count}) exceeds the list's length ${list.length}`)
    if (!Array.isArray(inserted)) throw new TypeError('inserted is not an array')
    for (let i = 0; i < inserted.length; i++) { // holes too: the log would write one as null
      if (!isMessage(inserted[i])) throw new TypeError(`inserted item ${i} is not a message`)
    }
    const ids = new Set<unknown>()
    for (const t of TARGETS) {
      this.#lists[t].forEach((m, i) => { if (t !== target || i < start || i >= start + count) ids.add(m.id) })
    }
    for (const m of inserted) {
      if (ids.has(m.id)) throw new Error(ERRORS.alreadyPending(String(m.id)))
      ids.add(m.id)
    }
  }

  /** §6.3: normalize → validate → append (the commit point) → apply the logged copy → notify. */
  #commit(target: InboxTarget, rawStart: number, rawCount: number, inserted: readonly UserMessage[], purpose: Purpose): UserMessage[] {
    const list = this.#list(target)
    const { start, count } = normalize(list.length, rawStart, rawCount)
    this.#validate(target, start, count, inserted)
    if (count === 0 && inserted.length === 0) return [] // nothing changes: no event (§6.2)
    const splice: InboxSplice = { target, start, ...(count > 0 ? { removedCount: count } : {}), inserted: [...inserted] }
    if (purpose === 'edit' && count > 0) splice.outcome = 'canceled'
    // Throws (non-JSON message, reentrant append) before anything changed.
    const event = this.session.append('agent/inbox/spliced', splice)
    const logged = (event.data as unknown as InboxSplice).inserted
    const removed = list.splice(start, count, ...logged)
    if (purpose === 'edit') this.notify(removed, logged)
    return removed
  }

  /** §6.3 live notifications of an ordinary edit: every `discarded` first, then every `inserted`. */
  protected notify(removed: readonly UserMessage[], inserted: readonly UserMessage[]): void {
    for (const m of removed) this.listener.discarded(m)
    for (const m of inserted) this.listener.inserted(m)
  }

  /** §6.5: the first seq replay applies; a fork's prefix (before `seedLength`) belongs to its parent (§9 54). */
  protected replayFrom(session: Session): number {
    return session.header.seedLength ?? 0
  }

  /** One persisted splice, validated as live edits are: replay never repairs (§6.5). */
  protected replay(splice: InboxSplice): void {
    if (typeof splice !== 'object' || splice === null) throw new TypeError('the payload is not an object')
    const count = splice.removedCount ?? 0
    this.#validate(splice.target, splice.start, count, splice.inserted)
    this.#lists[splice.target].splice(splice.start, count, ...splice.inserted)
  }
}
