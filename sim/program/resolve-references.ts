/**
 * Making a generated or mutated program's references resolve (`references.ts` says what a program
 * may name): a dangling name becomes a defined one, else what names it goes. Generators and the
 * guided mutator apply {@link resolveReferences} to what they draw, so they only produce programs
 * `validateProgram` accepts.
 * @module
 */
import type { ActorSpec, EnvironmentSpec, ListenerSpec, Operation, Program, SetupSpec } from './program.js'
import { danglingReferences, definedNames, SESSION_EVENT_TYPES } from './references.js'

/** Picks a defined name for a dangling one: the same pick for the same name, spread over the defined ones. */
function renamer(defined: ReadonlySet<string>): (name: string) => string | undefined {
  const targets = [...defined].sort()
  const picked = new Map<string, string>()
  return (name) => {
    if (defined.has(name)) return name
    if (targets.length === 0) return undefined
    let target = picked.get(name)
    if (target === undefined) picked.set(name, (target = targets[picked.size % targets.length]!))
    return target
  }
}

/**
 * What an actor's (or a boundary's) operation naming nothing becomes: a pause, the scheduling
 * point it took and nothing else, so the actor keeps its length and its schedule shape.
 */
function pause(): Operation {
  return { op: 'pause' }
}

interface Renamers {
  session(name: string): string | undefined
  entered(name: string): string | undefined
  owner(name: string): string | undefined
  signal(name: string): string | undefined
}

function resolveOperation(op: Operation, r: Renamers): Operation | undefined {
  switch (op.op) {
    case 'create': {
      const setup = op.setup ? resolveSetup(op.setup, r) : undefined
      const { parent, setup: _setup, ...rest } = op
      const renamed = parent === undefined ? undefined : r.session(parent)
      // A parent renamed onto the session itself would make the create its own child: leave it a root.
      return { ...rest, ...(setup ? { setup } : {}), ...(renamed !== undefined && renamed !== op.session ? { parent: renamed } : {}) }
    }
    case 'resume': return op.setup ? { ...op, setup: resolveSetup(op.setup, r) } : op
    case 'register': case 'enter': return op
    case 'announce': case 'detach': {
      const session = r.entered(op.session)
      return session === undefined ? undefined : { ...op, session }
    }
    case 'unloadOwner': {
      const owner = r.owner(op.owner)
      return owner === undefined ? undefined : { ...op, owner }
    }
    case 'abortSignal': {
      const signal = r.signal(op.signal)
      return signal === undefined ? undefined : { ...op, signal }
    }
    case 'unloadFactory': case 'shutdown': case 'restart': case 'crash': case 'pause': return op
    default: {
      const session = r.session(op.session)
      if (session === undefined) return undefined
      if (op.op === 'boundary') return { ...op, session, ops: op.ops.map((nested) => resolveOperation(nested, r) ?? pause()) }
      if (op.op === 'runMaintenance' && op.onAbort?.do === 'op') {
        const inner = resolveOperation(op.onAbort.op, r)
        const { onAbort: _onAbort, ...rest } = op
        return { ...rest, session, ...(inner ? { onAbort: { do: 'op', op: inner } } : {}) }
      }
      return { ...op, session }
    }
  }
}

function resolveListener(l: ListenerSpec, r: Renamers): ListenerSpec | undefined {
  let action = l.action
  if (action.do === 'op') {
    const op = resolveOperation(action.op, r)
    if (op === undefined) return undefined
    action = { do: 'op', op }
  }
  const { session, eventType, onAbort, action: _action, ...rest } = l
  const renamed = session === undefined ? undefined : r.session(session)
  const keepType = eventType !== undefined && l.event === 'session/event' && (SESSION_EVENT_TYPES as readonly string[]).includes(eventType)
  const abortOp = onAbort?.do === 'op' ? resolveOperation(onAbort.op, r) : undefined
  return {
    ...rest, action,
    ...(renamed !== undefined ? { session: renamed } : {}),
    ...(keepType ? { eventType } : {}),
    ...(abortOp !== undefined ? { onAbort: { do: 'op', op: abortOp } } : {}),
  }
}

