/**
 * The registries' snapshot a trace entry records (`snap`): both registries' ids in list order.
 * @module
 */
import type { Snapshot } from '../trace/trace.js'

/**
 * The snapshot of these registry lists: `last` itself when it holds the same ids in the same order.
 * Most trace entries see the registries as the entry before them saw them, so they share its
 * snapshot (nothing mutates one) instead of allocating two arrays each.
 */
export function registrySnapshot(agents: readonly { readonly id: string }[], sessions: readonly { readonly id: string }[], last: Snapshot | undefined): Snapshot {
  if (last !== undefined && sameIds(last.agents, agents) && sameIds(last.sessions, sessions)) return last
  return { agents: agents.map((a) => a.id), sessions: sessions.map((s) => s.id) }
}

function sameIds(ids: readonly string[], items: readonly { readonly id: string }[]): boolean {
  if (ids.length !== items.length) return false
  for (let i = 0; i < ids.length; i++) if (ids[i] !== items[i]!.id) return false
  return true
}
