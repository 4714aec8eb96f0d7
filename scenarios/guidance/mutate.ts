/**
 * Structural mutations of a program (the JSON, not a generator's choices), as a coverage-guided
 * fuzzer mutates the inputs of its corpus: add, drop, duplicate or reorder an operation; move an
 * operation into a listener of a publication or inbox event (a reentrant shape); add or change a
 * listener, its filter or its target session; change a setup's steps and faults, a model reply, a
 * load, a persistence preparation, whether the process has persistence, a minting behaviour; hold
 * a listener's tail, a load or a preparation's hand-over at a gate an actor opens; splice an actor, a listener or an operation in from another program.
 * Fresh pieces come from the kit's fast-check arbitraries (sampled with a seed the mutation's
 * stream draws), so they respect the campaign's options (operation kinds an adapter supports, no
 * hangs when hangs are off).
 *
 * Everything is a function of the inputs and the {@link Rng} given; the result always passes
 * `validateProgram` (a mutation that would not is retried, and after a few tries the parent is
 * returned unchanged).
 *
 * Longer than 500 lines because it is one table of mutation operators over one program shape,
 * each a few lines, sharing the helpers that locate and replace a piece of the program.
 * @module
 */
import fc from 'fast-check'
import type { Arbitrary } from 'fast-check'
import type { EventName } from '../../core/contract.js'
import { EVENT_NAMES } from '../../core/contract.js'
import type { ActorSpec, ListenerSpec, Operation, Program, SetupSpec } from '../../sim/program/program.js'
import { validateProgramShape } from '../../sim/program/program.js'
import { resolveReferences } from '../../sim/program/resolve-references.js'
import type { Rng } from '../../sim/streams.js'
import {
  DEFAULT_ARBITRARY_OPTIONS, listenerArbitrary, loadArbitrary, mintingArbitrary, modelStepArbitrary, operationArbitrary, preparationArbitrary, setupArbitrary,
} from '../arbitraries/index.js'
import type { ArbitraryOptions } from '../arbitraries/index.js'
import { OpSlot, operationSlots } from './op-slots.js'

export { operationSlots }

/** Events whose dispatch a reentrant operation is most often moved into (publication, teardown, inbox, status). */
export const REENTRANT_EVENTS: readonly EventName[] = [
  'session/created', 'agent/created', 'agent/session-start', 'agent/status', 'agent/inbox/inserted', 'agent/inbox/claimed',
  'agent/inbox/discarded', 'agent/disposed', 'session/disposed', 'agent/turn-stopping', 'session/event',
]

/** Past these sizes a program only shrinks or changes in place. */
const MAX_ACTORS = 6
const MAX_OPERATIONS = 30

/** The mutation operators, by name, with their weights (reentrant shapes weigh most). */
export const MUTATIONS = {
  addOperation: 3,
  dropOperation: 2,
  duplicateOperation: 2,
  swapOperations: 1,
  moveIntoListener: 3,
  reentrantOperation: 4,
  addListener: 2,
  changeListener: 2,
  retarget: 2,
  changeKind: 1,
  changeSetup: 2,
  nestIntoCommit: 1,
  changeEnvironment: 2,
  splice: 2,
  holdAtGate: 1,
} as const
export type MutationName = keyof typeof MUTATIONS

type Mutable = Program

/** One draw from an arbitrary, seeded from `rng`. */
function draw<T>(arb: Arbitrary<T>, rng: Rng): T {
  return fc.sample(arb, { seed: rng.nextU32() | 0, numRuns: 1 })[0]!
}

/** The options of a caller that gives none (one object, so its pieces are built once). */
const NO_OPTIONS: ArbitraryOptions = Object.freeze({})

/**
 * The piece arbitraries mutations draw from, built once per options object (a campaign passes one
 * per thread): building one was most of the cost of an operator that draws a fresh piece, and a
 * built arbitrary draws from a seed what a new one would (fast-check arbitraries are immutable).
 */
const PIECES = new WeakMap<ArbitraryOptions, Map<(options: ArbitraryOptions) => Arbitrary<unknown>, Arbitrary<unknown>>>()

