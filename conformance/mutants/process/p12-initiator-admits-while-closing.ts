/**
 * Initiator mutant (§9 135): the scope never closes before it is disposed, so new boundaries are
 * admitted while the registry is unloading.
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p12-initiator-admits-while-closing', reproduces: '§9 135: withInitiator during disposal does not throw "agent initiator scope is disposed"' },
  ({ initiator }) => {
    initiator.close = () => undefined // BUG: closing is ignored until the drain completes
  },
)
