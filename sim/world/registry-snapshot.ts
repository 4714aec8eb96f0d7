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
  return { agents: idsOf(agents), sessions: idsOf(sessions) }
}

/**
 * An empty array of strings as V8 holds a non-empty one (`PACKED_ELEMENTS`). An empty literal, or
 * the `map` of an empty list, is a small-integer array, and `map` makes a holey array in optimized
 * code: each a hidden class of its own. Every checker reads these lists (`includes`, `for … of`),
 * and one optimized on the lists of one kind was deoptimized, and compiled again, at the first list
 * of another.
 */
const NO_IDS: readonly string[] = ['-'].slice(1)

/** The ids of `items`, always in an array of one kind: pushed onto a copy of {@link NO_IDS}. */
function idsOf(items: readonly { readonly id: string }[]): string[] {
  const ids = NO_IDS.slice()
  for (let i = 0; i < items.length; i++) ids.push(items[i]!.id)
  return ids
}

function sameIds(ids: readonly string[], items: readonly { readonly id: string }[]): boolean {
  if (ids.length !== items.length) return false
  for (let i = 0; i < ids.length; i++) if (ids[i] !== items[i]!.id) return false
  return true
}
