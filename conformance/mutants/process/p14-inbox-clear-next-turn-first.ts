/**
 * Inbox mutant (catalog A5, §9 121): `clear()` splices next-turn before next-step.
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p14-inbox-clear-next-turn-first', reproduces: 'A5: inbox.clear() writes the next-turn splice first (§9 121)' },
  ({ onInbox }) => {
    onInbox((inbox) => {
      inbox.clear = () => {
        // BUG: next-turn first.
        if (inbox.nextTurn.length > 0) inbox.splice('next-turn', 0, inbox.nextTurn.length, [])
        if (inbox.nextStep.length > 0) inbox.splice('next-step', 0, inbox.nextStep.length, [])
      }
    })
  },
)
