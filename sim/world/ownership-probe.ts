/**
 * The ownership probe (`env.ownership`): after every event, the registry's ownership queries must
 * agree with how the live agents were created. An agent created through a live parent's context is
 * owned by that parent (`isOwnedBy(child.id, parent)`) and is not among `roots()`; no live agent owns
 * itself (§1.7, §9 5–6). Each disagreement is returned as a line for an `ownership:` trace mark.
 * @module
 */
import type { Agent } from '../../core/contract.js'
import type { WorldHost } from './world-host.js'

/** The mark label prefix of an ownership disagreement. */
export const OWNERSHIP_MARK = 'ownership:'

/** Disagreements between the registry's ownership queries and the program's creations, now. */
export function probeOwnership(world: WorldHost): string[] {
  const agents = world.ctx.agents
  const out: string[] = []
  const live = agents.list()
  const roots = new Set<Agent>(agents.roots())
  for (const agent of live) {
    if (agents.isOwnedBy(agent.id, agent)) out.push(`"${agent.id}" owns itself (isOwnedBy(id, itself) is true)`)
  }
  for (const [id, owner] of world.handleOwners) {
    if (!owner.name.startsWith('agent:')) continue
    const child = agents.get(id)
    const parent = agents.get(owner.name.slice('agent:'.length))
    // Only the live entry created by this program's handle, with its parent still live.
    if (!child || !parent || world.handles.get(id)?.agent !== child) continue
    if (!agents.isOwnedBy(id, parent)) out.push(`"${id}" was created through "${parent.id}" but isOwnedBy("${id}", "${parent.id}") is false`)
    if (roots.has(child)) out.push(`"${id}" was created through "${parent.id}" but is listed in roots()`)
  }
  return out
}
