import type {
  Agent, AgentHandle, Context, CreateAgentOptions, EventName, Fiber, SessionId, SessionPersistence, SessionPreparation, UserMessage,
} from '../contract.js'
import { EVENT_NAMES } from '../contract.js'
import { createUserMessage } from '../messages.js'
import { InMemoryPersistence } from '../persistence.js'
import type { PersistedSession } from '../persistence.js'
import { createRoot } from '../root.js'
import type { Root } from '../root.js'
import { ScriptedModel, script } from '../scripted-model.js'
import type { ScriptEntry } from '../scripted-model.js'

import type { InstallFactory } from '../process.js'

export type { InstallFactory } from '../process.js'

/** A promise held behind a gate: tests open it explicitly (never sleeps). */
export interface Gate<T = void> {
  readonly promise: Promise<T>
  open(value: T): void
  fail(error: unknown): void
  readonly opened: boolean
}

/** Create a gate. */
export function gate<T = void>(): Gate<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  let opened = false
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej })
  promise.catch(() => undefined)
  return {
    promise,
    open: (value: T) => { opened = true; resolve(value) },
    fail: (error: unknown) => { opened = true; reject(error) },
    get opened() { return opened },
  }
}

/** Let every pending microtask and one macrotask run (to observe "nothing happened"). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** One recorded lifecycle event, as observed by an untagged listener on the root context. */
export interface Observed {
  readonly name: EventName
  /** Session/agent id the event is about. */
  readonly id: string
  /** Extra detail: status, source, event type for `session/event`, message id for inbox events. */
  readonly detail: string
  /** Registry snapshot at dispatch time. */
  readonly agentLive: boolean
  readonly sessionLive: boolean
}

/** Options of {@link makeHarness}. */
export interface HarnessOptions {
  /** Model script; by default every call answers `ok`. */
  script?: ScriptEntry[]
  /** Persisted sessions surviving from an earlier process (see `restart`). */
  disk?: Map<SessionId, PersistedSession>
  /** Leave persistence unconfigured. */
  noPersistence?: boolean
  /**
   * Called for each persistence load before the record is read, with the load's abort signal (the
   * persistence honours the signal after it returns): make a load slow, failing or hung.
   */
  beforeLoad?: (id: SessionId, signal: AbortSignal | undefined) => Promise<void>
  /**
   * Called after a load built its preparation and before it is handed over, ignoring the signal:
   * models a provider whose preparation arrives after the caller gave up (it must then be released).
   */
  afterLoad?: (id: SessionId) => Promise<void>
  /** Observer of scope minting (synchronous, inside `createScope`): land an abort or unload there. */
  scopeCreated?: (fiber: Fiber, key: unknown) => void
}

/** One preparation the persistence handed out, and whether its consumer released it. */
export interface PreparationRecord {
  readonly id: SessionId
  released: boolean
}

/**
 * A fresh process for one directed case: root context, store, registry, persistence, scripted
 * model and the factory under test, plus recorders. Cases drive and observe only through the
 * public contract (`ctx.agents`, `ctx.sessions`, events, handles).
 */
export interface Harness {
  readonly root: Root
  readonly ctx: Context
  readonly model: ScriptedModel
  readonly persistence: InMemoryPersistence | undefined
  readonly disk: Map<SessionId, PersistedSession>
  /** Every lifecycle event in dispatch order (root-level untagged listeners). */
  readonly observed: Observed[]
  /** Warnings reported through the root's `warn`. */
  readonly warnings: { message: string; error: unknown }[]
  /** Every preparation the persistence handed out (in load order), with its release state. */
  readonly preparations: PreparationRecord[]
  /** Unload the factory plugin (the factory owner). */
  unloadFactory(): Promise<void>
  /** A child plugin context to use as the caller (owner fiber) of creates. */
  owner(name?: string): { ctx: Context; unload(): Promise<void> }
  /** A deterministic user message. */
  msg(text: string, source?: UserMessage['source']): UserMessage
  /** `ctx.agents.create` with defaults. */
  create(sessionId: SessionId, options?: Partial<CreateAgentOptions>, ctx?: Context): Promise<AgentHandle>
  /** Names of observed events for one id, optionally filtered. */
  names(id: string, filter?: (o: Observed) => boolean): string[]
  /** The status trace (`agent/status` values) of one agent. */
  statuses(id: string): string[]
  /** Event types appended to a session. */
  types(agent: Agent): string[]
  /** Shut this process down (unload the root). */
  shutdown(): Promise<void>
  /** Shut down, then build a new process over the same persisted disk with the same factory. */
  restart(options?: HarnessOptions): Promise<Harness>
  /**
   * Crash: drop this process without unloading it (no teardown runs, so nothing graceful reaches
   * the disk), then build a new process over the same persisted disk with the same factory.
   */
  crash(options?: HarnessOptions): Harness
}

