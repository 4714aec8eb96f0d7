/**
 * What a program names must exist in it. A program that unloads an owner no actor or creation
 * uses, sends to a session no operation creates, resumes, registers or enters, aborts a signal no
 * creation carries, or filters a listener on an event type the session log never carries does
 * nothing where its author meant it to act, and passes against the bug it was written to catch.
 * {@link validateReferences} refuses such a program, naming the field; {@link resolveReferences}
 * turns a generated or mutated program into one that validates (renaming what it names to what
 * exists, else dropping it: `resolve-references.ts`), deterministically and without drawing anything.
 *
 * What exists:
 * - a **session id** is created, resumed, registered or entered by an operation anywhere (an
 *   actor's list, a boundary, a listener's or abort observer's action, an effect's disposer, a
 *   commit, a tool body, a minting behaviour). `announce` and `detach` act on stubs an `enter` of
 *   that id made. `env.model` keys name a session something creates or resumes, `env.loads` keys one
 *   something resumes (only a resume loads);
 * - an **owner** is an actor (its creations are owned by its own fiber), an `owner` a create or
 *   resume names, a fiber an `env.effects` entry is registered on (`owner:<name>`), or `inline`
 *   when an operation inside a behaviour creates or resumes without naming one;
 * - a **signal** is one a create or resume carries;
 * - a **gate** something waits on (a `wait` action, a gated load or preparation hand-over) must be
 *   opened by an `openGate`, and an `openGate` must open a gate something waits on; `env.preparations`
 *   keys name a session something resumes;
 * - a **session event type** (`eventType`, on `session/event` listeners only) is one of
 *   {@link SESSION_EVENT_TYPES}.
 * @module
 */

// The parts of a program this module reads, structurally: program.ts calls it from validateProgram,
// so it cannot import program.ts's types (no import circle); a Program is one of these.
/** An operation, as far as its names go. */
interface Op {
  readonly op: string
  readonly session?: string
  readonly parent?: string
  readonly owner?: string
  readonly signal?: string
  readonly gate?: string
  readonly setup?: Setup
  readonly ops?: readonly Op[]
  readonly onAbort?: Action
}
interface Action { readonly do: string; readonly op?: Op; readonly gate?: string }
interface Listener { readonly event: string; readonly session?: string; readonly eventType?: string; readonly action: Action; readonly onAbort?: Action }
interface Setup { readonly commitOp?: Op; readonly effects?: readonly { readonly disposer: Action }[]; readonly listeners?: readonly Listener[] }
/** A program, as far as its names go. */
export interface ProgramNames {
  readonly actors: readonly { readonly id: string; readonly ops: readonly Op[] }[]
  readonly env?: {
    readonly listeners?: readonly Listener[]
    readonly effects?: readonly { readonly on: string; readonly disposer: Action }[]
    readonly model?: Readonly<Record<string, readonly { readonly reply: string; readonly op?: Op }[]>>
    readonly loads?: Readonly<Record<string, { readonly load: string; readonly gate?: string }>>
    readonly preparations?: Readonly<Record<string, { readonly gate?: string; readonly onRelease?: Action }>>
    readonly minting?: readonly { readonly action: Action }[]
  }
}

/** The event types a session log carries (§3.2, §10.1): what a `session/event` listener may filter on. */
export const SESSION_EVENT_TYPES = ['agent/inbox/spliced', 'turn/start', 'turn/end', 'step/start', 'user/message', 'assistant/message', 'step/end'] as const

/** A name a program refers to that nothing in it defines. */
export interface DanglingReference {
  /** Where, as a validation message names a field (`.actors[0].ops[2].session`). */
  readonly path: string
  readonly message: string
}

/** The names a program defines. */
export interface Defined {
  readonly sessions: Set<string>
  /** Sessions something creates or resumes (an agent of the id may call the model). */
  readonly agents: Set<string>
  readonly resumed: Set<string>
  readonly entered: Set<string>
  readonly owners: Set<string>
  readonly signals: Set<string>
  /** Gates an `openGate` opens. */
  readonly opened: Set<string>
  /** Gates something waits on. */
  readonly waited: Set<string>
}

