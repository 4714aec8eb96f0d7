/**
 * Registry mutant (§9 76–77, P-EXACT): a detach removes whatever entry holds the id, so a stale
 * detach of an old agent removes its same-id replacement.
 */
import type { SessionId } from '../../../core/contract.js'
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p04-detach-by-id', reproduces: '§9 76: a stale detach after a same-id replacement removes the replacement (removal by id, not exact entry)' },
  ({ registry }) => {
    const current = new Map<SessionId, () => void>()
    const enter = registry.enter.bind(registry)
    registry.enter = (agent, owner) => {
      const detach = enter(agent, owner)
      current.set(agent.id, detach)
      // BUG: detach the id's current entry, whichever it is.
      return () => { (current.get(agent.id) ?? detach)(); detach() }
    }
  },
)
