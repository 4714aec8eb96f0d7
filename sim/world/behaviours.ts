/**
 * The environment's behaviours (design.md concept 2): setups of N steps that may throw, commits,
 * persistence loads that are slow, fail or hang, listeners and effects that misbehave or act, and
 * the scripted model. Every wait is a scheduling point or a declared block.
 * @module
 */
import type {
  Agent, AgentSetup, AgentSetupCommit, Context, EventName, Model, ModelReply, ModelRequest, PreStepDecision, SessionId,
} from '../../core/contract.js'
import type { Action, EffectSpec, ListenerSpec, ModelStepSpec, PayloadFilter, SetupSpec } from '../program/program.js'
import type { WorldHost } from './world-host.js'
import { never } from './never.js'
import { PREPARATION_MARK } from './surface-marks.js'

/** Thrown by injected faults, so traces say what was injected. */
export class InjectedFault extends Error {
  override readonly name = 'InjectedFault'
}

function untilAborted(world: WorldHost, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve()
    else world.listenAbort(signal, () => resolve())
  })
}

function sleep(world: WorldHost, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const onAbort = (): void => { clearTimeout(timer); reject(signal.reason) }
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve() }, ms)
    world.listenAbort(signal, onAbort)
  })
}

/** What a splice does: inserts messages, claims (a pure deletion, §6.4) or cancels (an ordinary removal). */
function spliceOutcome(splice: { inserted?: unknown; removedCount?: unknown; outcome?: unknown }): 'inserted' | 'claimed' | 'canceled' | undefined {
  if (splice.outcome === 'canceled') return 'canceled'
  if (Array.isArray(splice.inserted) && splice.inserted.length > 0) return 'inserted'
  return typeof splice.removedCount === 'number' && splice.removedCount > 0 ? 'claimed' : undefined
}

/** The session id an event's listener arguments are about. */
function subjectOf(event: EventName, args: readonly any[]): string | undefined {
  return event.startsWith('session/') ? args[0]?.id : args[0]?.agent?.id
}

/** Builds the environment's behaviours for one world. */
export class Behaviours {
  readonly #modelCursor = new Map<SessionId, number>()
  /** Preparations handed out per session id, over the whole run (they number the marks). */
  readonly #preparations = new Map<SessionId, number>()

  constructor(private readonly world: WorldHost) {}

