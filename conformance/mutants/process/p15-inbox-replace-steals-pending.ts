/**
 * Inbox mutant (§9 118, 120): `replace(id, message)` whose message id is pending elsewhere removes
 * that other item instead of throwing "already pending".
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p15-inbox-replace-steals-pending', reproduces: '§9 118: replace to an id pending elsewhere removes the other item instead of throwing' },
  ({ onInbox }) => {
    onInbox((inbox) => {
      const replace = inbox.replace.bind(inbox)
      inbox.replace = (id, message) => {
        if (message.id !== id && [...inbox.nextTurn, ...inbox.nextStep].some((m) => m.id === id)) inbox.remove(message.id) // BUG
        return replace(id, message)
      }
    })
  },
)
