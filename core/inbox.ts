import { ERRORS } from './contract.js'
import type { Inbox, InboxSplice, InboxTarget, MessageId, Session, UserMessage } from './contract.js'

/** Live notifications an inbox fires after each committed mutation (§6.3). */
export interface InboxNotifier {
  inserted(message: UserMessage): void
  discarded(message: UserMessage): void
  claimed(message: UserMessage, turn: number): void
}

const TARGETS: readonly InboxTarget[] = ['next-turn', 'next-step']

function isNonNegativeSafeInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
}

/** What the inbox can hold (§1.1, §6.1): an object keyed by a string `MessageId`. */
function isMessage(v: unknown): v is UserMessage {
  return typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string'
}

/** Normalize splice coordinates (§6.2): truncate, NaN → 0, negative start counts from the end, clamp. */
export function normalizeSplice(length: number, start: number, deleteCount: number): { start: number; removed: number } {
  let s = Math.trunc(Number(start))
  if (Number.isNaN(s)) s = 0
  if (s < 0) s = Math.max(0, length + s)
  s = Math.min(s, length)
  let d = Math.trunc(Number(deleteCount))
  if (Number.isNaN(d)) d = 0
  d = Math.min(Math.max(d, 0), length - s)
  return { start: s, removed: d }
}

/**
 * The live projection of an agent's durable `agent/inbox/spliced` events (§6). Every mutation is
 * appended to the session first and applied to memory from the logged snapshot, so a synchronous
 * `session/event` observer sees the pre-splice projection (§6.3).
 */
export class InboxImpl implements Inbox {
  readonly #lists: Record<InboxTarget, UserMessage[]> = { 'next-turn': [], 'next-step': [] }

  constructor(protected readonly session: Session, protected readonly notify: InboxNotifier) {
    this.#replay()
  }

