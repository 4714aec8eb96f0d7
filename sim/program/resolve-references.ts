/**
 * Making a generated or mutated program's references resolve (`references.ts` says what a program
 * may name): a dangling name becomes a defined one, else what names it goes. Generators and the
 * guided mutator apply {@link resolveReferences} to what they draw, so they only produce programs
 * `validateProgram` accepts.
 * @module
 */
import type { Action, ActorSpec, EnvironmentSpec, ListenerSpec, Operation, PreparationSpec, Program, SetupSpec } from './program.js'
import { danglingReferences, definedNames, hasDanglingReferences, SESSION_EVENT_TYPES } from './references.js'
import type { Defined } from './references.js'

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
  /** A gate an operation opens: onto one something waits on. */
  opened(name: string): string | undefined
  /** A gate something waits on: onto one an operation opens. */
  waited(name: string): string | undefined
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
    case 'openGate': {
      const gate = r.opened(op.gate)
      return gate === undefined ? undefined : { ...op, gate }
    }
    case 'unloadFactory': case 'shutdown': case 'restart': case 'crash': case 'pause': return op
    default: {
      const session = r.session(op.session)
      if (session === undefined) return undefined
      if (op.op === 'boundary') return { ...op, session, ops: op.ops.map((nested) => resolveOperation(nested, r) ?? pause()) }
      if (op.op === 'runMaintenance' && op.onAbort !== undefined) {
        const onAbort = resolveAction(op.onAbort, r)
        const { onAbort: _onAbort, ...rest } = op
        return { ...rest, session, ...(onAbort ? { onAbort } : {}) }
      }
      return { ...op, session }
    }
  }
}

/** An action whose names resolve: an operation's (or none, when it names nothing defined); a wait on an unopened gate becomes slow. */
function resolveAction(a: Action, r: Renamers): Action | undefined {
  if (a.do === 'op') {
    const op = resolveOperation(a.op, r)
    return op === undefined ? undefined : { do: 'op', op }
  }
  if (a.do === 'wait') {
    const gate = r.waited(a.gate)
    return gate === undefined ? { do: 'slow' } : { do: 'wait', gate }
  }
  return a
}

function resolveListener(l: ListenerSpec, r: Renamers): ListenerSpec | undefined {
  const action = resolveAction(l.action, r)
  if (action === undefined) return undefined
  const { session, eventType, onAbort, action: _action, ...rest } = l
  const renamed = session === undefined ? undefined : r.session(session)
  const keepType = eventType !== undefined && l.event === 'session/event' && (SESSION_EVENT_TYPES as readonly string[]).includes(eventType)
  const observer = onAbort === undefined ? undefined : resolveAction(onAbort, r)
  return {
    ...rest, action,
    ...(renamed !== undefined ? { session: renamed } : {}),
    ...(keepType ? { eventType } : {}),
    ...(observer !== undefined ? { onAbort: observer } : {}),
  }
}

/** Effect-like entries whose action resolves (the others go). */
function resolveEach<T>(items: readonly T[] | undefined, get: (item: T) => Action, set: (item: T, a: Action) => T, r: Renamers): T[] | undefined {
  const out = items?.flatMap((item) => {
    const a = resolveAction(get(item), r)
    return a === undefined ? [] : [set(item, a)]
  })
  return out?.length ? out : undefined
}