/** `make(options)`, built once per options object (see {@link PIECES}). */
function piece<T>(make: (options: ArbitraryOptions) => Arbitrary<T>, options: ArbitraryOptions): Arbitrary<T> {
  let built = PIECES.get(options)
  if (built === undefined) PIECES.set(options, (built = new Map()))
  let arb = built.get(make) as Arbitrary<T> | undefined
  if (arb === undefined) built.set(make, (arb = make(options)))
  return arb
}

/** A weighted pick. */
function weighted<T extends string>(rng: Rng, weights: Readonly<Record<T, number>>, allowed: (name: T) => boolean = () => true): T | undefined {
  const names = (Object.keys(weights) as T[]).filter(allowed)
  const total = names.reduce((n, k) => n + weights[k], 0)
  if (total === 0) return undefined
  let x = rng.float() * total
  for (const k of names) {
    x -= weights[k]
    if (x < 0) return k
  }
  return names[names.length - 1]
}

/** Every listener list of the program (the environment's and each setup's), created on demand for the environment. */
function listenerLists(program: Program): ListenerSpec[][] {
  const lists: ListenerSpec[][] = []
  if (program.env?.listeners) lists.push(program.env.listeners)
  for (const slot of operationSlots(program)) {
    const op = slot.get()
    if ((op.op === 'create' || op.op === 'resume') && op.setup?.listeners) lists.push(op.setup.listeners)
  }
  return lists
}

function creates(program: Program): Extract<Operation, { op: 'create' | 'resume' }>[] {
  return operationSlots(program).map((s) => s.get()).filter((op): op is Extract<Operation, { op: 'create' | 'resume' }> => op.op === 'create' || op.op === 'resume')
}

/** Session ids the program already names (operations, listener filters), else the pool; `slots` are its {@link operationSlots}. */
function sessionsUsed(slots: readonly OpSlot[], pool: readonly string[]): string[] {
  const used = new Set<string>()
  for (const slot of slots) {
    const op = slot.get()
    if ('session' in op) used.add(op.session)
  }
  return used.size > 0 ? [...used].sort() : [...pool]
}

/** Put `listener` on a random create's setup (with chance `hostChance`, when there is one) or on the environment. */
function attachListener(p: Program, listener: ListenerSpec, rng: Rng, hostChance: number): void {
  const hosts = creates(p)
  if (hosts.length > 0 && rng.bool(hostChance)) {
    const host = rng.pick(hosts)
    host.setup ??= { steps: rng.int(3) }
    ;(host.setup.listeners ??= []).push(listener)
  } else {
    p.env ??= {}
    ;(p.env.listeners ??= []).push(listener)
  }
}

function insertAt<T>(list: T[], item: T, rng: Rng): void {
  list.splice(rng.int(list.length + 1), 0, item)
}

/** A fresh actor id not used by the program. */
function freshActorId(program: Program): string {
  const ids = new Set(program.actors.map((a) => a.id))
  for (let k = 1; ; k++) if (!ids.has(`a${k}`)) return `a${k}`
}

/**
 * A deep copy of a program or a piece of one (plain objects, arrays, primitives), as
 * `structuredClone` makes it, shared references included, at a fraction of its cost: mutation
 * copies its parent and every candidate, for most seeds of a guided campaign.
 */
function clone<T>(value: T): T {
  return copyValue(value, new Map()) as T
}

function copyValue(v: unknown, seen: Map<object, unknown>): unknown {
  if (typeof v !== 'object' || v === null) return v
  const known = seen.get(v)
  if (known !== undefined) return known
  if (Array.isArray(v)) {
    const out: unknown[] = []
    seen.set(v, out)
    for (const x of v) out.push(copyValue(x, seen))
    return out
  }
  const out: Record<string, unknown> = {}
  seen.set(v, out)
  for (const k of Object.keys(v)) out[k] = copyValue((v as Record<string, unknown>)[k], seen)
  return out
}

/** Context every operator gets. */
interface MutationContext {
  readonly rng: Rng
  readonly options: ArbitraryOptions
  readonly sessions: readonly string[]
  /** Other programs of the corpus to splice pieces from. */
  readonly donors: readonly Donor[]
  readonly full: boolean
}