  get nextTurn(): readonly UserMessage[] { return [...this.#lists['next-turn']] }
  get nextStep(): readonly UserMessage[] { return [...this.#lists['next-step']] }
  /** The live lists themselves (not copies), for variants that replace a mutation step. */
  protected get lists(): Record<InboxTarget, UserMessage[]> { return this.#lists }

  get hasPending(): boolean { return this.#lists['next-turn'].length > 0 || this.#lists['next-step'].length > 0 }

  append(target: InboxTarget, message: UserMessage): void {
    this.commit(target, this.list(target).length, 0, [message], false)
  }

  prepend(target: InboxTarget, message: UserMessage): void {
    this.commit(target, 0, 0, [message], false)
  }

  replace(id: MessageId, message: UserMessage): boolean {
    const found = this.#locate(id)
    if (!found) return false
    this.commit(found.target, found.index, 1, [message], true)
    return true
  }

  remove(id: MessageId): boolean {
    const found = this.#locate(id)
    if (!found) return false
    this.commit(found.target, found.index, 1, [], true)
    return true
  }

  clear(): void {
    for (const target of ['next-step', 'next-turn'] as const) {
      const length = this.#lists[target].length
      if (length > 0) this.commit(target, 0, length, [], true)
    }
  }

  splice(target: InboxTarget, start: number, deleteCount: number, inserted: readonly UserMessage[]): UserMessage[] {
    return this.commit(target, start, deleteCount, inserted, true)
  }

  /**
   * Loop-internal claim (§6.4): a pure deletion of every next-step item, then (for a turn's first
   * step) of the first next-turn item; `claimed` fires after both splices, in claimed order.
   */
  claim(target: InboxTarget, turn: number): UserMessage[] {
    const batch: UserMessage[] = []
    const steps = this.#lists['next-step'].length
    if (steps > 0) batch.push(...this.commit('next-step', 0, steps, [], false, true))
    if (target === 'next-turn' && this.#lists['next-turn'].length > 0) batch.push(...this.commit('next-turn', 0, 1, [], false, true))
    for (const message of batch) this.notify.claimed(message, turn)
    return batch
  }

  protected list(target: InboxTarget): UserMessage[] {
    // includes, not a lookup: `toString` or `__proto__` would find an Object.prototype member.
    if (!TARGETS.includes(target)) throw new TypeError(`unknown inbox target ${JSON.stringify(target)}`)
    return this.#lists[target]
  }

  #locate(id: MessageId): { target: InboxTarget; index: number } | undefined {
    for (const target of TARGETS) {
      const index = this.#lists[target].findIndex((m) => m.id === id)
      if (index >= 0) return { target, index }
    }
    return undefined
  }

  /** Throws `already pending` if applying the splice would duplicate an id across both lists. */
  protected checkUnique(target: InboxTarget, start: number, removed: number, inserted: readonly { id: unknown }[]): void {
    const seen = new Set<unknown>()
    for (const t of TARGETS) {
      this.#lists[t].forEach((m, i) => { if (!(t === target && i >= start && i < start + removed)) seen.add(m.id) })
    }
    for (const m of inserted) {
      if (seen.has(m.id)) throw new Error(ERRORS.alreadyPending(String(m.id)))
      seen.add(m.id)
    }
  }

  /**
   * The one validation of a splice against the current projection, live (after normalizing, §6.3)
   * and on replay (§6.5), so the live inbox never accepts a splice its own replay would refuse:
   * a known target, coordinates inside the list, an array of messages, ids unique once applied.
   */
  protected validate(target: InboxTarget, start: number, removed: number, inserted: readonly UserMessage[]): void {
    const list = this.list(target)
    if (!isNonNegativeSafeInteger(start)) throw new RangeError(`start ${String(start)} is not a non-negative safe integer`)
    if (!isNonNegativeSafeInteger(removed)) throw new RangeError(`removedCount ${String(removed)} is not a non-negative safe integer`)
    if (start > list.length) throw new RangeError(`start ${start} exceeds length ${list.length}`)
    if (start + removed > list.length) throw new RangeError(`start + removedCount exceeds length ${list.length}`)
    if (!Array.isArray(inserted)) throw new TypeError('inserted is not an array')
    // Every index, holes included: the log would write a hole as null.
    for (let i = 0; i < inserted.length; i++) {
      if (!isMessage(inserted[i])) throw new TypeError(`inserted item ${i} is not a message (an object with a string id)`)
    }
    this.checkUnique(target, start, removed, inserted)
  }

  protected commit(target: InboxTarget, rawStart: number, rawDelete: number, inserted: readonly UserMessage[], ordinary: boolean, silent = false): UserMessage[] {
    const list = this.list(target)
    const { start, removed } = normalizeSplice(list.length, rawStart, rawDelete)
    this.validate(target, start, removed, inserted)
    if (removed === 0 && inserted.length === 0) return []
    // Key order is part of the durable format (§6.2): target, start, removedCount?, inserted, outcome?.
    const payload: Record<string, unknown> = { target, start }
    if (removed > 0) payload.removedCount = removed
    payload.inserted = inserted
    if (ordinary && removed > 0) payload.outcome = 'canceled'
    const event = this.session.append('agent/inbox/spliced', payload)
    const logged = (event.data as unknown as InboxSplice).inserted
    const out = list.splice(start, removed, ...logged)
    if (!silent) {
      if (ordinary) for (const m of out) this.notify.discarded(m)
      for (const m of logged) this.notify.inserted(m)
    }
    return out
  }

  #replay(): void {
    const from = this.session.header.seedLength ?? 0
    for (const event of this.session.events) {
      if (event.seq < from || event.type !== 'agent/inbox/spliced') continue
      try {
        this.#applyPersisted(event.data as unknown as InboxSplice)
      } catch (error) {
        throw new Error(ERRORS.invalidSplice(event.seq), { cause: error })
      }
    }
  }

  #applyPersisted(splice: InboxSplice): void {
    if (typeof splice !== 'object' || splice === null) throw new TypeError('splice payload is not an object')
    const removed = splice.removedCount ?? 0
    this.validate(splice.target, splice.start, removed, splice.inserted)
    this.#lists[splice.target].splice(splice.start, removed, ...splice.inserted)
  }
}
