/**
 * Initiator mutant (§9 137–138): the drain waits for every pending boundary, the one that started
 * the unload included, so a boundary that awaits its own registry's disposal deadlocks it.
 */
import { types } from 'node:util'
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p18-initiator-drain-waits-on-itself', reproduces: '§9 137: a boundary awaiting the registry\'s own disposal deadlocks (the drain does not exclude the calling chain)' },
  ({ initiator }) => {
    const pending = new Set<Promise<unknown>>()
    const run = initiator.run.bind(initiator)
    initiator.run = ((agent, op) => {
      const result = run(agent, op)
      if (types.isPromise(result)) {
        const settled = Promise.resolve(result).then(() => undefined, () => undefined)
        pending.add(settled)
        void settled.then(() => pending.delete(settled))
      }
      return result
    }) as typeof initiator.run
    const dispose = initiator.dispose.bind(initiator)
    initiator.dispose = () => {
      initiator.close()
      return Promise.all([...pending]).then(() => dispose()) // BUG: waits on the calling chain too
    }
  },
)
