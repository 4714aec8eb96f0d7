/**
 * Initiator mutant (§9 131–132): the initiator is a process-global "last agent entered" instead of
 * the async context's, so overlapping boundaries read each other's agent after an await.
 */
import type { Agent } from '../../../core/contract.js'
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p19-initiator-global', reproduces: '§9 131: currentInitiator() is a process-global, not the async context\'s boundary' },
  ({ initiator }) => {
    let last: Agent | undefined
    const run = initiator.run.bind(initiator)
    const current = initiator.current.bind(initiator)
    initiator.run = ((agent, op) => run(agent, () => { last = agent; return op() })) as typeof initiator.run
    initiator.current = () => { current(); return last } // BUG: the last boundary entered anywhere
  },
)
