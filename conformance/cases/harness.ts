/**
 * The directed cases' harness: one process booted through the process port (`ProcessFactory` of
 * `core/process.ts`) with recorders around it, so the same case runs on the kit's own process with
 * any factory and on any foreign runtime (its own registry, store and scope).
 * @module
 */
import type {
  Agent, AgentHandle, Context, CreateAgentOptions, EventName, Fiber, SessionId, UserMessage,
} from '../../core/contract.js'
import { EVENT_NAMES } from '../../core/contract.js'
import { createUserMessage } from '../../core/messages.js'
import type { PersistedSession } from '../../core/persistence.js'
import type { ProcessFactory, ProcessHandle, ProcessServices } from '../../core/process.js'
import { ScriptedModel, script } from '../../core/scripted-model.js'
import type { ScriptEntry } from '../../core/scripted-model.js'
import type { Supports } from '../adapters/adapter.js'
import type { Capability } from '../adapters/capabilities.js'

export { gate, settle } from '../../core/gates.js'
export type { Gate } from '../../core/gates.js'

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

/** What a directed case runs against: how to boot a process, and what that process can do. */
export interface CaseTarget {
  /** Boots one process of the runtime under test (a restart boots another over the same disk). */
  readonly process: ProcessFactory
  /** The adapter's manifest: optional behaviours and the capabilities of its process. */
  readonly supports: Supports
}

/**
 * A fresh process for one directed case, booted through the process port, plus recorders. Cases
 * drive and observe only through the public contract (`ctx.agents`, `ctx.sessions`, events,
 * handles) and the services the port supplies (model, disk, warnings, load hooks).
 */
export interface Harness {
  /** The process as the port returned it. */
  readonly process: ProcessHandle
  readonly ctx: Context
  readonly model: ScriptedModel
  readonly disk: Map<SessionId, PersistedSession>
  /** Every lifecycle event in dispatch order (observed globally, before any other listener); not `agent/pre-step` or `session/flush`. */
  readonly observed: Observed[]
  /** Warnings reported through the services' `warn` (capability `warnings`). */
  readonly warnings: { message: string; error: unknown }[]
  /**
   * Whether a contained failure was logged: a warning carries the thrown value as its error, or
   * (a runtime whose logger formats the failure as text) names its message.
   */
  logged(thrown: unknown): boolean
  /** Every preparation the persistence handed out (in load order), with its release state (capability `preparations`). */
  readonly preparations: PreparationRecord[]
  /** Unload the factory plugin (the factory owner). */
  unloadFactory(): Promise<void>
  /** A child plugin context to use as the caller (owner fiber) of creates. */
  owner(name?: string): { ctx: Context; unload(): Promise<void> }
  /** A deterministic user message. */
  msg(text: string, source?: UserMessage['source']): UserMessage
  /**
   * `ctx.agents.create` with defaults. A process's agents must reach the model without agent
   * options of the case's (a foreign process routes them itself, e.g. through `agent/request`).
   */
  create(sessionId: SessionId, options?: Partial<CreateAgentOptions>, ctx?: Context): Promise<AgentHandle>
  /** Names of observed events for one id, optionally filtered. */
  names(id: string, filter?: (o: Observed) => boolean): string[]
  /** The status trace (`agent/status` values) of one agent. */
  statuses(id: string): string[]
  /** Event types appended to a session. */
  types(agent: Agent): string[]
  /** Shut this process down (unload the root). */
  shutdown(): Promise<void>
  /** Shut down, then boot a new process over the same persisted disk. */
  restart(options?: HarnessOptions): Promise<Harness>
  /**
   * Crash: drop this process without unloading it (no teardown runs, so nothing graceful reaches
   * the disk), then boot a new process over the same persisted disk.
   */
  crash(options?: HarnessOptions): Promise<Harness>
}

const resolved = Promise.resolve()

