import { ERRORS, SESSION_FORMAT_VERSION } from './contract.js'
import type { DerivedMessage, JsonValue, Session, SessionEvent, SessionHeader, SessionId, SessionMeta } from './contract.js'
import { deepFreeze, NotLosslessJsonError, snapshotJson } from './lossless-json.js'

/** How a store publishes one session's appends; installed by `SessionStore.enter`. */
export interface SessionAttachment {
  /** The store this session is attached to (a session can be attached to one store at a time). */
  readonly store: object
  /** Resolve the `session/event` observers now (before the push, §1.2 rule 4). */
  resolveObservers(): (session: Session, event: SessionEvent) => void
  /** Called after each publication finished (a detach requested meanwhile runs now). */
  published(): void
}

const ENVELOPE_KEYS = new Set(['type', 'seq', 'time', 'data', 'surfaceOp', 'sourceEventSeqs', 'ignorable'])

function isNonNegativeSafeInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
}

/** Build and validate a header (§1.2). `createdAt` defaults to `now()`. */
export function buildHeader(id: SessionId, meta: SessionMeta | undefined, now: () => number, restored?: SessionHeader): SessionHeader {
  const source: Record<string, unknown> = restored ? { ...restored } : { ...meta, version: SESSION_FORMAT_VERSION, id, createdAt: now() }
  if (source.version !== SESSION_FORMAT_VERSION) throw new Error(`session header version must be ${SESSION_FORMAT_VERSION}, got ${String(source.version)}`)
  if (source.id !== id) throw new Error(`session header id "${String(source.id)}" does not match session id "${id}"`)
  if (!isNonNegativeSafeInteger(source.createdAt)) throw new Error('session header createdAt must be a non-negative safe integer')
  if (source.cwd !== undefined && (typeof source.cwd !== 'string' || !source.cwd.startsWith('/'))) throw new Error(ERRORS.cwdNotAbsolute(source.cwd))
  if (source.parentSession !== undefined && typeof source.parentSession !== 'string') throw new Error('session header parentSession must be a string')
  for (const key of ['seedLength', 'delegationDepth'] as const) {
    if (source[key] !== undefined && !isNonNegativeSafeInteger(source[key])) throw new Error(`session header ${key} must be a non-negative safe integer`)
  }
  if (source.origin !== undefined && source.origin !== 'subagent') throw new Error(`session header origin must be "subagent", got "${String(source.origin)}"`)
  if (source.agentPreset !== undefined && typeof source.agentPreset !== 'string') throw new Error('session header agentPreset must be a string')
  const header: Record<string, unknown> = {}
  for (const key of ['version', 'id', 'createdAt', 'cwd', 'parentSession', 'seedLength', 'origin', 'delegationDepth', 'agentPreset']) {
    if (source[key] !== undefined) header[key] = source[key]
  }
  return deepFreeze(header) as unknown as SessionHeader
}

/** Validate and snapshot a seed (§1.2 "Construction with a seed"). */
export function snapshotSeed(seed: readonly unknown[]): SessionEvent[] {
  if (!Array.isArray(seed)) throw new TypeError('session seed must be an array of events')
  return seed.map((raw, index) => {
    let event: Record<string, JsonValue>
    try {
      event = snapshotJson(raw) as Record<string, JsonValue>
    } catch (error) {
      throw new Error(ERRORS.seedNotJson(index), { cause: error })
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event) || typeof event.type !== 'string') {
      throw new Error(ERRORS.seedNotJson(index))
    }
    for (const key of Object.keys(event)) {
      if (!ENVELOPE_KEYS.has(key)) throw new Error(`seed event at index ${index} has unexpected key "${key}"`)
    }
    if (event.seq !== index) throw new Error(ERRORS.seedGap(index, event.seq))
    return event as unknown as SessionEvent
  })
}

/** The reference Session (§1.2). */
export class SessionImpl implements Session {
  readonly header: SessionHeader
  readonly firstLiveSeq: number
  readonly #log: SessionEvent[]
  #view: readonly SessionEvent[] | undefined
  #attachment: SessionAttachment | undefined
  #publishing = false

  /**
   * @param seed already validated events (see {@link snapshotSeed}); when supplied (even empty) and
   * not ending in `session/end-seed`, one is appended before any store attachment (never published).
   */
  constructor(header: SessionHeader, private readonly now: () => number, seed?: readonly SessionEvent[]) {
    this.header = header
    this.#log = seed ? [...seed] : []
    this.firstLiveSeq = this.#log.length
    if (seed && this.#log.at(-1)?.type !== 'session/end-seed') this.#push('session/end-seed', Object.freeze({}))
  }

  get id(): SessionId { return this.header.id }
  get seq(): number { return this.#log.length }
  get events(): readonly SessionEvent[] { return (this.#view ??= Object.freeze([...this.#log])) }

  /** The store attachment, if any. */
  get attachment(): SessionAttachment | undefined { return this.#attachment }
  /** True while an attached append is publishing. */
  get publishing(): boolean { return this.#publishing }

  /** Install append publication (called by the store's `enter`). */
  attach(attachment: SessionAttachment): void {
    if (this.#attachment) throw new Error(ERRORS.sessionAttached(this.id))
    this.#attachment = attachment
  }

  /** Unhook append publication; later appends still work but publish nothing. */
  unhook(attachment: SessionAttachment): void {
    if (this.#attachment === attachment) this.#attachment = undefined
  }

  append(type: string, data: unknown): SessionEvent {
    if (this.#publishing) throw new Error(ERRORS.appendReentry)
    if (typeof type !== 'string' || type.length === 0) throw new TypeError('session event type must be a non-empty string')
    let snapshot: JsonValue
    try {
      snapshot = snapshotJson(data)
    } catch (error) {
      if (error instanceof NotLosslessJsonError) throw new TypeError(ERRORS.nonJson(type), { cause: error })
      throw error
    }
    const attachment = this.#attachment
    if (!attachment) return this.#push(type, snapshot)
    const deliver = attachment.resolveObservers()
    const event = this.#push(type, snapshot)
    this.#publishing = true
    try {
      deliver(this, event)
    } finally {
      this.#publishing = false
      attachment.published()
    }
    return event
  }

  deriveMessages(): DerivedMessage[] {
    const out: DerivedMessage[] = []
    for (const event of this.#log) {
      const data = event.data as Record<string, any> | null
      if (event.type === 'user/message' && data) {
        out.push({ role: 'user', text: textOf(data.content) })
      } else if (event.type === 'assistant/message' && data) {
        out.push({ role: 'assistant', text: String(data.text ?? '') })
      }
    }
    return out
  }

  #push(type: string, data: JsonValue): SessionEvent {
    const event: SessionEvent = Object.freeze({ type, seq: this.#log.length, time: this.now(), data })
    this.#log.push(event)
    this.#view = undefined
    return event
  }
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return ''
  return content.map((block) => (block && typeof block.text === 'string' ? block.text : '')).join('')
}