function resolveSetup(s: SetupSpec, r: Renamers): SetupSpec {
  const { commitOp, effects, listeners, ...rest } = s
  const op = commitOp ? resolveOperation(commitOp, r) : undefined
  const kept = resolveEach(effects, (e) => e.disposer, (e, disposer) => ({ ...e, disposer }), r)
  const ls = listeners?.map((l) => resolveListener(l, r)).filter((x): x is ListenerSpec => x !== undefined)
  return { ...rest, ...(op ? { commitOp: op } : {}), ...(kept ? { effects: kept } : {}), ...(ls?.length ? { listeners: ls } : {}) }
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

/** A gated load or preparation's gate, renamed onto an opened one or dropped. */
function regate<T extends { gate?: string }>(spec: T, r: Renamers): T {
  if (spec.gate === undefined) return spec
  const gate = r.waited(spec.gate)
  const { gate: _gate, ...rest } = spec
  return (gate === undefined ? rest : { ...rest, gate }) as T
}

/**
 * A program like `p` whose every reference resolves ({@link danglingReferences} is empty): a
 * dangling session, owner, signal, entered-stub or gate name becomes a defined one (the same
 * dangling name always the same, spread over the defined ones), or, with none defined, what names
 * it goes: an actor's or a boundary's operation becomes a `pause` (the scheduling point it took,
 * nothing else); a behaviour's operation goes with the listener or effect whose action it was, or
 * leaves the commit, tool, abort or release slot it filled empty; a wait on a gate nothing opens
 * becomes `slow`, a gated load or preparation loses its gate; a dangling listener session filter or
 * event type is dropped; `env.model`, `env.loads` and `env.preparations` keys move to a free
 * defined id or go. A program whose references resolve is returned as it is. Pure and
 * deterministic: generators and the mutator apply it to what they draw.
 */
export function resolveReferences(p: Program): Program {
  // A pass can drop a definition nested in what it drops (a create inside a boundary on a dangling
  // session): the next pass resolves against what is left. Definitions only shrink, so it settles.
  let program = p
  for (let pass = 0; pass < 16; pass++) {
    // One look at what the program defines serves the check and the pass.
    const defined = definedNames(program)
    if (!hasDanglingReferences(program, defined)) return program
    program = resolveOnce(program, defined)
  }
  throw new Error(`resolveReferences did not settle: ${danglingReferences(program).map((d) => `${d.path}: ${d.message}`).join('; ')}`)
}

function resolveOnce(p: Program, d: Defined): Program {
  // Waits move onto opened gates first; openers then onto what is waited on after that (renaming
  // both sides against each other's old names would swap them forever).
  const waited = renamer(d.opened)
  const stillWaited = new Set([...d.waited].map(waited).filter((g): g is string => g !== undefined))
  const r: Renamers = {
    session: renamer(d.sessions), entered: renamer(d.entered), owner: renamer(d.owners), signal: renamer(d.signals),
    opened: renamer(stillWaited), waited,
  }
  const actors: ActorSpec[] = p.actors.map((a) => ({ ...a, ops: a.ops.map((op) => resolveOperation(op, r) ?? pause()) }))
  const env = p.env
  if (env === undefined) return { ...p, actors }
  const out: EnvironmentSpec = { ...env }
  const set = <K extends keyof EnvironmentSpec>(key: K, value: EnvironmentSpec[K] | undefined): void => {
    if (value === undefined) delete out[key]
    else out[key] = value
  }
  if (env.listeners) {
    const ls = env.listeners.map((l) => resolveListener(l, r)).filter((x): x is ListenerSpec => x !== undefined)
    set('listeners', ls.length > 0 ? ls : undefined)
  }
  if (env.effects) set('effects', resolveEach(env.effects, (e) => e.disposer, (e, disposer) => ({ ...e, disposer }), r))
  if (env.model) {
    set('model', rekey(Object.fromEntries(Object.entries(env.model).map(([id, steps]) => [id, steps.map((m) => {
      if (m.reply !== 'tool' || !m.op) return m
      const op = resolveOperation(m.op, r)
      return op ? { ...m, op } : { reply: 'tool' as const }
    })])), d.agents))
  }
  if (env.loads) set('loads', rekey(Object.fromEntries(Object.entries(env.loads).map(([id, l]) => [id, l.load === 'hang' ? l : regate(l, r)])), d.resumed))
  if (env.preparations) {
    set('preparations', rekey(Object.fromEntries(Object.entries(env.preparations).map(([id, prep]): [string, PreparationSpec] => {
      const { onRelease, ...rest } = regate(prep, r)
      const release = onRelease === undefined ? undefined : resolveAction(onRelease, r)
      return [id, release === undefined ? rest : { ...rest, onRelease: release }]
    })), d.resumed))
  }
  if (env.minting) set('minting', resolveEach(env.minting, (m) => m.action, (m, action) => ({ ...m, action }), r))
  return { ...p, actors, env: out }
}
