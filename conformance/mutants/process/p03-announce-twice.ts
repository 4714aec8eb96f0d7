/**
 * Registry mutant (catalog M09, §9 74): a second announce of a live entry emits agent/created again
 * instead of throwing "already announced".
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p03-announce-twice', reproduces: 'M09: a second announce emits a second agent/created (§9 74)' },
  ({ registry, root }) => {
    const announce = registry.announce.bind(registry)
    registry.announce = (agent) => {
      try {
        announce(agent)
      } catch (error) {
        if (!/already announced/.test(String((error as Error).message))) throw error
        root.bus.veto('agent/created', agent, { agent }) // BUG: re-announces
      }
    }
  },
)