/** Build a fresh harness with `install` as the factory under test. */
export function makeHarness(install: InstallFactory, options: HarnessOptions = {}): Harness {
  let ids = 0
  let clock = 1_000
  const warnings: { message: string; error: unknown }[] = []
  const model = new ScriptedModel(options.script ?? [], script.text('ok'))
  const disk = options.disk ?? new Map<SessionId, PersistedSession>()
  let persistence: InMemoryPersistence | undefined
  const preparations: PreparationRecord[] = []
  const buildPersistence = (ctx: Context): SessionPersistence => {
    const inner = (persistence = new InMemoryPersistence(ctx, disk, options.beforeLoad ? { beforeLoad: options.beforeLoad } : {}))
    return {
      async prepare(id, signal): Promise<SessionPreparation> {
        const preparation = await inner.prepare(id, signal)
        const record: PreparationRecord = { id, released: false }
        preparations.push(record)
        if (options.afterLoad) await options.afterLoad(id)
        return {
          session: preparation.session,
          [Symbol.dispose]() { record.released = true; preparation[Symbol.dispose]() },
        }
      },
    }
  }
  const root = createRoot({
    now: () => clock++,
    newId: (kind) => `${kind}-${++ids}`,
    warn: (message, error) => { warnings.push({ message, error }) },
    model,
    ...(options.noPersistence ? {} : { persistence: buildPersistence }),
    ...(options.scopeCreated ? { scopeCreated: options.scopeCreated } : {}),
  })
  const observed: Observed[] = []
  const record = (name: EventName, id: string, detail: string): void => {
    observed.push({ name, id, detail, agentLive: root.ctx.agents.get(id) !== undefined, sessionLive: root.ctx.sessions.get(id) !== undefined })
  }
  for (const name of EVENT_NAMES) {
    if (name === 'agent/pre-step') continue
    root.ctx.on(name, ((a: any, b: any) => {
      if (name.startsWith('session/')) record(name, a.id, name === 'session/event' ? b.type : '')
      else record(name, a.agent.id, String(a.status ?? a.source ?? a.message?.id ?? ''))
    }) as never)
  }
  const factory = install(root.ctx)
  let owners = 0
  const harness: Harness = {
    root,
    ctx: root.ctx,
    model,
    persistence,
    disk,
    observed,
    warnings,
    preparations,
    unloadFactory: () => factory.unload(),
    owner: (name = `owner-${++owners}`) => {
      const scope = root.ctx.createScope(undefined, name)
      return { ctx: scope.ctx, unload: () => scope.dispose() }
    },
    msg: (text, source) => createUserMessage({ content: text, ...(source ? { source } : {}) }, root.services.newId),
    create: (sessionId, opts = {}, ctx = root.ctx) => ctx.agents.create({ sessionId, ...opts }),
    names: (id, filter) => observed.filter((o) => o.id === id && (!filter || filter(o))).map((o) => (o.name === 'session/event' ? `session/event:${o.detail}` : o.name)),
    statuses: (id) => observed.filter((o) => o.id === id && o.name === 'agent/status').map((o) => o.detail),
    types: (agent) => agent.session.events.map((e) => e.type),
    shutdown: () => root.shutdown(),
    restart: async (next = {}) => {
      await root.shutdown()
      return makeHarness(install, { ...options, ...next, disk })
    },
    crash: (next = {}) => {
      root.abandon()
      return makeHarness(install, { ...options, ...next, disk })
    },
  }
  return harness
}

/** A directed conformance case: a §9 property run against any factory. */
export interface DirectedCase {
  /** The clause group, e.g. `AGENT-ATOMIC-TEST`. */
  readonly group: string
  /** The §9 property number. */
  readonly clause: number
  /** The property in a few words. */
  readonly title: string
  /** Runs the case; throws (node:assert) on violation. */
  run(install: InstallFactory): Promise<void>
}

/** The test title of a case: `AGENT-ATOMIC-TEST 64: exactly one same-id create wins`. */
export function caseTitle(c: DirectedCase): string {
  return `${c.group} ${c.clause}: ${c.title}`
}
