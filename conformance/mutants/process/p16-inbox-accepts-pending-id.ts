/**
 * Inbox mutant (§9 120): a send whose message id is already pending replaces the pending item
 * (remove, then append) instead of throwing "already pending".
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p16-inbox-accepts-pending-id', reproduces: '§9 120: a message with an id already pending is accepted (the old item is dropped)' },
  ({ onInbox }) => {
    onInbox((inbox) => {
      for (const method of ['append', 'prepend'] as const) {
        const original = inbox[method].bind(inbox)
        inbox[method] = (target, message) => {
          if ([...inbox.nextTurn, ...inbox.nextStep].some((m) => m.id === message.id)) inbox.remove(message.id) // BUG
          original(target, message)
        }
      }
    })
  },
)