  /**
   * The scripted model as the process of `generation` calls it: a call from a process that crashed
   * never returns (nor is it marked), whenever its dead code makes it.
   */
  modelFor(generation: number): Model {
    return { call: (request) => this.#modelCall(request, generation) }
  }

  /** A persistence load (§1.4): a scheduling point, then the program's load behaviour. */
  async load(id: SessionId, signal: AbortSignal | undefined, generation = this.world.generation): Promise<void> {
    const spec = this.world.program.env?.loads?.[id] ?? { load: 'ok' as const }
    const actor = `load:${id}`
    const world = this.world
    // A load of a process that crashed never finishes.
    if (world.crashed(generation)) await never()
    // Marks let scenario goals see where a load stood when something raced it.
    world.trace.mark(`${actor}@start ${spec.load}`, world.generation, { id })
    await world.point(`${actor}:load`, actor, generation)
    if (spec.load === 'slow') for (let k = 1; k <= spec.steps; k++) await world.point(`${actor}:slow.${k}`, actor, generation)
    if (spec.load !== 'hang' && spec.gate !== undefined) {
      // Finishes (or fails) at a point the program chooses: when its gate opens. An abort of the
      // load's signal meanwhile rejects it with the reason, as a hang does.
      const opened = world.gate(spec.gate, actor, generation)
      if (signal) await Promise.race([opened, untilAborted(world, signal)])
      else await opened
      if (signal?.aborted) {
        world.trace.mark(`${actor}@aborted`, generation, { id })
        throw signal.reason
      }
      await world.point(`${actor}:gate`, actor, generation)
    }
    if (spec.load === 'fail') {
      world.trace.mark(`${actor}@fail`, world.generation, { id })
      throw new InjectedFault(`persistence load of "${id}" failed`)
    }
    if (spec.load === 'hang') {
      world.trace.mark(`${actor}@hang`, world.generation, { id })
      world.trace.fact('hang', world.generation, -1, -1, 1, id, `${actor}:hang`)
      if (signal) await Promise.race([untilAborted(world, signal), world.port.block(`${actor}:hang`, actor)])
      else await world.port.block(`${actor}:hang`, actor)
      world.trace.mark(`${actor}@aborted`, world.generation, { id })
      world.trace.fact('hang', world.generation, -1, -1, 0, id, `${actor}:hang`)
      throw signal?.reason ?? new InjectedFault(`persistence load of "${id}" hung`)
    }
    world.trace.mark(`${actor}@end`, world.generation, { id })
    // What the resumed log must hold (§9 43): the disk's events as the load reads them.
    const persisted = world.disk.get(id)?.events.length ?? 0
    // (also a 0 once a resume was marked with a length: the disk may have been emptied since)
    if (persisted > 0 || world.persistedMarked.has(id)) world.trace.mark(`resume:${id} persisted=${persisted}`, world.generation, { id })
  }

  /** Ids whose `onRelease` played (once per run). */
  readonly #releasesPlayed = new Set<SessionId>()

  /**
   * A load handed out a preparation of `id` (the process's `prepared` hook, §1.4): marks it, and
   * returns what the process calls when it is released, which marks the release (once) and plays
   * the program's `onRelease` operation (at the first release of the id only).
   */
  prepared(id: SessionId, generation: number): () => void {
    const n = (this.#preparations.get(id) ?? 0) + 1
    this.#preparations.set(id, n)
    const world = this.world
    if (world.crashed(generation)) return () => undefined
    world.trace.mark(`${PREPARATION_MARK}${id}#${n} handed out`, generation, { id })
    let released = false
    return () => {
      if (released || world.crashed(generation)) return
      released = true
      world.trace.mark(`${PREPARATION_MARK}${id}#${n} released`, generation, { id })
      const onRelease = world.program.env?.preparations?.[id]?.onRelease
      // Once per id, like a listener (times 1): a release whose operation resumes the id would
      // otherwise release, and resume, forever.
      if (onRelease?.do === 'op' && !this.#releasesPlayed.has(id)) {
        this.#releasesPlayed.add(id)
        world.operations.inline(onRelease.op, `${PREPARATION_MARK}${id}.release`)
      }
    }
  }

  /**
   * The hand-over of the preparation just handed out (the process's `afterLoad` hook): the program's
   * `steps` and `gate` for `id`, ignoring the load's signal (a preparation arriving after the caller
   * gave up), then an `arrived` mark.
   */
  async afterLoad(id: SessionId, generation: number): Promise<void> {
    const n = this.#preparations.get(id) ?? 0
    const world = this.world
    const spec = world.program.env?.preparations?.[id]
    const actor = `${PREPARATION_MARK}${id}`
    if (world.crashed(generation)) await never()
    for (let k = 1; k <= (spec?.steps ?? 0); k++) await world.point(`${actor}:late.${k}`, actor, generation)
    if (spec?.gate !== undefined) {
      await world.gate(spec.gate, actor, generation)
      await world.point(`${actor}:gate`, actor, generation)
    }
    world.trace.mark(`${PREPARATION_MARK}${id}#${n} arrived`, generation, { id })
  }

  /** Setup of `spec.steps` scheduling points, with the program's faults and registrations (§3.4). */
  setup(spec: SetupSpec, actor: string, what: string, tx: string, id: string): AgentSetup {
    const meta = { tx, id }
    // The process the creation was called in: its setup's waits are that process's.
    const generation = this.world.generation
    return (agentCtx: Context) => {
      const world = this.world
      if (world.crashed(generation)) return never()
      this.#own(agentCtx, tx, id)
      this.#probeInitiator(agentCtx, `${actor}:${what}`, meta)
      world.trace.mark(`${actor}:${what}@setup:start`, world.generation, meta)
      spec.effects?.forEach((effect, i) => this.registerEffect(agentCtx, effect, `${actor}:${what}:effect${i}`, meta))
      spec.listeners?.forEach((listener) => this.registerListener(agentCtx, listener, `${what}:scoped`))
      if (spec.throwSync) throw new InjectedFault(`setup of ${what} threw`)
      const commit: AgentSetupCommit = {
        commit: () => {
          this.world.trace.mark(`${actor}:${what}@commit`, this.world.generation, meta)
          if (spec.commitOp) this.world.operations.inline(spec.commitOp, `${actor}.commit`, -1, 'commit')
          if (spec.commitThrows) {
            this.world.trace.fact('fault', this.world.generation, this.world.operations.invokeOf(tx), -1, -1, id, 'commit')
            throw new InjectedFault(`commit of ${what} threw`)
          }
        },
      }
      if (spec.steps === 0 && spec.rejectAt === undefined && spec.hangAt === undefined) {
        this.world.trace.mark(`${actor}:${what}@setup:end`, this.world.generation, meta)
        return commit
      }
      return (async () => {
        const hang = (): Promise<void> => {
          this.world.trace.fact('hang', this.world.generation, this.world.operations.invokeOf(tx), -1, 1, id, `${actor}:${what}@setup.hang`)
          return this.world.port.block(`${actor}:${what}@setup.hang`, actor)
        }
        for (let k = 1; k <= spec.steps; k++) {
          if (spec.hangAt === k - 1) await hang()
          await this.world.point(`${actor}:${what}@setup.${k}`, actor, generation)
          if (spec.rejectAt === k) throw new InjectedFault(`setup of ${what} rejected at step ${k}`)
        }
        if (spec.hangAt !== undefined && spec.hangAt >= spec.steps) await hang()
        this.world.trace.mark(`${actor}:${what}@setup:end`, this.world.generation, meta)
        return commit
      })()
    }
  }

  /** Record the agent (and session) a creation's setup was handed, which owns the edges they make. */
  #own(agentCtx: Context, tx: string, id: string): void {
    const world = this.world
    if (!world.trace.recordFacts) return
    let agent: Agent | undefined
    let session: unknown
    try {
      agent = agentCtx.agent
      session = agent?.session
    } catch {
      return
    }
    if (typeof agent !== 'object' || agent === null) return
    world.trace.fact('own', world.generation, world.operations.invokeOf(tx), typeof session === 'object' && session !== null ? world.serial(session) : -1, world.serial(agent), id, 'setup')
  }

  /**
   * `withInitiator` returns exactly what its operation returned (§8), a promise included: probe it
   * with the setup's agent and record a mark when it does not. Records nothing when the context has
   * no agent or the call throws (other checks cover those).
   */
  #probeInitiator(agentCtx: Context, where: string, meta: { tx: string; id: string }): void {
    let same: boolean
    try {
      const agent = agentCtx.agent
      if (!agent) return
      const p = Promise.resolve()
      const v = {}
      same = agentCtx.agents.withInitiator(agent, () => p) === p
      same = agentCtx.agents.withInitiator(agent, () => v) === v && same
    } catch {
      return
    }
    if (!same) this.world.trace.mark(`${where} withInitiator returned another object`, this.world.generation, meta)
  }

