import type { Context, Session, SessionEvent, SessionHeader, SessionId, SessionPersistence, SessionPreparation } from './contract.js'

/** One persisted session: its header and its durable events. */
export interface PersistedSession {
  header: SessionHeader
  events: SessionEvent[]
}

/** Options of {@link InMemoryPersistence}. */
export interface InMemoryPersistenceOptions {
  /**
   * Called for each load before the record is read; a simulator makes loads slow, failing or
   * hanging here. It receives the load's abort signal.
   */
  beforeLoad?: (id: SessionId, signal: AbortSignal | undefined) => Promise<void>
  /**
   * How to listen for `session/created` and `session/event` (global). Defaults to `ctx.on`, which
   * makes the listeners effects of `ctx`'s fiber: they stop when it unloads. A simulator keeping
   * the disk complete through a whole shutdown listens on the process instead.
   */
  subscribe?: (name: 'session/created' | 'session/event', listener: (...args: any[]) => void) => void
}

/**
 * In-memory persistence implementing `prepare(id, signal)` (§1.4). It records every session of the
 * store it is attached to through `session/created` and `session/event` (eager write-behind), into
 * a `disk` map that can outlive the root (a restart builds a new root over the same disk).
 */
export class InMemoryPersistence implements SessionPersistence {
  constructor(
    private readonly ctx: Context,
    readonly disk: Map<SessionId, PersistedSession> = new Map(),
    private readonly options: InMemoryPersistenceOptions = {},
  ) {
    const subscribe = options.subscribe ?? ((name, listener) => { ctx.on(name, listener as never, { global: true }) })
    subscribe('session/created', (session: Session) => {
      this.disk.set(session.id, { header: session.header, events: [...session.events] })
    })
    subscribe('session/event', (session: Session, event: SessionEvent) => {
      const record = this.disk.get(session.id)
      if (record && record.events.length === event.seq) record.events.push(event)
    })
  }

  /**
   * A record was read for a load, before the session is prepared from it: a variant may inspect or
   * repair it here (the reference does nothing; upstream backends balance an interrupted tail, but
   * never on the log of a session that is live).
   */
  protected loaded(_id: SessionId, _record: PersistedSession): void {}

  async prepare(id: SessionId, signal?: AbortSignal): Promise<SessionPreparation> {
    signal?.throwIfAborted()
    if (this.options.beforeLoad) await this.options.beforeLoad(id, signal)
    signal?.throwIfAborted()
    const record = this.disk.get(id)
    if (!record) throw new Error(`session "${id}" is not persisted`)
    this.loaded(id, record)
    const session = this.ctx.sessions.prepare(id, { header: record.header, seed: record.events, seedSource: 'persistence' })
    return { session, [Symbol.dispose]() { /* nothing held */ } }
  }
}
