/**
 * AGENT-REGISTRY-LIFECYCLE / AGENT-REGISTRY-TEST as seen through a factory: created at most once,
 * disposed iff announced, never-announced entries silent, announced entries never vanish silently
 * (a stale capability deleting a replacement), disposed listeners see the entry gone.
 * @module
 */
import type { Analysis } from './analysis.js'
import { keyOf } from './analysis.js'
import { R } from './declines.js'
import { dedupe } from './atomic.js'
import { violation } from './violation.js'
import { stubKeys } from './windows.js'
import type { Violation } from './violation.js'

const GROUP = 'AGENT-REGISTRY-TEST'

/** Check per-entry pairing and exact-entry removal. */
export function checkRegistry(a: Analysis): Violation[] {
  const out: Violation[] = []
  const d = a.declines
  for (const life of a.lives) {
    if (life.agentDisposed || life.sessionDisposed) d.judged(79)
    if (life.agentCreated) d.judged(74)
    for (const repeat of life.repeats) {
      if (repeat.name === 'agent/created' || repeat.name === 'agent/session-start') out.push(violation(GROUP, 74, `"${life.id}": ${repeat.name} emitted twice for one entry`, repeat))
    }
    if (life.agentDisposed && life.agentDisposed.snap.agents.includes(life.id)) out.push(violation(GROUP, 82, `"${life.id}": agent/disposed listeners still find the agent in the registry`, life.agentDisposed))
    if (life.sessionDisposed && life.sessionDisposed.snap.sessions.includes(life.id)) out.push(violation(GROUP, 88, `"${life.id}": session/disposed listeners still find the session in the store`, life.sessionDisposed))
  }
  // A stub the program registered directly is disposed with its registry, never announced by a factory.
  const stubs = stubKeys(a)
  for (const stray of a.strayDisposals) {
    // (the edge may be the stub's, which no lifecycle announced; with facts, a stub's edges never get here)
    if (!a.facts.present && stubs.has(keyOf(stray.world, stray.id))) {
      d.declined(79, R.stubEdge)
      continue
    }
    out.push(violation(GROUP, 79, `"${stray.id}": ${stray.name} for an entry whose announcement never began (or a second time)`, stray))
  }
  // 76: an announced entry leaves its registry only with its disposed edge.
  const announcedAgents = new Set<string>()
  const announcedSessions = new Set<string>()
  let previous: { agents: readonly string[]; sessions: readonly string[]; world: number } | undefined
  // Processes whose final state was recorded (restarted or crashed): an operation of theirs settling
  // later carries their number but the snapshot of the process running then.
  const ended = new Set<number>()
  let judged = false
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    if (ended.has(e.world)) {
      // (the process is gone: what its code still emits carries the registries of the one running now)
      if (e.k === 'event' || e.k === 'append') d.declined(76, R.lateOutcome)
      continue
    }
    if (e.k === 'final') ended.add(e.world)
    judged = true
    if (e.k === 'event') {
      const key = keyOf(e.world, e.id)
      if (e.name === 'agent/created') announcedAgents.add(key)
      if (e.name === 'session/created') announcedSessions.add(key)
      if (e.name === 'agent/disposed') announcedAgents.delete(key)
      if (e.name === 'session/disposed') announcedSessions.delete(key)
    }
    if (e.k !== 'event' && e.k !== 'append' && e.k !== 'outcome' && e.k !== 'final') continue
    if (previous && previous.world === e.world) {
      for (const id of previous.agents) {
        const key = keyOf(e.world, id)
        if (!e.snap.agents.includes(id) && announcedAgents.has(key) && !(e.k === 'event' && e.name === 'agent/disposed' && e.id === id)) {
          out.push(violation(GROUP, 76, `announced agent "${id}" left the registry without agent/disposed`, e))
          announcedAgents.delete(key)
        }
      }
      for (const id of previous.sessions) {
        const key = keyOf(e.world, id)
        if (!e.snap.sessions.includes(id) && announcedSessions.has(key) && !(e.k === 'event' && e.name === 'session/disposed' && e.id === id)) {
          out.push(violation(GROUP, 76, `announced session "${id}" left the store without session/disposed`, e))
          announcedSessions.delete(key)
        }
      }
    }
    previous = { agents: e.snap.agents, sessions: e.snap.sessions, world: e.world }
  }
  if (judged) d.judged(76)
  return dedupe(out)
}
