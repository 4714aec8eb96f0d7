/**
 * Initiator mutant (catalog A2, §9 130): `withInitiator` returns a wrapper promise instead of the
 * exact Promise object the operation returned.
 */
import { types } from 'node:util'
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p10-initiator-wraps-promise', reproduces: 'A2: withInitiator returns a wrapper, not the exact Promise (§9 130)' },
  ({ initiator }) => {
    const run = initiator.run.bind(initiator)
    initiator.run = ((agent, op) => {
      const result = run(agent, op)
      return types.isPromise(result) ? result.then((v) => v) : result // BUG
    }) as typeof initiator.run
  },
)