/**
 * Where in a program a walk is, as a validation message names a field (`.actors[0].ops[2]`): built
 * as a string only when a message needs it (a walk visits every node; few of them are reported).
 */
export class NamePath {
  constructor(readonly parent: NamePath | undefined, readonly key: string, readonly index = -1) {}

  toString(): string {
    return `${this.parent === undefined ? '' : this.parent.toString()}${this.key}${this.index < 0 ? '' : `[${this.index}]`}`
  }
}

/** What a walk visits: every operation (with the actor it runs under, undefined inside a behaviour), listener and action. */
export interface Visitor {
  op?(op: Op, path: NamePath, actor: string | undefined): void
  listener?(l: Listener, path: NamePath): void
  /** Every action: a listener's, an abort observer's, an effect's disposer, a minting behaviour's, a release's. */
  action?(a: Action, path: NamePath): void
}

function walkAction(a: Action, path: NamePath, v: Visitor): void {
  v.action?.(a, path)
  if (a.do === 'op' && a.op) walkOperation(a.op, new NamePath(path, '.op'), undefined, v)
}

function walkSetup(s: Setup, path: NamePath, v: Visitor): void {
  if (s.commitOp) walkOperation(s.commitOp, new NamePath(path, '.commitOp'), undefined, v)
  s.effects?.forEach((e, i) => walkAction(e.disposer, new NamePath(new NamePath(path, '.effects', i), '.disposer'), v))
  s.listeners?.forEach((l, i) => walkListener(l, new NamePath(path, '.listeners', i), v))
}

function walkListener(l: Listener, path: NamePath, v: Visitor): void {
  v.listener?.(l, path)
  walkAction(l.action, new NamePath(path, '.action'), v)
  if (l.onAbort) walkAction(l.onAbort, new NamePath(path, '.onAbort'), v)
}

function walkOperation(op: Op, path: NamePath, actor: string | undefined, v: Visitor): void {
  v.op?.(op, path, actor)
  if ((op.op === 'create' || op.op === 'resume') && op.setup) walkSetup(op.setup, new NamePath(path, '.setup'), v)
  if (op.op === 'boundary') op.ops?.forEach((nested, i) => walkOperation(nested, new NamePath(path, '.ops', i), actor, v))
  if (op.op === 'runMaintenance' && op.onAbort) walkAction(op.onAbort, new NamePath(path, '.onAbort'), v)
}

const ROOT = undefined

/** Visit every operation, listener and action of a program, with their paths. */
export function walkNames(p: ProgramNames, v: Visitor): void {
  p.actors.forEach((a, i) => {
    const actor = new NamePath(ROOT, '.actors', i)
    a.ops.forEach((op, j) => walkOperation(op, new NamePath(actor, '.ops', j), a.id, v))
  })
  const env = p.env
  if (!env) return
  env.listeners?.forEach((l, i) => walkListener(l, new NamePath(ROOT, '.env.listeners', i), v))
  env.effects?.forEach((e, i) => walkAction(e.disposer, new NamePath(new NamePath(ROOT, '.env.effects', i), '.disposer'), v))
  for (const [id, steps] of Object.entries(env.model ?? {})) {
    steps.forEach((m, i) => { if (m.reply === 'tool' && m.op) walkOperation(m.op, new NamePath(new NamePath(ROOT, `.env.model.${id}`, i), '.op'), undefined, v) })
  }
  env.minting?.forEach((m, i) => walkAction(m.action, new NamePath(new NamePath(ROOT, '.env.minting', i), '.action'), v))
  for (const [id, prep] of Object.entries(env.preparations ?? {})) if (prep.onRelease) walkAction(prep.onRelease, new NamePath(ROOT, `.env.preparations.${id}.onRelease`), v)
}

/** The gate action `a` waits on, if it is a `wait` on one. */
function waitedGate(a: Action): string | undefined {
  return a.do === 'wait' ? a.gate : undefined
}

