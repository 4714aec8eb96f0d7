/**
 * The world as the code acting in it sees it: operations (`sim/operations/`), the environment's
 * behaviours and the ownership probe reach the process, the trace, the scheduler and the counters
 * through this interface. `World` implements it and imports them; they import only this, so the
 * world and what it runs form no import circle.
 * @module
 */
import type { Agent, AgentHandle, AgentOptions, AgentSetup, Context, Disposer, SessionId, UserMessage } from '../../core/contract.js'
import type { PersistedSession } from '../../core/persistence.js'
import type { Action, Operation, Program, SetupSpec } from '../program/program.js'
import type { Snapshot, TraceRecorder } from '../trace/trace.js'
import type { SchedulerPort } from './ports.js'

/** How an operation ended, as its trace outcome says it. */
export interface OperationResult {
  status: 'ok' | 'fail' | 'info'
  detail: string
  /** The registries the outcome states, when not the current process's (a crash's: the dead process's). */
  snap?: Snapshot
}

/** A stub agent a program entered in the registry (`enter`), and where its announce and detach stand. */
export interface StubEntry {
  readonly stub: Agent
  readonly detach: () => void
  /** An `announce` of it began (marked before dispatch, §4: even one a listener vetoed). */
  announced: boolean
  /** Its `agent/created` dispatch is running (a detach now is deferred until it ends). */
  announcing: boolean
  /** A detach was asked for while it was announcing. */
  deferred: boolean
  /** Its detach was called. */
  detached: boolean
}

/** What operations ask of the environment's behaviours. */
export interface BehaviourHooks {
  /** The `setup` a create or resume passes to the factory, played from its spec. */
  setup(spec: SetupSpec, actor: string, what: string, tx: string, id: string): AgentSetup
  /** Play `action` when `signal` aborts. */
  observeAbort(signal: AbortSignal, action: Action, origin: string): void
}

/** What behaviours ask of the operations: perform one inline, from inside a dispatch. */
export interface InlineOperations {
  /**
   * `from`: the entry of the dispatch it is made from (-1: none the world recorded); `kind`: what
   * made it (`listener`, `abort`, `commit`, `disposer`, `minting`, `tool`), for its `from` fact.
   */
  inline(op: Operation, origin: string, from?: number, kind?: string): void
  /** The invoke entry of a create or resume transaction, or -1. */
  invokeOf(tx: string): number
}

/** One simulated process and its successors, as seen by what acts in it. */
export interface WorldHost {
  readonly program: Program
  readonly port: SchedulerPort
  readonly trace: TraceRecorder
  readonly behaviours: BehaviourHooks
  readonly operations: InlineOperations
  readonly disk: Map<SessionId, PersistedSession>
  readonly generation: number
  readonly handles: Map<SessionId, AgentHandle>
  readonly handleOwners: Map<SessionId, { readonly name: string; readonly ctx: Context }>
  /** Per actor, the handle its own latest create or resume of each id returned, kept after disposal (this process). */
  readonly keptHandles: Map<string, Map<SessionId, AgentHandle>>
  readonly stubs: Map<SessionId, Disposer>
  readonly entered: Map<SessionId, StubEntry[]>
  readonly persistedMarked: Set<SessionId>
  readonly stubAgents: WeakSet<Agent>
  readonly enteredStubs: WeakSet<Agent>
  readonly maintaining: Map<Agent, number>
  readonly mayCrash: boolean
  readonly ctx: Context
  readonly agentOptions: AgentOptions | undefined
  snapshot(): Snapshot
  owner(name: string): { readonly ctx: Context; unload(): Promise<void> }
  signal(name: string): AbortController
  message(text: string | undefined): UserMessage
  live(id: SessionId): Agent | undefined
  unloadFactory(): Promise<void>
  shutdown(): Promise<void>
  restart(): Promise<void>
  crash(): Promise<Snapshot>
  crashed(generation: number): boolean
  crashedAt(generation: number): Promise<void>
  /**
   * A send through a kept handle is about to reach `agent`: whether its `agent/disposed` was already
   * observed. If so, what the agent does from now on follows a send after disposal (§12 Q3): its
   * later events and its detached session's growth are recorded as such.
   */
  sendingAfterDisposal(agent: Agent): boolean
  /** Whether the program sent to `agent` through a kept handle after its `agent/disposed` (§12 Q3). */
  sentAfterDisposal(agent: Agent): boolean
  /**
   * Wait on the named gate: marks `gate:<name> wait <who>` and resolves once an `openGate` opened it
   * (at once if it is open already). Gates belong to the run, not to one process.
   */
  gate(name: string, who: string, generation: number): Promise<void>
  /** Open the named gate (marks `gate:<name> open` the first time); false if it was open already. */
  openGate(name: string): boolean
  point(label: string, actor: string, generation?: number): Promise<void>
  nextTx(): string
  /** The serial of an object the world records facts about (`Fact`). */
  serial(o: object): number
  /** The entry of the dispatch a listener's arguments belong to, or -1. */
  dispatchOf(args: readonly unknown[]): number
  /** Record an `abort` fact when this activity signal of agent `id` aborts (`source`: where it was handed over). */
  watchAbort(signal: AbortSignal | undefined, id: string, source: string): void
  /**
   * Call `listener` once when `signal` (the code under test's) aborts, for as long as the run lasts:
   * the run's end removes it (why: `run-lifetime.ts`).
   */
  listenAbort(signal: AbortSignal, listener: () => void): void
}
