/**
 * Registry mutant (§9 73): `enter` of an id that is live swallows the collision and returns a
 * detach that does nothing, instead of throwing `already registered` (a registry that treats a
 * second entry as idempotent).
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p22-enter-swallows-live-id', reproduces: '§9 73: enter of a live id does not throw already registered' },
  ({ registry }) => {
    const enter = registry.enter.bind(registry)
    registry.enter = (agent, owner) => {
      try {
        return enter(agent, owner)
      } catch (error) {
        if (error instanceof Error && /already registered/.test(error.message)) return () => {} // BUG
        throw error
      }
    }
  },
)
