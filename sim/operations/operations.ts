/**
 * Harness operations (design.md concept 2), performed by actors (each one behind a scheduling
 * point) or inline from inside a dispatch, a commit, a disposer or a tool body.
 * @module
 */
import type { Agent, AgentCancelCause, AgentHandle, Context, Fiber, UserMessage } from '../../core/contract.js'
import type { CauseKind, Operation } from '../program/program.js'
import { runBoundary } from './boundary.js'
import { resendPending } from './resend.js'
import { createStubAgent } from '../world/stub-agent.js'
import { CrashUnsupported } from '../world/crash.js'
import type { OperationResult, WorldHost } from '../world/world-host.js'

export type { OperationResult }
import type { Snapshot } from '../trace/trace.js'
import { announceStub, detachStub, enterStub } from './registry-split.js'
import { errorText } from '../trace/bounded-text.js'

/** How an operation ended. */

/** A short, stable description of an operation for labels and traces. */
export function describeOperation(op: Operation): string {
  switch (op.op) {
    case 'abortSignal': return `abortSignal(${op.signal})`
    case 'openGate': return `openGate(${op.gate})`
    case 'unloadOwner': return `unloadOwner(${op.owner})`
    case 'unloadFactory': case 'shutdown': case 'restart': case 'crash': case 'pause': return op.op
    case 'detach': return `detach(${op.session}${op.stale ? ',stale' : ''})`
    case 'cancel': return `cancel(${op.session},${op.cause ?? 'user'}${op.keepInbox ? ',keep' : ''})`
    case 'remove': return `remove(${op.session}${op.which === 'last' ? ',last' : ''})`
    case 'followup': case 'steer': case 'inject': case 'queue': return `${op.op}(${op.session}${op.handle ? ',handle' : ''})`
    default: return `${op.op}(${op.session})`
  }
}

function causeOf(kind: CauseKind | undefined): AgentCancelCause {
  switch (kind ?? 'user') {
    case 'user': return { kind: 'user' }
    case 'parent': return { kind: 'parent' }
    case 'hook': return { kind: 'hook', reason: 'program' }
    case 'disposed': return { kind: 'disposed' }
  }
}

/** The text a `mutate` input operation writes into its sent copy after the send returned. */
export const MUTATED_TEXT = 'mutated after send'

