import { ERRORS } from './contract.js'
import type { Context, PrepareSessionOptions, Session, SessionId, SessionStore } from './contract.js'
import type { EventBus } from './scope/events.js'
import { buildHeader, SessionImpl, snapshotSeed } from './session.js'
import type { SessionAttachment } from './session.js'

interface Entry {
  readonly session: SessionImpl
  readonly carrier: unknown
  announced: boolean
  announcing: boolean
  detachRequested: boolean
  removed: boolean
  attachment: SessionAttachment
}

/**
 * The store of live sessions (§1.3). One instance per root; `bind(ctx)` gives the `ctx.sessions`
 * view whose calls treat `ctx` as the caller (routing carrier, owning fiber).
 */
export class SessionStoreImpl {
  readonly #entries = new Map<SessionId, Entry>()
  #minted = 0

  constructor(private readonly bus: EventBus, private readonly now: () => number) {}

  /** The `ctx.sessions` view bound to a caller context. */
  bind(ctx: Context): SessionStore {
    return {
      prepare: (id, options) => this.prepare(id, options),
      enter: (session) => this.enter(session, ctx.scopeKey),
      announce: (session) => this.announce(session),
      create: (id, options) => this.create(ctx, id, options),
      get: (id) => this.get(id),
      list: () => this.list(),
      flush: (session) => this.flush(session),
    }
  }

  prepare(id?: SessionId, options: PrepareSessionOptions = {}): SessionImpl {
    if (id === undefined) {
      do id = `session-${++this.#minted}`
      while (this.#entries.has(id))
    }
    if (typeof id !== 'string' || id.length === 0) throw new TypeError(`session id must be a non-empty string, got ${JSON.stringify(id)}`)
    if (this.#entries.has(id)) throw new Error(ERRORS.sessionExists(id))
    const header = buildHeader(id, options.meta, this.now, options.header)
    const seed = options.seed === undefined ? undefined : snapshotSeed(options.seed)
    return new SessionImpl(header, this.now, seed)
  }

  enter(session: Session, carrier: unknown): () => void {
    if (!(session instanceof SessionImpl)) throw new TypeError('sessions.enter expects a session prepared by this store kind')
    if (session.attachment) throw new Error(ERRORS.sessionAttached(session.id))
    if (this.#entries.has(session.id)) throw new Error(ERRORS.sessionExists(session.id))
    const entry: Entry = {
      session, carrier, announced: false, announcing: false, detachRequested: false, removed: false,
      attachment: {
        store: this,
        resolveObservers: () => this.bus.prepareContained('session/event', carrier),
        published: () => { if (entry.detachRequested && !entry.announcing) this.#remove(entry) },
      },
    }
    session.attach(entry.attachment)
    this.#entries.set(session.id, entry)
    let called = false
    return () => {
      if (called) return
      called = true
      if (entry.announcing || session.publishing) {
        entry.detachRequested = true
        return
      }
      this.#remove(entry)
    }
  }

  announce(session: Session): void {
    const entry = this.#entries.get(session.id)
    if (!entry || entry.session !== session) throw new Error(ERRORS.sessionNotLive(session.id))
    if (entry.announced || entry.announcing) throw new Error(ERRORS.sessionAnnounced(session.id))
    entry.announced = entry.announcing = true
    try {
      this.bus.veto('session/created', entry.carrier, session)
    } finally {
      entry.announcing = false
      if (entry.detachRequested && !entry.session.publishing) this.#remove(entry)
    }
  }

  create(ctx: Context, id?: SessionId, options?: PrepareSessionOptions): Session {
    const session = this.prepare(id, options)
    const carrier = ctx.scopeKey
    const store = this
    ctx.effect(function* () {
      yield store.enter(session, carrier)
      store.announce(session)
    }, `session:${session.id}`)
    return session
  }

  get(id: SessionId): Session | undefined { return this.#entries.get(id)?.session }

  list(): Session[] { return [...this.#entries.values()].map((e) => e.session) }

  async flush(session: Session): Promise<boolean> {
    const entry = this.#entries.get(session.id)
    if (!entry || entry.session !== session) throw new Error(ERRORS.sessionNotLive(session.id))
    return this.bus.parallel('session/flush', entry.carrier, session)
  }

  /** Effective removal (§1.3 "Detach semantics"): exact entry only; paired `session/disposed` iff announced. */
  #remove(entry: Entry): void {
    if (entry.removed) return
    entry.removed = true
    entry.detachRequested = false
    if (this.#entries.get(entry.session.id) === entry) this.#entries.delete(entry.session.id)
    entry.session.unhook(entry.attachment)
    if (entry.announced) this.bus.contained('session/disposed', entry.carrier, entry.session)
  }
}