type Operator = (p: Mutable, c: MutationContext) => boolean

const OPERATORS: Record<MutationName, Operator> = {
  addOperation(p, { rng, options, sessions, full }) {
    if (full) return false
    const op = draw(piece(operationArbitrary, options), rng)
    // Mostly on an id the program already uses: the new operation then meets the others.
    if ('session' in op && op.op !== 'create' && rng.bool(0.7)) (op as { session: string }).session = rng.pick(sessions)
    if (p.actors.length < MAX_ACTORS && rng.bool(0.2)) p.actors.push({ id: freshActorId(p), ops: [op] })
    else insertAt(rng.pick(p.actors).ops, op, rng)
    return true
  },
  dropOperation(p, { rng }) {
    const actor = rng.pick(p.actors)
    if (actor.ops.length > 1) {
      actor.ops.splice(rng.int(actor.ops.length), 1)
      return true
    }
    if (p.actors.length > 1) {
      p.actors.splice(p.actors.indexOf(actor), 1)
      return true
    }
    return false
  },
  duplicateOperation(p, { rng, full }) {
    if (full) return false
    const slots = operationSlots(p)
    const op = clone(rng.pick(slots).get())
    if (p.actors.length < MAX_ACTORS && rng.bool(0.3)) p.actors.push({ id: freshActorId(p), ops: [op] })
    else insertAt(rng.pick(p.actors).ops, op, rng)
    return true
  },
  swapOperations(p, { rng }) {
    const from = rng.pick(p.actors)
    if (p.actors.length > 1 && rng.bool(0.5)) {
      if (from.ops.length < 2) return false
      const [op] = from.ops.splice(rng.int(from.ops.length), 1)
      const to = rng.pick(p.actors.filter((a) => a !== from))
      insertAt(to.ops, op!, rng)
      return true
    }
    if (from.ops.length < 2) return false
    const i = rng.int(from.ops.length)
    const j = rng.int(from.ops.length)
    if (i === j) return false;
    [from.ops[i], from.ops[j]] = [from.ops[j]!, from.ops[i]!]
    return true
  },
  moveIntoListener(p, { rng, sessions, full }) {
    // An operation performed from inside the dispatch of a publication, teardown or inbox event.
    const actor = rng.pick(p.actors)
    const index = rng.int(actor.ops.length)
    const keep = actor.ops.length === 1 || rng.bool(0.4)
    if (keep && full) return false
    // Always a copy: the operation may contain the create that ends up hosting it.
    const moved = clone(actor.ops[index]!)
    if (!keep) actor.ops.splice(index, 1)
    const event = rng.pick(REENTRANT_EVENTS)
    const listener: ListenerSpec = { event, action: { do: 'op', op: moved } }
    if (rng.bool(0.6)) listener.session = rng.pick(sessions)
    if (event === 'session/event' && rng.bool(0.5)) listener.eventType = rng.pick(['agent/inbox/spliced', 'turn/start', 'turn/end', 'step/start'])
    if (rng.bool(0.25)) listener.times = 1 + rng.int(3)
    attachListener(p, listener, rng, 0.3)
    return true
  },
  reentrantOperation(p, { rng, options, sessions, full }) {
    // A new operation on an id the program uses, from inside a dispatch (or a scope minting):
    // teardown, cancel, input, whenIdle, remove, a same-id create, an owner or factory unload.
    if (full) return false
    const allowed = new Set<string>(options.operations ?? DEFAULT_ARBITRARY_OPTIONS.operations)
    const session = rng.pick(sessions)
    const owners = creates(p).map((c) => c.owner).filter((o): o is string => o !== undefined)
    const all: Operation[] = [
      { op: 'dispose', session }, { op: 'cancel', session }, { op: 'cancel', session, keepInbox: true }, { op: 'steer', session }, { op: 'followup', session },
      { op: 'inject', session }, { op: 'whenIdle', session }, { op: 'remove', session }, { op: 'create', session }, { op: 'unloadFactory' },
      { op: 'unloadOwner', owner: owners.length > 0 ? rng.pick(owners) : rng.pick(options.owners ?? DEFAULT_ARBITRARY_OPTIONS.owners) },
    ]
    const candidates = all.filter((op) => allowed.has(op.op))
    if (candidates.length === 0) return false
    const op = rng.pick(candidates)
    p.env ??= {}
    if (rng.bool(0.1) && (op.op === 'unloadOwner' || op.op === 'dispose')) {
      p.env.minting = [{ action: { do: 'op', op } }]
      return true
    }
    const event = rng.pick(REENTRANT_EVENTS)
    const listener: ListenerSpec = { event, action: { do: 'op', op } }
    if (rng.bool(0.6)) listener.session = session
    attachListener(p, listener, rng, 0.25)
    return true
  },
  holdAtGate(p, { rng, options, sessions, full }) {
    // An asynchronous boundary held until a point the program chooses: something waits on a gate (a
    // listener's tail, a load, a preparation's hand-over) and an actor opens it somewhere. Both come
    // in one mutation: either alone names a gate nothing pairs it with, which the program may not.
    const allowed = new Set<string>(options.operations ?? DEFAULT_ARBITRARY_OPTIONS.operations)
    if (full || !allowed.has('openGate')) return false
    const gate = rng.pick(options.gates ?? DEFAULT_ARBITRARY_OPTIONS.gates)
    const env = (p.env ??= {})
    const resumed = creates(p).filter((c) => c.op === 'resume').map((c) => c.session)
    switch (resumed.length > 0 ? rng.int(3) : 0) {
      case 0: {
        const lists = listenerLists(p).flat()
        if (lists.length > 0 && rng.bool(0.5)) rng.pick(lists).action = { do: 'wait', gate }
        else attachListener(p, { event: rng.pick([...REENTRANT_EVENTS, 'session/flush', 'agent/pre-step']), session: rng.pick(sessions), action: { do: 'wait', gate } }, rng, 0.25)
        break
      }
      case 1:
        (env.loads ??= {})[rng.pick(resumed)] = { load: rng.pick(['ok', 'fail'] as const), gate }
        break
      default:
        (env.preparations ??= {})[rng.pick(resumed)] = { gate }
    }
    const actor = rng.pick(p.actors)
    actor.ops.splice(rng.int(actor.ops.length + 1), 0, { op: 'openGate', gate })
    return true
  },
  addListener(p, { rng, options }) {
    const listener = draw(piece(listenerArbitrary, options), rng)
    attachListener(p, listener, rng, 0.3)
    return true
  },
  changeListener(p, { rng, options, sessions }) {
    const lists = listenerLists(p).filter((l) => l.length > 0)
    if (lists.length === 0) return false
    const list = rng.pick(lists)
    const i = rng.int(list.length)
    const l = list[i]!
    switch (rng.int(5)) {
      case 0: {
        const event = rng.bool(0.7) ? rng.pick(REENTRANT_EVENTS) : rng.pick(EVENT_NAMES)
        list[i] = { ...l, event }
        if (event !== 'session/event') delete list[i]!.eventType
        return true
      }
      case 1:
        if (l.session === undefined) l.session = rng.pick(sessions)
        else if (rng.bool(0.5)) delete l.session
        else l.session = rng.pick(sessions)
        return true
      case 2:
        l.times = 1 + rng.int(3)
        return true
      case 3: {
        const fresh = draw(piece(listenerArbitrary, options), rng)
        l.action = fresh.action
        return true
      }
      default:
        list.splice(i, 1)
        return true
    }
  },
  retarget(p, { rng, sessions, options }) {
    const slots = operationSlots(p)
    const slot = rng.pick(slots)
    const op = clone(slot.get())
    const pool = rng.bool(0.7) ? sessions : (options.sessions ?? DEFAULT_ARBITRARY_OPTIONS.sessions)
    if ('session' in op) (op as { session: string }).session = rng.pick(pool)
    else if (op.op === 'unloadOwner') op.owner = rng.pick(options.owners ?? DEFAULT_ARBITRARY_OPTIONS.owners)
    else if (op.op === 'abortSignal') op.signal = rng.pick(options.signals ?? DEFAULT_ARBITRARY_OPTIONS.signals)
    else return false
    slot.set(op)
    return true
  },
  changeKind(p, { rng, options }) {
    const allowed = new Set<string>(options.operations ?? DEFAULT_ARBITRARY_OPTIONS.operations)
    const slots = operationSlots(p)
    const slot = rng.pick(slots)
    const op = slot.get()
    const inputs = ['followup', 'steer', 'inject', 'queue'].filter((k) => allowed.has(k))
    if ((op.op === 'followup' || op.op === 'steer' || op.op === 'inject' || op.op === 'queue') && inputs.length > 1) {
      slot.set({ ...op, op: rng.pick(inputs) as 'followup' })
      return true
    }
    if ('session' in op && op.op !== 'create' && op.op !== 'resume') {
      const targets = ['dispose', 'cancel', 'whenIdle', 'runMaintenance', 'remove', ...inputs].filter((k) => allowed.has(k) && k !== op.op)
      if (targets.length === 0) return false
      slot.set({ op: rng.pick(targets), session: op.session } as Operation)
      return true
    }
    if (op.op === 'create' && allowed.has('resume')) {
      slot.set({ op: 'resume', session: op.session, ...(op.setup ? { setup: op.setup } : {}), ...(op.owner ? { owner: op.owner } : {}) })
      return true
    }
    if (op.op === 'resume') {
      slot.set({ op: 'create', session: op.session, ...(op.setup ? { setup: op.setup } : {}), ...(op.owner ? { owner: op.owner } : {}) })
      return true
    }
    return false
  },
  changeSetup(p, { rng, options }) {
    const hosts = creates(p)
    if (hosts.length === 0) return false
    const host = rng.pick(hosts)
    const s: SetupSpec = host.setup ?? { steps: 0 }
    switch (rng.int(6)) {
      case 0: s.steps = rng.int(4); break
      case 1: if (s.throwSync) delete s.throwSync; else s.throwSync = true; break
      case 2: if (s.commitThrows) delete s.commitThrows; else s.commitThrows = true; break
      case 3:
        if (s.rejectAt !== undefined) delete s.rejectAt
        else { s.steps = Math.max(1, s.steps); s.rejectAt = 1 + rng.int(s.steps) }
        break
      case 4:
        if (s.hangAt !== undefined) delete s.hangAt
        else if (options.hangs ?? true) s.hangAt = rng.int(s.steps + 1)
        else return false
        break
      default: host.setup = draw(piece(setupArbitrary, options), rng); return true
    }
    if (s.rejectAt !== undefined && s.rejectAt > s.steps) delete s.rejectAt
    if (s.hangAt !== undefined && s.hangAt > s.steps) s.hangAt = s.steps
    host.setup = s
    return true
  },
  nestIntoCommit(p, { rng, full }) {
    // An operation performed from inside a commit (synchronously, inside publication).
    const actor = rng.pick(p.actors)
    const index = rng.int(actor.ops.length)
    const keep = actor.ops.length === 1 || rng.bool(0.5)
    if (keep && full) return false
    // Always a copy: the operation may contain the create that ends up hosting it.
    const moved = clone(actor.ops[index]!)
    if (!keep) actor.ops.splice(index, 1)
    const hosts = creates(p)
    if (hosts.length === 0) return false
    const host = rng.pick(hosts)
    host.setup ??= { steps: rng.int(3) }
    host.setup.commitOp = moved
    return true
  },
  changeEnvironment(p, { rng, options, sessions }) {
    p.env ??= {}
    const env = p.env
    switch (rng.int(6)) {
      case 0: {
        const id = rng.pick(sessions)
        const steps = (env.model ??= {})[id] ??= []
        const step = draw(piece(modelStepArbitrary, options), rng)
        if (steps.length > 0 && rng.bool(0.5)) steps[rng.int(steps.length)] = step
        else steps.push(step)
        return true
      }
      case 1:
        (env.loads ??= {})[rng.pick(sessions)] = draw(piece(loadArbitrary, options), rng)
        return true
      case 2:
        if (env.minting?.length && rng.bool(0.5)) delete env.minting
        else env.minting = [draw(piece(mintingArbitrary, options), rng)]
        return true
      case 3:
        // A persistence preparation's hand-over and release (a gate, a late arrival, a release operation).
        (env.preparations ??= {})[rng.pick(sessions)] = draw(piece(preparationArbitrary, options), rng)
        return true
      case 4:
        // A process with no persistence (resumes refused), or back.
        if (env.persistence === false) delete env.persistence
        else env.persistence = false
        return true
      default:
        if (!env.model) return false
        delete env.model[rng.pick(Object.keys(env.model).sort())]
        return true
    }
  },
  splice(p, { rng, donors, full }) {
    if (donors.length === 0) return false
    const picked = rng.pick(donors)
    const donor = typeof picked === 'function' ? picked() : picked
    switch (rng.int(3)) {
      case 0: {
        if (full || p.actors.length >= MAX_ACTORS) return false
        const actor: ActorSpec = clone(rng.pick(donor.actors))
        p.actors.push({ id: freshActorId(p), ops: actor.ops })
        return true
      }
      case 1: {
        const listeners = listenerLists(donor).flat()
        if (listeners.length === 0) return false
        p.env ??= {}
        ;(p.env.listeners ??= []).push(clone(rng.pick(listeners)))
        return true
      }
      default: {
        if (full) return false
        const op = clone(rng.pick(operationSlots(donor)).get())
        insertAt(rng.pick(p.actors).ops, op, rng)
        return true
      }
    }
  },
}

