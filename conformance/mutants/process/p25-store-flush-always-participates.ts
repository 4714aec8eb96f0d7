/**
 * Session-store mutant (§9 87, §1.3 flush): `flush` resolves `true` even when no listener heard the
 * session (participation counted by listeners registered anywhere, or not at all).
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p25-store-flush-always-participates', reproduces: '§9 87: sessions.flush resolves true with no participating listener' },
  ({ store }) => {
    const flush = store.flush.bind(store)
    store.flush = async (session) => {
      await flush(session)
      return true // BUG: participation not reported
    }
  },
)