/** Change the text of a sent (mutable) message copy in place: its first text part, or a string content. */
function mutateInPlace(message: UserMessage): void {
  const m = message as { content: unknown }
  if (typeof m.content === 'string') {
    m.content = MUTATED_TEXT
    return
  }
  if (!Array.isArray(m.content)) return
  const part = m.content.find((b: unknown) => typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text') as { text: string } | undefined
  if (part) part.text = MUTATED_TEXT
}


/** The label of the marks a simulated maintenance task leaves when it starts and when it settles. */
export function maintenanceMark(actor: string, what: string, at: 'start' | 'end'): string {
  return `${actor}:${what}@maintenance:${at}`
}

/** What a crash resolves an operation of its process with. */
const CRASHED: unique symbol = Symbol('crashed')

/** Op numbers of operations nested in a boundary start here (an actor's own list never gets near). */
export const BOUNDARY_OP_BASE = 1_000_000

/** Executes operations against a world. */
export class Operations {
  #inline = 0
  /** The invoke entry of each create/resume transaction. */
  readonly #invokes = new Map<string, number>()

  constructor(private readonly world: WorldHost) {}

  /** Run one actor's operation list, each behind a scheduling point. */
  async runActor(actor: string, ops: readonly Operation[]): Promise<void> {
    for (let index = 0; index < ops.length; index++) {
      const op = ops[index]!
      const what = describeOperation(op)
      const handle = this.world.port.beginOp(actor, what)
      await this.world.port.point(`${actor}:${what}`, actor)
      const result = await this.#perform(op, actor, index, what)
      handle.end(result.status)
    }
  }

  /** Perform an operation from inside a dispatch, commit, disposer or tool body; never awaited. */
  inline(op: Operation, origin: string, from = -1, kind = ''): void {
    const index = this.#inline++
    const actor = `inline`
    const what = `${describeOperation(op)} from ${origin}`
    void this.#perform(op, actor, index, what, from, kind)
  }

  /** The invoke entry of a create or resume transaction, or -1. */
  invokeOf(tx: string): number {
    return this.#invokes.get(tx) ?? -1
  }

  async #perform(op: Operation, actor: string, index: number, what: string, from = -1, kind = ''): Promise<OperationResult> {
    const world = this.world
    const generation = world.generation
    const tx = op.op === 'create' || op.op === 'resume' ? world.nextTx() : undefined
    const owner = op.op === 'create' && op.parent !== undefined ? `agent:${op.parent}` : op.op === 'create' || op.op === 'resume' ? op.owner ?? actor : undefined
    world.trace.add({ k: 'invoke', actor, op: index, what, world: generation, spec: op, tx: tx || undefined, owner: owner || undefined })
    const invoked = world.trace.entries.length - 1
    if (tx) this.#invokes.set(tx, invoked)
    if (actor === 'inline') world.trace.fact('from', generation, invoked, from, -1, '', kind)
    if (op.op === 'resume') {
      // What the resumed log should hold, as the disk stands now; a load mark later supersedes it
      // (a create of the same id may rewrite the disk in between).
      const persisted = world.disk.get(op.session)?.events.length ?? 0
      if (persisted > 0) {
        world.trace.mark(`resume:${op.session} persisted=${persisted}`, generation, { tx: tx!, id: op.session })
        world.persistedMarked.add(op.session)
      }
    }
    let result: OperationResult
    // An operation in flight in a process that crashes ends with it, unrecorded: its caller died
    // too (the crash itself is the one operation that outlives its process). Raced only in a program
    // that may crash: the race costs microtask hops, and other programs keep their exact traces.
    const crashed = op.op === 'crash' || !world.mayCrash ? undefined : world.crashedAt(generation).then(() => CRASHED)
    try {
      const start = world.trace.entries.length
      const factsBefore = world.trace.facts.length
      let execution: Promise<OperationResult | void>
      try {
        execution = this.#execute(op, actor, what, tx ?? '', invoked)
      } finally {
        // Everything recorded since the invoke (entries from `start`, facts from `factsBefore`) was
        // recorded inside its synchronous part.
        if (op.op === 'crash' || !world.crashed(generation)) world.trace.fact('sync', generation, invoked, start, factsBefore, 'session' in op ? op.session : '', '')
      }
      const value = crashed ? await Promise.race([execution, crashed]) : await execution
      // Also an operation that returned while its process crashed under it (a crash from a listener
      // of the dispatch it caused): it did not return to anyone.
      if (value === CRASHED || (crashed && world.crashed(generation))) return { status: 'info', detail: 'the process crashed' }
      result = (value as OperationResult | void) ?? { status: 'ok', detail: '' }
    } catch (error) {
      if (world.crashed(generation) && op.op !== 'crash') return { status: 'info', detail: 'the process crashed' }
      result = { status: 'fail', detail: errorText(error) }
    }
    world.trace.add({ k: 'outcome', actor, op: index, what, status: result.status, detail: result.detail, world: generation, snap: result.snap ?? world.snapshot(), tx: tx || undefined })
    return result
  }

  /** The live agent targeted by an input operation; inputs to agents not live are not sent (§12 Q3). */
  #target(id: string, invoked: number): Agent | undefined {
    const agent = this.world.live(id)
    if (agent) this.#subject(agent, invoked, id)
    return agent
  }

  /** Record which object the operation invoked at `invoked` acts on. */
  #subject(o: object, invoked: number, id: string): void {
    if (this.world.trace.recordFacts) this.world.trace.fact('subject', this.world.generation, invoked, invoked, this.world.serial(o), id, '')
  }

  async #execute(op: Operation, actor: string, what: string, tx: string, invoked: number): Promise<OperationResult | void> {
    const world = this.world
    // The process this operation acts in (a maintenance task's waits are that process's).
    const generation = world.generation
    switch (op.op) {
      case 'create': {
        const ctx = this.#callerCtx(op.parent, op.owner ?? actor)
        if (!ctx) return { status: 'info', detail: `parent ${op.parent} not live` }
        const handle = await ctx.agents.create({
          sessionId: op.session,
          ...(op.setup ? { setup: world.behaviours.setup(op.setup, actor, what, tx, op.session) } : {}),
          ...(op.signal ? { signal: world.signal(op.signal).signal } : {}),
          ...(op.maxTokens !== undefined || world.agentOptions ? { agentOptions: { ...world.agentOptions, ...(op.maxTokens !== undefined ? { maxTokens: op.maxTokens } : {}) } } : {}),
          ...(op.seeded ? { seed: [], meta: { seedLength: 0 } } : {}),
        })
        return this.#keep(op.session, handle, op.parent !== undefined ? `agent:${op.parent}` : op.owner ?? actor, ctx, generation, invoked, actor)
      }
      case 'resume': {
        const ctx = this.#callerCtx(undefined, op.owner ?? actor)!
        const handle = await ctx.agents.resume({
          resumeSessionId: op.session,
          ...(world.agentOptions ? { agentOptions: { ...world.agentOptions } } : {}),
          ...(op.setup ? { setup: world.behaviours.setup(op.setup, actor, what, tx, op.session) } : {}),
          ...(op.signal ? { signal: world.signal(op.signal).signal } : {}),
        })
        return this.#keep(op.session, handle, op.owner ?? actor, ctx, generation, invoked, actor)
      }
      case 'dispose': {
        const handle = world.handles.get(op.session)
        if (!handle) return { status: 'info', detail: 'no handle' }
        this.#subject(handle.agent, invoked, op.session)
        const owner = world.handleOwners.get(op.session)
        await handle.dispose()
        if (owner && !world.crashed(generation)) this.#ownerKeeps(owner, op.session)
        return
      }
      case 'cancel': {
        const agent = this.#target(op.session, invoked)
        if (!agent) return { status: 'info', detail: 'not live' }
        agent.cancel(causeOf(op.cause), op.keepInbox ? { keepInbox: true } : {})
        return
      }
      case 'followup': case 'steer': case 'inject': case 'queue': {
        if (op.handle) {
          const kept = world.keptHandles.get(actor)?.get(op.session)
          if (!kept) return { status: 'info', detail: 'no handle' }
          if (world.sendingAfterDisposal(kept.agent)) return this.#sendAfterDisposal(op, kept.agent, actor, what)
        }
        const agent = op.handle ? world.keptHandles.get(actor)!.get(op.session)!.agent : this.#target(op.session, invoked)
        if (!agent) return { status: 'info', detail: 'not live' }
        const message = op.mutate ? structuredClone(world.message(op.text)) : world.message(op.text)
        if (op.op === 'queue') {
          if (!agent.queue) return { status: 'info', detail: 'queue not supported' }
          agent.queue(message)
        } else agent[op.op](message)
        // A factory that froze the caller's object in place leaves nothing to mutate.
        if (op.mutate) try { mutateInPlace(message) } catch { /* frozen */ }
        return { status: 'ok', detail: message.id }
      }
      case 'remove': {
        const agent = this.#target(op.session, invoked)
        if (!agent) return { status: 'info', detail: 'not live' }
        const pending = [...agent.inbox.nextTurn, ...agent.inbox.nextStep]
        const message = op.which === 'last' ? pending[pending.length - 1] : pending[0]
        if (!message) return { status: 'info', detail: 'nothing pending' }
        agent.inbox.remove(message.id)
        return { status: 'ok', detail: message.id }
      }
      case 'resend': return resendPending(world, op.session, op.via ?? 'followup')
      // Nested operations run under the boundary's actor with op numbers of their own (never an index
      // of the actor's list: checkers pair an invoke with its outcome by actor and op number).
      case 'boundary': return runBoundary(world, op.session, op.ops, (nested, k) => this.#perform(nested, actor, BOUNDARY_OP_BASE + this.#inline++, `${describeOperation(nested)} in ${what}#${k}`))
      case 'register': {
        const stub = createStubAgent(op.session)
        world.stubAgents.add(stub)
        this.#own(invoked, stub, undefined, op.session, 'stub')
        const dispose = world.ctx.agents.register(stub)
        world.stubs.set(op.session, dispose)
        return
      }
      case 'runMaintenance': {
        const agent = this.#target(op.session, invoked)
        if (!agent) return { status: 'info', detail: 'not live' }
        const steps = op.steps ?? 1
        // Probes count the task as the agent's activity from its start until runMaintenance settles.
        let counted = false
        try {
          // Start and end marks let checkers see whether the task still ran (whenIdle, §7.5).
          await agent.runMaintenance(async (signal) => {
            counted = true
            world.maintaining.set(agent, (world.maintaining.get(agent) ?? 0) + 1)
            world.trace.mark(maintenanceMark(actor, what, 'start'), world.generation, { id: op.session })
            world.watchAbort(signal, op.session, 'maintenance')
            if (op.onAbort) world.behaviours.observeAbort(signal, op.onAbort, `${actor}:${what}`)
            try {
              for (let k = 1; k <= steps; k++) {
                await world.point(`${actor}:${what}@maintenance.${k}`, actor, generation)
                signal.throwIfAborted()
              }
            } finally {
              world.trace.mark(maintenanceMark(actor, what, 'end'), world.generation, { id: op.session })
            }
          })
        } finally {
          if (counted) {
            const left = (world.maintaining.get(agent) ?? 1) - 1
            if (left > 0) world.maintaining.set(agent, left)
            else world.maintaining.delete(agent)
          }
        }
        return
      }
      case 'whenIdle': {
        const live = this.#target(op.session, invoked)
        const agent = live ?? world.handles.get(op.session)?.agent
        if (!agent) return { status: 'info', detail: 'no agent' }
        if (!live) this.#subject(agent, invoked, op.session)
        await agent.whenIdle()
        return
      }
      case 'abortSignal':
        world.signal(op.signal).abort(new Error(`signal "${op.signal}" aborted by the program`))
        return
      case 'unloadOwner':
        await world.owner(op.owner).unload()
        return
      case 'unloadFactory':
        await world.unloadFactory()
        return
      case 'shutdown':
        await world.shutdown()
        return
      case 'restart':
        await world.restart()
        return
      case 'crash':
        try {
          return { status: 'ok', detail: '', snap: await world.crash() }
        } catch (error) {
          if (error instanceof CrashUnsupported) return { status: 'info', detail: 'crash not supported' }
          throw error
        }
      case 'pause': return
      case 'openGate':
        return world.openGate(op.gate) ? undefined : { status: 'info', detail: 'already open' }
      case 'flush': {
        const session = world.ctx.sessions.get(op.session)
        if (!session) return { status: 'info', detail: 'not live' }
        // §1.3: resolves whether any listener participated, once every one settled.
        return { status: 'ok', detail: String(await world.ctx.sessions.flush(session)) }
      }
      case 'enter': return enterStub(world, op.session, (stub) => this.#own(invoked, stub, undefined, op.session, 'stub'))
      case 'announce': return announceStub(world, op.session)
      case 'detach': return detachStub(world, op.session, op.stale === true)
    }
  }

  /**
   * A send through a kept handle to an agent whose `agent/disposed` was observed: what it does is
   * unspecified (§12 Q3), so the outcome is `info` (no checker judges it as input) and says whether
   * the agent accepted the message or refused it.
   */
  #sendAfterDisposal(op: Extract<Operation, { op: 'followup' | 'steer' | 'inject' | 'queue' }>, agent: Agent, actor: string, what: string): OperationResult {
    const world = this.world
    world.trace.mark(`${actor}:${what} to a disposed agent`, world.generation, { id: op.session })
    const message = world.message(op.text)
    try {
      if (op.op === 'queue') {
        if (!agent.queue) return { status: 'info', detail: 'queue not supported' }
        agent.queue(message)
      } else agent[op.op](message)
    } catch (error) {
      return { status: 'info', detail: `sent after disposal: refused (${errorText(error)})` }
    }
    return { status: 'info', detail: `sent after disposal: accepted ${message.id}` }
  }

  #callerCtx(parent: string | undefined, owner: string): Context | undefined {
    if (parent !== undefined) return this.world.live(parent)?.ctx
    return this.world.owner(owner).ctx
  }

  /** Record that the creation or stub invoked at `invoked` holds `agent` (and `session`). */
  #own(invoked: number, agent: object, session: object | undefined, id: string, note: string): void {
    if (!this.world.trace.recordFacts) return
    this.world.trace.fact('own', this.world.generation, invoked, session === undefined ? -1 : this.world.serial(session), this.world.serial(agent), id, note)
  }

  #keep(id: string, handle: AgentHandle, owner: string, ctx: Context, generation: number, invoked: number, actor: string): OperationResult {
    // A creation of a process that crashed meanwhile hands its handle to nobody.
    if (this.world.crashed(generation)) return { status: 'info', detail: 'the process crashed' }
    if (this.world.trace.recordFacts) {
      let session: object | undefined
      try { session = handle.agent.session } catch { session = undefined }
      this.#own(invoked, handle.agent, typeof session === 'object' && session !== null ? session : undefined, id, 'handle')
    }
    this.world.handles.set(id, handle)
    this.world.handleOwners.set(id, { name: owner, ctx })
    let kept = this.world.keptHandles.get(actor)
    if (!kept) this.world.keptHandles.set(actor, (kept = new Map()))
    kept.set(id, handle)
    return { status: 'ok', detail: '' }
  }

  /**
   * After a handle's dispose resolved: the owner fiber it was created through should keep no
   * lifecycle effect of that id (§5.1 step 7). Not observed while the owner fiber or an ancestor is
   * unloading: its effects are then being disposed by the unload and leave the fiber a little later.
   */
  #ownerKeeps(owner: { readonly name: string; readonly ctx: Context }, id: string): void {
    const label = `agentLoop.lifecycle(${id})`
    let kept: number
    try {
      for (let f: Fiber | undefined = owner.ctx.fiber; f; f = f.parent) if (f.state !== 'active') return
      kept = owner.ctx.fiber.effectLabels().filter((l) => l === label).length
    } catch {
      return
    }
    if (kept > 0) this.world.trace.mark(`owner ${owner.name} keeps ${kept} ${label} after dispose`, this.world.generation, { id })
  }
}