function resolveSetup(s: SetupSpec, r: Renamers): SetupSpec {
  const { commitOp, effects, listeners, ...rest } = s
  const op = commitOp ? resolveOperation(commitOp, r) : undefined
  const kept = effects?.filter((e) => e.disposer.do !== 'op' || resolveOperation(e.disposer.op, r) !== undefined)
    .map((e) => (e.disposer.do === 'op' ? { ...e, disposer: { do: 'op' as const, op: resolveOperation(e.disposer.op, r)! } } : e))
  const ls = listeners?.map((l) => resolveListener(l, r)).filter((x): x is ListenerSpec => x !== undefined)
  return { ...rest, ...(op ? { commitOp: op } : {}), ...(kept?.length ? { effects: kept } : {}), ...(ls?.length ? { listeners: ls } : {}) }
}

/** Re-key a per-session record onto defined ids (a dangling key takes a free defined one, else it goes). */
function rekey<T>(record: Record<string, T> | undefined, defined: ReadonlySet<string>): Record<string, T> | undefined {
  if (record === undefined) return undefined
  const out: Record<string, T> = {}
  const free = [...defined].sort().filter((id) => !(id in record))
  for (const [id, value] of Object.entries(record)) {
    if (defined.has(id)) out[id] = value
    else if (free.length > 0) out[free.shift()!] = value
  }
  return Object.keys(out).length > 0 ? out : undefined
}

/**
 * A program like `p` whose every reference resolves ({@link danglingReferences} is empty): a
 * dangling session, owner, signal or entered-stub name becomes a defined one (the same dangling name
 * always the same, spread over the defined ones), or, with none defined, the operation naming it
 * goes: an actor's or a boundary's becomes a `pause` (the scheduling point it took, nothing else); a
 * behaviour's goes with the listener or effect whose action it was, or leaves the commit, tool or
 * abort slot it filled empty; a dangling listener session filter or event type is dropped; `env.model` and `env.loads`
 * keys move to a free defined id or go. A program whose references resolve is returned as it is.
 * Pure and deterministic: generators and the mutator apply it to what they draw.
 */
export function resolveReferences(p: Program): Program {
  // A pass can drop a definition nested in what it drops (a create inside a boundary on a dangling
  // session): the next pass resolves against what is left. Definitions only shrink, so it settles.
  let program = p
  for (let pass = 0; pass < 16; pass++) {
    if (danglingReferences(program).length === 0) return program
    program = resolveOnce(program)
  }
  throw new Error(`resolveReferences did not settle: ${danglingReferences(program).map((d) => `${d.path}: ${d.message}`).join('; ')}`)
}

function resolveOnce(p: Program): Program {
  const d = definedNames(p)
  const r: Renamers = { session: renamer(d.sessions), entered: renamer(d.entered), owner: renamer(d.owners), signal: renamer(d.signals) }
  const actors: ActorSpec[] = p.actors.map((a) => ({ ...a, ops: a.ops.map((op) => resolveOperation(op, r) ?? pause()) }))
  const env = p.env
  if (env === undefined) return { ...p, actors }
  const out: EnvironmentSpec = { ...env }
  if (env.listeners) {
    const ls = env.listeners.map((l) => resolveListener(l, r)).filter((x): x is ListenerSpec => x !== undefined)
    if (ls.length > 0) out.listeners = ls
    else delete out.listeners
  }
  if (env.effects) {
    const effects = env.effects.flatMap((e) => {
      if (e.disposer.do !== 'op') return [e]
      const op = resolveOperation(e.disposer.op, r)
      return op ? [{ ...e, disposer: { do: 'op' as const, op } }] : []
    })
    if (effects.length > 0) out.effects = effects
    else delete out.effects
  }
  if (env.model) {
    const model = rekey(Object.fromEntries(Object.entries(env.model).map(([id, steps]) => [id, steps.map((m) => {
      if (m.reply !== 'tool' || !m.op) return m
      const op = resolveOperation(m.op, r)
      return op ? { ...m, op } : { reply: 'tool' as const }
    })])), d.agents)
    if (model) out.model = model
    else delete out.model
  }
  if (env.loads) {
    const loads = rekey(env.loads, d.resumed)
    if (loads) out.loads = loads
    else delete out.loads
  }
  if (env.minting) {
    const minting = env.minting.flatMap((m) => {
      if (m.action.do !== 'op') return [m]
      const op = resolveOperation(m.action.op, r)
      return op ? [{ ...m, action: { do: 'op' as const, op } }] : []
    })
    if (minting.length > 0) out.minting = minting
    else delete out.minting
  }
  return { ...p, actors, env: out }
}
