/**
 * An in-memory `SessionPersistence` (ctx.sessionPersistence) over the kit's disk: a
 * `Map<SessionId, {header, events}>` that outlives the process, so a restart boots a new process
 * over the same map. Writes are captured by raw global hooks on the cordis root's event table (not
 * fiber effects), so the appends made while the process shuts down (the `turn/end` of a disposed
 * turn, the inbox clear) still reach the disk, as they would with a write-behind backend that
 * drains on shutdown.
 * @module
 */
import { SessionPersistence, SessionPersistenceRevision } from '@deepseek-ai/dsh-session-persistence'
import { interruptedTurnClosers, SessionPreparation } from '@deepseek-ai/dsh-session'

/**
 * Add a listener straight into cordis' hook table of `root`: global (it hears every scope),
 * prepended or appended, owned by no fiber (no unload removes it). Returns its remover.
 */
export function rawHook(root, name, callback, { prepend = true } = {}) {
  const hooks = (root.events._hooks[name] ??= [])
  const hook = { ctx: root, callback, global: true, prepend }
  if (prepend) hooks.unshift(hook)
  else hooks.push(hook)
  return () => {
    const i = hooks.indexOf(hook)
    if (i >= 0) hooks.splice(i, 1)
  }
}

/** The message the kit's checkers know for a resume of an id nobody persisted. */
const notPersisted = (id) => new Error(`session "${id}" is not persisted`)

/**
 * Persistence over the kit's disk. Config: `{ disk, beforeLoad?, afterLoad?, prepared?, root }` —
 * `root` is the bare cordis root whose hook table receives the write hooks; `afterLoad` and
 * `prepared` are the kit's `preparations` capability (a late preparation, and its release).
 */
export class MemoryPersistence extends SessionPersistence {
  static inject = ['sessions']
  supportsRawArtifacts = false

  constructor(ctx, config) {
    super(ctx)
    this.disk = config.disk
    this.beforeLoad = config.beforeLoad
    this.afterLoad = config.afterLoad
    this.prepared = config.prepared
    this.revision = 0
    this.removers = [
      rawHook(config.root, 'session/created', (session) => {
        this.disk.set(session.id, { header: session.header, events: [...session.events] })
        this.revision++
      }, { prepend: false }),
      rawHook(config.root, 'session/event', (session, event) => {
        const entry = this.disk.get(session.id)
        if (entry && entry.events.length === event.seq) {
          entry.events.push(event)
          this.revision++
        }
      }, { prepend: false }),
    ]
  }

  /** Stop writing (the process is abandoned). */
  detach() {
    for (const remove of this.removers.splice(0)) remove()
  }

  locate() { return undefined }
  async create() {}
  async append(id, events) {
    const entry = this.disk.get(id)
    if (!entry) throw notPersisted(id)
    entry.events.push(...events)
  }

  /** The base `prepare` loads, then `sessions.prepare(id, {seed, meta, seedSource:'persistence'})`. */
  async prepare(id, signal) {
    signal?.throwIfAborted()
    if (this.beforeLoad) await this.beforeLoad(id, signal)
    const preparation = await super.prepare(id, signal)
    if (!this.prepared && !this.afterLoad) return preparation
    // Report the hand-out and the release to the kit (capability `preparations`).
    const released = this.prepared?.(id)
    if (this.afterLoad) await this.afterLoad(id)
    return SessionPreparation.create(preparation.session, { release: () => { released?.(); preparation[Symbol.dispose]() } })
  }

  /** The persisted log, with an interrupted tail balanced (the `load` contract of the seam). */
  async load(id) {
    const entry = this.disk.get(id)
    if (!entry) throw notPersisted(id)
    // A live session's log is still being written: leave it alone (the store then rejects the
    // resume with `session "<id>" already exists`).
    if (this.ctx.sessions.get(id) === undefined) {
      let closers = []
      try {
        closers = interruptedTurnClosers(entry.events)
      } catch {
        // A log too malformed to balance: upstream's restore validation refuses it, naming the event.
      }
      if (closers.length > 0) entry.events.push(...closers)
    }
    return { meta: entry.header, events: [...entry.events] }
  }

  async inspect(id) { return this.load(id) }
  async readFrom(id, fromSeq) {
    const { meta, events } = await this.load(id)
    return { meta, events: events.slice(fromSeq) }
  }
  async list() { return [...this.disk.values()].map((e) => e.header) }
  async listSnapshots() {
    return [...this.disk.values()].map((e) => ({ header: e.header, revision: SessionPersistenceRevision(`mem:${this.revision}:${e.events.length}`) }))
  }
}