/** The environment's gate waits (gated loads, then preparation hand-overs), each with its field's path. */
function envGateWaits(p: ProgramNames): { gate: string; field: string }[] {
  const out: { gate: string; field: string }[] = []
  for (const [id, l] of Object.entries(p.env?.loads ?? {})) if (l.gate !== undefined) out.push({ gate: l.gate, field: `.env.loads.${id}.gate` })
  for (const [id, prep] of Object.entries(p.env?.preparations ?? {})) if (prep.gate !== undefined) out.push({ gate: prep.gate, field: `.env.preparations.${id}.gate` })
  return out
}

/** Every gate something waits on (a `wait` action, a gated load or preparation hand-over), with its path. */
export function gateWaits(p: ProgramNames): { gate: string; path: NamePath }[] {
  const out: { gate: string; path: NamePath }[] = []
  walkNames(p, { action: (a, path) => { const gate = waitedGate(a); if (gate !== undefined) out.push({ gate, path: new NamePath(path, '.gate') }) } })
  for (const { gate, field } of envGateWaits(p)) out.push({ gate, path: new NamePath(ROOT, field) })
  return out
}

/** The names `p` defines. */
export function definedNames(p: ProgramNames): Defined {
  const d: Defined = {
    sessions: new Set(), agents: new Set(), resumed: new Set(), entered: new Set(), owners: new Set(p.actors.map((a) => a.id)), signals: new Set(),
    opened: new Set(), waited: new Set(),
  }
  for (const e of p.env?.effects ?? []) if (e.on.startsWith('owner:')) d.owners.add(e.on.slice('owner:'.length))
  // One walk for waits and definitions: `waited` takes the gates in `gateWaits` order (its wait
  // actions in walk order, then gated loads, then preparations), which renaming depends on.
  walkNames(p, { action: (a) => { const gate = waitedGate(a); if (gate !== undefined) d.waited.add(gate) }, op: (op, _path, actor) => {
    switch (op.op) {
      case 'create': case 'resume':
        d.sessions.add(op.session!)
        d.agents.add(op.session!)
        if (op.op === 'resume') d.resumed.add(op.session!)
        if (op.owner !== undefined) d.owners.add(op.owner)
        else if (actor === undefined && (op.op === 'resume' || op.parent === undefined)) d.owners.add('inline')
        if (op.signal !== undefined) d.signals.add(op.signal)
        return
      case 'register': d.sessions.add(op.session!); return
      case 'enter': d.sessions.add(op.session!); d.entered.add(op.session!); return
      case 'openGate': d.opened.add(op.gate!); return
      default:
    }
  } })
  for (const { gate } of envGateWaits(p)) d.waited.add(gate)
  return d
}

/** The session id an operation targets without defining it, if any. */
function sessionRef(op: Op): string | undefined {
  switch (op.op) {
    case 'create': return op.parent
    case 'resume': case 'register': case 'enter': return undefined
    case 'abortSignal': case 'unloadOwner': case 'unloadFactory': case 'shutdown': case 'restart': case 'crash': case 'pause': case 'openGate': return undefined
    default: return op.session
  }
}

function quoted(names: Iterable<string>): string {
  const list = [...names].sort()
  return list.length === 0 ? 'none' : list.map((n) => JSON.stringify(n)).join(', ')
}

/** Every name `p` refers to that nothing in it defines (empty for a program that validates). */
export function danglingReferences(p: ProgramNames): DanglingReference[] {
  const out: DanglingReference[] = []
  eachDangling(p, definedNames(p), (path, message) => { out.push({ path, message: message() }) })
  return out
}

/**
 * Whether `p` refers to a name nothing in it defines (`danglingReferences(p)` is not empty), given
 * `d`, its {@link definedNames}: no message is built. Resolving a generated or mutated program
 * asks it once per pass, of every program a campaign draws or mutates.
 */
export function hasDanglingReferences(p: ProgramNames, d: Defined = definedNames(p)): boolean {
  let found = false
  eachDangling(p, d, () => { found = true })
  return found
}