  /** Register a listener on `ctx` playing `spec.action` when it fires (§1.9 vocabulary). */
  registerListener(ctx: Context, spec: ListenerSpec, origin: string): void {
    let fired = 0
    let seen = 0
    const times = spec.times ?? 1
    const nth = spec.nth ?? 1
    const label = `listener:${spec.event}`
    const matches = (args: readonly any[]): boolean => {
      if (fired >= times) return false
      if (spec.session !== undefined && subjectOf(spec.event, args) !== spec.session) return false
      if (spec.eventType !== undefined && (spec.event !== 'session/event' || args[1]?.type !== spec.eventType)) return false
      if (spec.where !== undefined && !this.#payloadMatches(spec.event, args, spec.where)) return false
      // The matches before the nth pass by (nth defaults to 1: every match counts).
      if (++seen < nth) return false
      fired++
      return true
    }
    // A listener of a process that crashed plays nothing (the dead process's code no longer acts).
    const generation = this.world.generation
    const observeAbort = (signal: AbortSignal | undefined): void => {
      if (spec.onAbort === undefined || signal === undefined || signal.aborted) return
      this.world.listenAbort(signal, () => { if (!this.world.crashed(generation)) this.#play(spec.onAbort!, `abort:${spec.event}`, `${origin}:abort`, () => undefined, {}, () => undefined, -1, 'abort') })
    }
    if (spec.event === 'agent/pre-step') {
      ctx.on('agent/pre-step', (payload, next) => {
        if (this.world.crashed(generation) || !matches([payload])) return next()
        this.world.watchAbort(payload.signal, payload.agent?.id ?? '', 'pre-step')
        observeAbort(payload.signal)
        return this.#play<PreStepDecision | Promise<PreStepDecision>>(spec.action, label, origin, () => next(), {}, () => ({ kind: 'reject' }), -1, 'listener') as never
      })
      return
    }
    ctx.on(spec.event, ((...args: any[]) => {
      if (this.world.crashed(generation) || !matches(args)) return undefined
      if (spec.event === 'agent/turn-stopping') observeAbort(args[0]?.signal)
      return this.#play(spec.action, label, origin, () => undefined, {}, () => undefined, this.world.dispatchOf(args), 'listener', subjectOf(spec.event, args) ?? '')
    }) as never)
  }

  /** Whether an event's payload matches a listener's `where` filter (read when the event fires). */
  #payloadMatches(event: EventName, args: readonly any[], where: PayloadFilter): boolean {
    const appended = event === 'session/event' ? args[1] : undefined
    const fields = appended ? appended.data : args[0]
    if (where.turn !== undefined && fields?.turn !== where.turn) return false
    if (where.step !== undefined && fields?.step !== where.step) return false
    if (where.status !== undefined && args[0]?.status !== where.status) return false
    if (where.source !== undefined && args[0]?.source !== where.source) return false
    const splice = appended?.type === 'agent/inbox/spliced' ? fields : undefined
    if (where.target !== undefined && splice?.target !== where.target) return false
    if (where.outcome !== undefined && (splice === undefined || spliceOutcome(splice) !== where.outcome)) return false
    if (where.reason !== undefined && (appended?.type !== 'turn/end' || fields?.reason?.kind !== where.reason)) return false
    if (where.pending !== undefined && this.#hasPending(event, args) !== where.pending) return false
    return true
  }

  /** Whether the agent an event is about has pending inbox items, as its public inbox reads now. */
  #hasPending(event: EventName, args: readonly any[]): boolean {
    try {
      const agent: Agent | undefined = event.startsWith('session/') ? this.world.ctx.agents.get(args[0]?.id) : args[0]?.agent
      const inbox = agent?.inbox
      return inbox !== undefined && inbox.nextTurn.length + inbox.nextStep.length > 0
    } catch {
      return false
    }
  }

  /**
   * Observe the abort of a maintenance task's signal: play `action` synchronously inside the abort
   * (an abort observer), once.
   */
  observeAbort(signal: AbortSignal, action: Action, origin: string): void {
    if (signal.aborted) return
    const generation = this.world.generation
    this.world.listenAbort(signal, () => { if (!this.world.crashed(generation)) this.#play(action, 'abort:maintenance', `${origin}:abort`, () => undefined, {}, () => undefined, -1, 'abort') })
  }

  /** Register an effect on `ctx` whose disposer plays `spec.disposer`. */
  registerEffect(ctx: Context, spec: EffectSpec, origin: string, meta: { tx?: string; id?: string } = {}): void {
    const generation = this.world.generation
    ctx.effect(() => {
      this.world.trace.mark(`${origin} registered`, this.world.generation, meta)
      return () => this.world.crashed(generation) ? undefined : this.#play(spec.disposer, `effect:${origin}`, origin, () => undefined, meta, () => undefined, -1, 'disposer') as void | Promise<void>
    }, `sim:${origin}`)
  }

  /**
   * Play an action when the process mints an agent's scope fiber (`env.minting`), synchronously
   * inside the minting: a `throw` propagates into the minting; a rejection is observed here.
   */
  playMinting(action: Action, label: string, meta: { id?: string }): void {
    const result = this.#play(action, label, 'minting', () => undefined, meta, () => undefined, -1, 'minting')
    if (result instanceof Promise) result.catch(() => undefined)
  }

  /**
   * Play an action; `then` supplies the normal result (e.g. a waterfall's `next()`), `blocked` the
   * result of a `block` (by default the normal one: a block only blocks a waterfall).
   */
  #play<T>(action: Action, label: string, origin: string, then: () => T, meta: { tx?: string; id?: string } = {}, blocked: () => T = then, from = -1, kind = '', subject = ''): T | Promise<T> {
    const world = this.world
    // (a tail's end is of the process its listener ran in, though a restart may come first)
    const born = world.generation
    const about = subject || (meta.id ?? '')
    world.trace.mark(`${origin} ${label} ${action.do}`, world.generation, meta)
    switch (action.do) {
      case 'throw':
        // Where a creation this fault fails begins its rollback.
        world.trace.fact('fault', world.generation, -1, from, -1, about, label)
        throw new InjectedFault(`${label} (${origin}) threw`)
      case 'reject':
        this.#tail(1, from, label, about, born)
        return (async () => {
          await world.point(label, label)
          this.#tail(0, from, label, about, born)
          throw new InjectedFault(`${label} (${origin}) rejected`)
        })()
      case 'slow':
        this.#tail(1, from, label, about, born)
        return (async () => {
          await world.point(label, label)
          this.#tail(0, from, label, about, born)
          return then()
        })()
      case 'op':
        world.operations.inline(action.op, origin, from, kind)
        return then()
      case 'block':
        return blocked()
      case 'wait': {
        // The process this wait belongs to: once the gate opens, a crashed one does not go on.
        const generation = world.generation
        this.#tail(1, from, label, about, born)
        return (async () => {
          await world.gate(action.gate, label, generation)
          await world.point(`${label}:${action.gate}`, label, generation)
          this.#tail(0, from, label, about, born)
          return then()
        })()
      }
    }
  }

  /** A listener's asynchronous tail began (1) or ended (0): when a serial dispatch could go on (F10). */
  #tail(n: 0 | 1, from: number, label: string, id: string, generation: number): void {
    this.world.trace.fact('tail', generation, -1, from, n, id, label)
  }

  async #modelCall(request: ModelRequest, generation: number): Promise<ModelReply> {
    if (this.world.crashed(generation)) return never()
    const id = request.sessionId
    const k = this.#modelCursor.get(id) ?? 0
    this.#modelCursor.set(id, k + 1)
    const spec: ModelStepSpec = this.world.program.env?.model?.[id]?.[k] ?? { reply: 'text' }
    const actor = `model:${id}`
    let initiator: string
    try {
      initiator = this.world.ctx.agents.currentInitiator()?.id ?? 'none'
    } catch {
      initiator = 'disposed'
    }
    this.world.trace.mark(`${actor}:call${k + 1} initiator=${initiator}`, this.world.generation, { id })
    this.world.watchAbort(request.signal, id, 'model')
    await this.world.point(`${actor}:call${k + 1}`, actor, generation)
    request.signal.throwIfAborted()
    switch (spec.reply) {
      case 'text':
        return { text: `reply ${k + 1}` }
      case 'fail':
        throw new InjectedFault(`model call ${k + 1} of "${id}" failed`)
      case 'hang':
        this.world.trace.fact('hang', this.world.generation, -1, -1, 1, id, `${actor}:hang`)
        await Promise.race([untilAborted(this.world, request.signal), this.world.port.block(`${actor}:hang`, actor)])
        // An abort that reaches the call only after its process crashed is heard by no one.
        if (this.world.crashed(generation)) return never()
        this.world.trace.fact('hang', this.world.generation, -1, -1, 0, id, `${actor}:hang`)
        if (request.signal.aborted) {
          // Who the model call runs on behalf of while it is being aborted (§8), read synchronously.
          let aborting: string
          try {
            aborting = this.world.ctx.agents.currentInitiator()?.id ?? 'none'
          } catch {
            aborting = 'disposed'
          }
          this.world.trace.mark(`${actor}:call${k + 1} aborting initiator=${aborting}`, this.world.generation, { id })
        }
        throw request.signal.reason
      case 'tool':
        if (spec.op) this.world.operations.inline(spec.op, `${actor}.tool`, -1, 'tool')
        request.signal.throwIfAborted()
        return { text: `tool ${k + 1}`, followUp: true }
      case 'delay':
        await sleep(this.world, spec.ms, request.signal)
        // A timer outlives nothing: the reply never reaches a process that crashed meanwhile.
        if (this.world.crashed(generation)) return never()
        return { text: `reply ${k + 1}` }
    }
  }
}
