/**
 * Initiator mutant (§9 133, 135, §8 drain): disposing the initiator scope disables it at once
 * instead of waiting for the boundaries still pending.
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p11-initiator-no-drain', reproduces: '§9 135: registry disposal does not drain pending initiator boundaries' },
  ({ initiator }) => {
    initiator.dispose = () => { initiator.abandon(); return Promise.resolve() } // BUG: no drain
  },
)
