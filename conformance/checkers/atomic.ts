/**
 * AGENT-ATOMIC-TEST: same-id arbitration (exactly one winner, the loser leaves nothing) and
 * registry/store coherence after every event (no orphan session, no agent without its session).
 * @module
 */
import type { Analysis } from './analysis.js'
import { keyOf } from './analysis.js'
import { R } from './declines.js'
import { violation } from './violation.js'
import { windowsOf } from './windows.js'
import type { Violation } from './violation.js'

const GROUP = 'AGENT-ATOMIC-TEST'

/** Check arbitration and coherence. */
export function checkAtomic(a: Analysis): Violation[] {
  const out: Violation[] = []
  // 64: one lifecycle per id at a time.
  for (const life of a.lives) {
    for (const repeat of life.repeats) {
      if (repeat.name === 'session/created') out.push(violation(GROUP, 64, `"${life.id}": a second session/created while the first lifecycle is live (two creates won)`, repeat))
    }
  }
  // 64: two creates of one id resolving ok for overlapping lifecycles.
  const winners = new Map<string, number>()
  const bySessionCreated = [...a.txs.values()].sort((x, y) => (x.life?.sessionCreated.i ?? x.invoke.i) - (y.life?.sessionCreated.i ?? y.invoke.i))
  for (const tx of bySessionCreated) {
    if (tx.outcome?.status !== 'ok') continue
    const key = keyOf(tx.world, tx.id)
    const life = tx.life
    if (!life) {
      out.push(violation(GROUP, 64, `"${tx.id}": ${tx.spec.op} by ${tx.actor} resolved but published no session/created of its own`, tx.outcome))
      continue
    }
    const previous = winners.get(key)
    if (previous !== undefined && previous > life.sessionCreated.i) out.push(violation(GROUP, 64, `"${tx.id}": two ${tx.spec.op}s resolved for overlapping lifecycles`, tx.outcome))
    winners.set(key, life.sessionDisposed?.i ?? Number.POSITIVE_INFINITY)
  }
  // 65: coherence at every observed moment. A session may outlive its agent only between
  // agent/disposed and session/disposed (§5.3); an agent never outlives its session.
  // Ids the program holds with an agent registered directly (§3.5 L): the stub has no session. It
  // may hold the id from its register (or enter) until the registry no longer lists the id: while
  // it does, no lifecycle's agent can be registered under it.
  // (per id, the register or enter invokes that may hold it: a refused one is dropped at its
  // outcome, and only its own: nested registers of one id settle out of order)
  const stubs = new Map<string, Set<number>>()
  const stubAt = new Map<number, string>()
  // (a register or enter refused never held the id)
  const refusedAt = new Map<number, { readonly key: string; readonly invoke: number }>()
  for (const w of windowsOf(a)) {
    if (w.spec.op !== 'register' && w.spec.op !== 'enter') continue
    stubAt.set(w.invoke.i, keyOf(w.world, w.spec.session))
    if (w.outcome && (w.outcome.status === 'fail' || /^rejected/.test(w.outcome.detail))) refusedAt.set(w.outcome.i, { key: keyOf(w.world, w.spec.session), invoke: w.invoke.i })
  }
  // 57: a creation that collided with such an agent rejects leaving no orphan session behind.
  const d = a.declines
  for (const tx of a.txs.values()) {
    const o = tx.outcome
    if (o?.status !== 'fail' || !/already registered/.test(o.detail)) continue
    // (the session in the store may be the live same-id lifecycle's: only an orphan under every reading is one)
    const orphan = o.snap.sessions.includes(tx.id) && !tx.life
    if (orphan && a.lives.some((l) => l.world === tx.world && l.id === tx.id && l.sessionCreated.i < o.i && (!l.sessionDisposed || l.sessionDisposed.i > o.i))) {
      d.declined(57, R.storeOwner)
      continue
    }
    d.judged(57)
    if (orphan) out.push(violation('AGENT-SCOPE-LIFECYCLE', 57, `"${tx.id}": ${tx.spec.op} rejected (${o.detail}) but left its session in the store (an orphan)`, o))
  }
  const tearing = new Set<string>()
  // Sessions announced (session/created) and not yet disposed. A session in the store that was never
  // announced belongs to a creation still in flight: entered, then rolled back as a same-id loser
  // whose agent collided (§3.5 row L), it stays until that rollback's step 6 removes it silently
  // (whether it is gone when the creation rejects is clause 57's).
  const announced = new Set<string>()
  const inFlight = (world: number, id: string, at: number): boolean =>
    [...a.txs.values()].some((tx) => tx.world === world && tx.id === id && tx.invoke.i < at && (tx.outcome === undefined || tx.outcome.i > at))
  let generation = 0
  let judged = false
  let last: { agents: readonly string[]; sessions: readonly string[] } | undefined
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    const stub = stubAt.get(e.i)
    if (stub) stubs.set(stub, (stubs.get(stub) ?? new Set()).add(e.i))
    const refused = refusedAt.get(e.i)
    const holders = refused && stubs.get(refused.key)
    if (refused && holders) {
      holders.delete(refused.invoke)
      if (holders.size === 0) stubs.delete(refused.key)
    }
    generation = Math.max(generation, e.world)
    // An operation of an earlier process settling after a restart or crash: its entry carries that
    // process's number but the snapshot of the one running now, whose stubs are keyed by its own.
    // (judged all the same when it shows what the last entry of the running process showed)
    if (e.k === 'outcome' && e.world < generation) {
      if (!last || !sameSnap(last, e.snap)) d.declined(65, R.lateOutcome)
      continue
    }
    if (e.k === 'event' || e.k === 'append' || e.k === 'outcome' || e.k === 'final') last = e.snap
    if (e.k === 'event' && e.name === 'agent/disposed') tearing.add(keyOf(e.world, e.id))
    if (e.k === 'event' && e.name === 'session/disposed') tearing.delete(keyOf(e.world, e.id))
    if (e.k === 'event' && e.name === 'session/created') announced.add(keyOf(e.world, e.id))
    if (e.k === 'event' && e.name === 'session/disposed') announced.delete(keyOf(e.world, e.id))
    if (e.k !== 'event' && e.k !== 'append' && e.k !== 'outcome' && e.k !== 'final') continue
    judged = true
    const { agents, sessions } = e.snap
    if (stubs.size > 0) for (const key of stubs.keys()) if (key.startsWith(`${e.world}/`) && !agents.includes(key.slice(key.indexOf('/') + 1))) stubs.delete(key)
    for (const id of agents) {
      if (sessions.includes(id)) continue
      // (an id a stub holds: the agent is the stub, which has no session)
      if (!stubs.has(keyOf(e.world, id))) out.push(violation(GROUP, 65, `agent "${id}" is registered without its session (agents=[${agents}] sessions=[${sessions}])`, e))
    }
    for (const id of sessions) {
      if (agents.includes(id) || tearing.has(keyOf(e.world, id))) continue
      // (a session never announced while a same-id creation is in flight may be a loser's, §3.5 row L)
      if (!announced.has(keyOf(e.world, id)) && inFlight(e.world, id, e.i)) d.declined(65, R.storeOwner)
      else out.push(violation(GROUP, 65, `session "${id}" is in the store with no agent (an orphan; agents=[${agents}] sessions=[${sessions}])`, e))
    }
  }
  if (judged) d.judged(65)
  return dedupe(out)
}

function sameSnap(x: { agents: readonly string[]; sessions: readonly string[] }, y: { agents: readonly string[]; sessions: readonly string[] }): boolean {
  return x.agents.length === y.agents.length && x.sessions.length === y.sessions.length && x.agents.every((id, k) => y.agents[k] === id) && x.sessions.every((id, k) => y.sessions[k] === id)
}

/** One violation per clause and message is enough (coherence breaks persist across entries). */
export function dedupe(violations: Violation[]): Violation[] {
  // (most runs have no violation to compare)
  if (violations.length < 2) return violations
  const seen = new Set<string>()
  return violations.filter((v) => {
    const key = `${v.key}|${v.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