/** Boot a fresh harness over the target's process. */
export async function makeHarness(target: CaseTarget, options: HarnessOptions = {}): Promise<Harness> {
  let ids = 0
  let clock = 1_000
  const warnings: { message: string; error: unknown }[] = []
  const model = new ScriptedModel(options.script ?? [], script.text('ok'))
  const disk = options.disk ?? new Map<SessionId, PersistedSession>()
  const preparations: PreparationRecord[] = []
  const newId = (kind: string): string => `${kind}-${++ids}`
  const services: ProcessServices = {
    now: () => clock++,
    newId,
    warn: (message, error) => { warnings.push({ message, error }) },
    checkpoint: () => resolved,
    model,
    disk,
    ...(options.beforeLoad ? { beforeLoad: options.beforeLoad } : {}),
    ...(options.afterLoad ? { afterLoad: options.afterLoad } : {}),
    ...(options.scopeCreated ? { scopeCreated: options.scopeCreated } : {}),
    ...(options.noPersistence ? { persistence: false } : {}),
    prepared: (id) => {
      const record: PreparationRecord = { id, released: false }
      preparations.push(record)
      return () => { record.released = true }
    },
  }
  const proc = await target.process(services)
  const ctx = proc.ctx
  const observed: Observed[] = []
  const record = (name: EventName, id: string, detail: string): void => {
    observed.push({ name, id, detail, agentLive: ctx.agents.get(id) !== undefined, sessionLive: ctx.sessions.get(id) !== undefined })
  }
  for (const name of EVENT_NAMES) {
    // Not lifecycle events (§1.9): the pre-step waterfall, and session/flush, whose result says
    // whether any listener participated (a recorder of the harness's own would always participate).
    if (name === 'agent/pre-step' || name === 'session/flush') continue
    proc.observe(name, ((a: any, b: any) => {
      if (name.startsWith('session/')) record(name, a.id, name === 'session/event' ? b.type : '')
      else record(name, a.agent.id, String(a.status ?? a.source ?? a.message?.id ?? ''))
    }) as never)
  }
  let owners = 0
  const boot = (next: HarnessOptions): Promise<Harness> => makeHarness(target, { ...options, ...next, disk })
  const harness: Harness = {
    process: proc,
    ctx,
    model,
    disk,
    observed,
    warnings,
    logged: (thrown) => warnings.some((w) => w.error === thrown || (thrown instanceof Error && thrown.message.length > 0 && w.message.includes(thrown.message))),
    preparations,
    unloadFactory: () => proc.unloadFactory(),
    owner: (name = `owner-${++owners}`) => proc.owner(name),
    msg: (text, source) => createUserMessage({ content: text, ...(source ? { source } : {}) }, newId),
    create: (sessionId, opts = {}, via = ctx) => via.agents.create({ sessionId, ...opts }),
    names: (id, filter) => observed.filter((o) => o.id === id && (!filter || filter(o))).map((o) => (o.name === 'session/event' ? `session/event:${o.detail}` : o.name)),
    statuses: (id) => observed.filter((o) => o.id === id && o.name === 'agent/status').map((o) => o.detail),
    types: (agent) => agent.session.events.map((e) => e.type),
    shutdown: () => proc.shutdown(),
    restart: async (next = {}) => {
      await proc.shutdown()
      proc.abandon()
      return boot(next)
    },
    crash: (next = {}) => {
      proc.abandon()
      return boot(next)
    },
  }
  return harness
}

/** A directed conformance case: a §9 property run against any runtime through the process port. */
export interface DirectedCase {
  /** The clause group, e.g. `AGENT-ATOMIC-TEST`. */
  readonly group: string
  /** The §9 property number. */
  readonly clause: number
  /** The property in a few words. */
  readonly title: string
  /** Capabilities of the process the case needs; without one it is skipped (and says so). */
  readonly needs?: readonly Capability[]
  /** Resumes or restarts a process (skipped when `supports.resume` is false); by default read from the title. */
  readonly resumes?: boolean
  /** Runs the case; rejects (node:assert) with the violation. */
  run(target: CaseTarget): Promise<void>
}

/** The test title of a case: `AGENT-ATOMIC-TEST 64: exactly one same-id create wins`. */
export function caseTitle(c: DirectedCase): string {
  return `${c.group} ${c.clause}: ${c.title}`
}