/** Calls `missing` for every name `p` refers to that `d` (its definitions) lacks, in order; a message is built only when asked for. */
function eachDangling(p: ProgramNames, d: Defined, missing: (path: string, message: () => string) => void): void {
  walkNames(p, { op: (op, path) => {
    const session = sessionRef(op)
    if (op.op === 'announce' || op.op === 'detach') {
      if (!d.entered.has(op.session!)) missing(`${path}.session`, () => `no operation enters a stub under session ${JSON.stringify(op.session)} (${op.op} acts on stubs an enter made; entered: ${quoted(d.entered)})`)
    } else if (session !== undefined && !d.sessions.has(session)) {
      missing(`${path}.${op.op === 'create' ? 'parent' : 'session'}`, () => `no operation creates, resumes, registers or enters session ${JSON.stringify(session)} (sessions: ${quoted(d.sessions)})`)
    }
    if (op.op === 'unloadOwner' && !d.owners.has(op.owner!)) missing(`${path}.owner`, () => `no actor, creation or owner effect uses owner ${JSON.stringify(op.owner)} (owners: ${quoted(d.owners)})`)
    if (op.op === 'abortSignal' && !d.signals.has(op.signal!)) missing(`${path}.signal`, () => `no create or resume carries signal ${JSON.stringify(op.signal)} (signals: ${quoted(d.signals)})`)
    if (op.op === 'openGate' && !d.waited.has(op.gate!)) missing(`${path}.gate`, () => `nothing waits on gate ${JSON.stringify(op.gate)} (a wait action, a gated load or preparation; waited: ${quoted(d.waited)})`)
  }, listener: (l, path) => {
    if (l.session !== undefined && !d.sessions.has(l.session)) missing(`${path}.session`, () => `no operation creates, resumes, registers or enters session ${JSON.stringify(l.session)} (sessions: ${quoted(d.sessions)})`)
    if (l.eventType !== undefined) {
      if (l.event !== 'session/event') missing(`${path}.eventType`, () => `only a session/event listener sees an appended event type; this one listens to ${l.event}`)
      else if (!(SESSION_EVENT_TYPES as readonly string[]).includes(l.eventType)) missing(`${path}.eventType`, () => `a session log never carries event type ${JSON.stringify(l.eventType)}; expected one of ${SESSION_EVENT_TYPES.join(', ')}`)
    }
  } })
  // Only a wait on a gate nothing opens is reported: the waits and their paths are listed only then.
  if (someMissing(d.waited, d.opened)) for (const w of gateWaits(p)) {
    if (!d.opened.has(w.gate)) missing(String(w.path), () => `no openGate opens gate ${JSON.stringify(w.gate)} (opened: ${quoted(d.opened)})`)
  }
  for (const id of Object.keys(p.env?.preparations ?? {})) {
    if (!d.resumed.has(id)) missing(`.env.preparations.${id}`, () => `no operation resumes session ${JSON.stringify(id)}, so no preparation of it is ever made (resumed: ${quoted(d.resumed)})`)
  }
  for (const id of Object.keys(p.env?.model ?? {})) {
    if (!d.agents.has(id)) missing(`.env.model.${id}`, () => `no operation creates or resumes session ${JSON.stringify(id)}, so no agent of it calls the model (created or resumed: ${quoted(d.agents)})`)
  }
  for (const id of Object.keys(p.env?.loads ?? {})) {
    if (!d.resumed.has(id)) missing(`.env.loads.${id}`, () => `no operation resumes session ${JSON.stringify(id)}, so it is never loaded (resumed: ${quoted(d.resumed)})`)
  }
}

/** Whether a name of `names` is not in `defined`. */
function someMissing(names: ReadonlySet<string>, defined: ReadonlySet<string>): boolean {
  for (const name of names) if (!defined.has(name)) return true
  return false
}

/**
 * Throws `fail(path, message)` for the first name `p` refers to that nothing in it defines.
 * Called by `validateProgram` once the program's shape is valid.
 */
export function checkReferences(p: ProgramNames, fail: (path: string, message: string) => never): void {
  const first = danglingReferences(p)[0]
  if (first) fail(first.path, first.message)
}
