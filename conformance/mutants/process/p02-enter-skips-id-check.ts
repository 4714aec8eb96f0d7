/**
 * Registry mutant (§9 72): `enter` files an agent whose id differs from its session's id under
 * the agent id instead of refusing it.
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p02-enter-skips-id-check', reproduces: '§9 72: registry enter accepts agent.id ≠ session.id' },
  ({ registry }) => {
    const enter = registry.enter.bind(registry)
    registry.enter = (agent, owner) => {
      if (agent.id === agent.session.id) return enter(agent, owner)
      // BUG: the mismatch is papered over with a view whose session id matches.
      return enter(Object.create(agent, { session: { value: Object.create(agent.session, { id: { value: agent.id } }) } }), owner)
    }
  },
)
