/**
 * Registry mutant (§9 71, §1.7 enter/announce split): `enter` announces the agent itself, so an
 * entry is published (agent/created) the moment it is entered, before publication decides to.
 * The factory's own announce then fails with "already announced".
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p01-enter-announces', reproduces: '§9 71: registry enter emits agent/created (enter and announce are not split)' },
  ({ registry }) => {
    const enter = registry.enter.bind(registry)
    registry.enter = (agent, owner) => {
      const detach = enter(agent, owner)
      registry.announce(agent) // BUG: enter publishes
      return detach
    }
  },
)