/** Drop empty environment sections the operators may leave behind. */
function tidy(p: Mutable): void {
  const env = p.env
  if (!env) return
  if (env.listeners?.length === 0) delete env.listeners
  if (env.model && Object.keys(env.model).length === 0) delete env.model
  for (const [id, steps] of Object.entries(env.model ?? {})) if (steps.length === 0) delete env.model![id]
  if (Object.keys(env).length === 0) delete p.env
}

/** A program to splice pieces from, or how to get it (most mutants splice from none). */
export type Donor = Program | (() => Program)

/** Options of {@link mutateProgram}. */
export interface MutateOptions {
  /** The campaign's generator options (operation kinds, pools, hangs). */
  readonly arbitrary?: ArbitraryOptions
  /** Programs to splice pieces from (a function is called only if its program is spliced from). */
  readonly donors?: readonly Donor[]
  /** Mutations stacked on one another (default 1 + a geometric number, at most 4). */
  readonly count?: number
}

/**
 * A mutant of `parent`: one to a few structural mutations, each drawn from `rng`. Always a valid
 * program (the parent itself, unchanged, if no mutation could be applied in a few tries); the
 * parent is not modified. The result lists the mutations applied.
 */
export function mutateProgram(parent: Program, rng: Rng, options: MutateOptions = {}): { program: Program; mutations: MutationName[] } {
  const arbitrary = options.arbitrary ?? NO_OPTIONS
  let count = options.count ?? 1
  if (options.count === undefined) while (count < 4 && rng.bool(0.4)) count++
  // Every try mutates a copy, so the parent itself serves until one succeeds.
  let program = parent
  const applied: MutationName[] = []
  for (let tries = 0; applied.length < count && tries < count * 4; tries++) {
    const candidate = clone(program)
    delete candidate.name
    const slots = operationSlots(candidate)
    const full = candidate.actors.length >= MAX_ACTORS || slots.length >= MAX_OPERATIONS
    const context: MutationContext = { rng, options: arbitrary, sessions: sessionsUsed(slots, arbitrary.sessions ?? DEFAULT_ARBITRARY_OPTIONS.sessions), donors: options.donors ?? [], full }
    const name = weighted(rng, MUTATIONS)!
    if (!OPERATORS[name](candidate, context)) continue
    tidy(candidate)
    // What the mutation left naming nothing (a send to an id whose create it dropped) is renamed or dropped.
    const resolved = resolveReferences(candidate)
    // Only the shape can still be wrong (an operator may leave a listener's filter or abort observer
    // on an event that never carries it): `resolveReferences` returns only a program it found no
    // dangling reference in, the rest of what `validateProgram` checks (mutate.test.ts validates
    // every mutant in full).
    try {
      validateProgramShape(resolved)
    } catch {
      continue
    }
    program = resolved
    applied.push(name)
  }
  if (program === parent) {
    program = clone(parent)
    delete program.name
  }
  return { program, mutations: applied }
}
