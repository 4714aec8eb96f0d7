/**
 * The canonical form of a program: the same for two programs that differ only in the names of
 * their ids (sessions, actors and owners, signals) or in the order of their actors, so an
 * enumeration can run each class once.
 *
 * Actors are ordered by their operations with every id abstracted away, then ids are renamed in
 * order of first use: sessions `s1, s2, …`, actors and owners (an actor's name is also the owner of
 * its creations) `a1, a2, …`, signals `g1, …`. Actors whose abstracted operations are equal keep
 * their relative order (two such actors differing only in which ids they use are told apart by the
 * renaming, not the order).
 * @module
 */
import type { Action, ActorSpec, ListenerSpec, Operation, Program, SetupSpec } from '../../sim/program/program.js'

type Rename = (kind: 'session' | 'actor' | 'signal', id: string) => string

function renameAction(a: Action, r: Rename): Action {
  return a.do === 'op' ? { do: 'op', op: renameOp(a.op, r) } : a
}

function renameListener(l: ListenerSpec, r: Rename): ListenerSpec {
  return {
    ...l, ...(l.session === undefined ? {} : { session: r('session', l.session) }), action: renameAction(l.action, r),
    ...(l.onAbort ? { onAbort: renameAction(l.onAbort, r) } : {}),
  }
}

function renameSetup(s: SetupSpec, r: Rename): SetupSpec {
  return {
    ...s, ...(s.commitOp ? { commitOp: renameOp(s.commitOp, r) } : {}),
    ...(s.effects ? { effects: s.effects.map((e) => ({ disposer: renameAction(e.disposer, r) })) } : {}),
    ...(s.listeners ? { listeners: s.listeners.map((l) => renameListener(l, r)) } : {}),
  }
}

function renameOp(o: Operation, r: Rename): Operation {
  const out = { ...o } as Record<string, unknown> & Operation
  if ('session' in o && o.session !== undefined) out.session = r('session', o.session)
  if ('owner' in o && o.owner !== undefined) (out as { owner: string }).owner = r('actor', o.owner)
  if ('signal' in o && o.signal !== undefined) (out as { signal: string }).signal = r('signal', o.signal)
  if ('parent' in o && o.parent !== undefined) (out as { parent: string }).parent = r('session', o.parent)
  if ('setup' in o && o.setup !== undefined) (out as { setup: SetupSpec }).setup = renameSetup(o.setup, r)
  if ('onAbort' in o && o.onAbort !== undefined) (out as { onAbort: Action }).onAbort = renameAction(o.onAbort, r)
  if (o.op === 'boundary') (out as { ops: Operation[] }).ops = o.ops.map((n) => renameOp(n, r))
  return out
}

function renameKeys<T>(record: Record<string, T> | undefined, r: Rename): Record<string, T> | undefined {
  if (record === undefined) return undefined
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [r('session', k), v]))
}

/** `p` with every id renamed by `r`, visiting ids in a fixed order (actors, then the environment). */
function renameProgram(p: Program, actors: readonly ActorSpec[], r: Rename): Program {
  const renamedActors = actors.map((a) => ({ id: r('actor', a.id), ops: a.ops.map((o) => renameOp(o, r)) }))
  const env = p.env
  if (env === undefined) return { v: p.v, actors: renamedActors }
  const out: Program = { v: p.v, actors: renamedActors, env: {
    ...env,
    ...(env.listeners ? { listeners: env.listeners.map((l) => renameListener(l, r)) } : {}),
    ...(env.effects ? { effects: env.effects.map((e) => ({ ...e, on: e.on === 'root' ? 'root' as const : `owner:${r('actor', e.on.slice('owner:'.length))}` as const, disposer: renameAction(e.disposer, r) })) } : {}),
    ...(env.model ? { model: renameKeys(env.model, r)! } : {}),
    ...(env.loads ? { loads: renameKeys(env.loads, r)! } : {}),
    ...(env.persisted ? { persisted: env.persisted.map((s) => ({ ...s, id: r('session', s.id) })) } : {}),
    ...(env.minting ? { minting: env.minting.map((m) => ({ ...m, action: renameAction(m.action, r) })) } : {}),
  } }
  return out
}

/** A renaming in order of first use, per kind. */
function firstUse(): Rename {
  const maps = { session: new Map<string, string>(), actor: new Map<string, string>(), signal: new Map<string, string>() }
  const prefix = { session: 's', actor: 'a', signal: 'g' }
  return (kind, id) => {
    const map = maps[kind]
    let to = map.get(id)
    if (to === undefined) map.set(id, (to = `${prefix[kind]}${map.size + 1}`))
    return to
  }
}

/** The canonical form of `p` (its name dropped): equal for programs equal up to id renaming and actor order. */
export function canonicalProgram(p: Program): Program {
  const abstract: Rename = (kind) => `#${kind}`
  const keyed = p.actors.map((a, i) => ({ a, i, key: JSON.stringify(a.ops.map((o) => renameOp(o, abstract))) }))
  keyed.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.i - y.i))
  return renameProgram(p, keyed.map((k) => k.a), firstUse())
}

/** The canonical form as text, to key a set of programs already run. */
export function canonicalKey(p: Program): string {
  return JSON.stringify(canonicalProgram(p))
}
