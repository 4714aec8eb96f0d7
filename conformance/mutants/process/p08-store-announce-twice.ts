/**
 * Session-store mutant (§9 87): a second announce of a live session emits session/created again
 * before it throws "already announced".
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p08-store-announce-twice', reproduces: '§9 87: a failed second session announce still emits session/created' },
  ({ store, root }) => {
    const announce = store.announce.bind(store)
    store.announce = (session) => {
      try {
        announce(session)
      } catch (error) {
        if (/already announced/.test(String((error as Error).message))) root.bus.contained('session/created', session, session) // BUG
        throw error
      }
    }
  },
)
