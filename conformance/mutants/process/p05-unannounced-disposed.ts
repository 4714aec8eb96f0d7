/**
 * Registry mutant (catalog A6, §9 79): detaching an entry that was entered but never announced
 * emits agent/disposed (an edge nobody was told the start of).
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p05-unannounced-disposed', reproduces: 'A6: detach of an entered, never announced agent emits agent/disposed (§9 79)' },
  ({ registry, root }) => {
    const announced = new WeakSet<object>()
    const announce = registry.announce.bind(registry)
    registry.announce = (agent) => { announced.add(agent); announce(agent) }
    const enter = registry.enter.bind(registry)
    registry.enter = (agent, owner) => {
      const detach = enter(agent, owner)
      let done = false
      return () => {
        detach()
        if (done) return
        done = true
        if (!announced.has(agent)) root.bus.contained('agent/disposed', agent, { agent }) // BUG
      }
    }
  },
)
