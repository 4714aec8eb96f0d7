/**
 * Registry mutant (§9 78, §4 announce step 5): a detach called from inside the entry's own
 * `agent/created` dispatch is dropped instead of deferred, so the entry stays registered after the
 * dispatch and `agent/disposed` never comes (a registry that ignores detaches while announcing).
 */
import type { Agent } from '../../../core/contract.js'
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p20-deferred-detach-lost', reproduces: '§9 78: a detach requested by a created listener is lost instead of performed after the dispatch' },
  ({ registry }) => {
    const announcing = new Set<Agent>()
    const announce = registry.announce.bind(registry)
    registry.announce = (agent) => {
      announcing.add(agent)
      try { announce(agent) } finally { announcing.delete(agent) }
    }
    const enter = registry.enter.bind(registry)
    registry.enter = (agent, owner) => {
      const detach = enter(agent, owner)
      return () => { if (!announcing.has(agent)) detach() } // BUG: dropped while announcing
    }
  },
)
