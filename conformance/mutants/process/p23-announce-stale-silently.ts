/**
 * Registry mutant (§9 75): `announce` of an object that is not the live entry (never entered, or
 * detached) returns silently instead of throwing `not live`, so a caller announcing a stale agent
 * believes it published.
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p23-announce-stale-silently', reproduces: '§9 75: announce of an object that is not the live entry does not throw not live' },
  ({ registry }) => {
    const announce = registry.announce.bind(registry)
    registry.announce = (agent) => {
      try {
        announce(agent)
      } catch (error) {
        if (error instanceof Error && /not live/.test(error.message)) return // BUG
        throw error
      }
    }
  },
)
