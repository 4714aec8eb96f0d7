/**
 * Session-store mutant (§9 87–88, §1.3): `get(id)` keeps answering with a session after it was
 * detached (a lookup cache that is never invalidated).
 */
import type { Session, SessionId } from '../../../core/contract.js'
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p09-store-keeps-detached', reproduces: '§9 87: sessions.get(id) still returns a detached session' },
  ({ store }) => {
    const seen = new Map<SessionId, Session>()
    const get = store.get.bind(store)
    store.get = (id) => {
      const live = get(id)
      if (live) seen.set(id, live)
      return live ?? seen.get(id) // BUG
    }
  },
)
