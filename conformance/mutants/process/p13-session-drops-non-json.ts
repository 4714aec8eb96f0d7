/**
 * Session mutant (§9 170, §1.2 lossless JSON): `append` silently drops what JSON cannot carry
 * (functions, undefined, Map contents…) instead of rejecting the event.
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p13-session-drops-non-json', reproduces: '§9 170: append accepts non-JSON data by dropping it' },
  ({ onSession }) => {
    onSession((session) => {
      const append = session.append.bind(session)
      session.append = (type, data) => {
        let lossy: unknown
        try { lossy = data === undefined ? null : JSON.parse(JSON.stringify(data, (_k, v) => (typeof v === 'bigint' ? String(v) : v)) ?? 'null') } catch { lossy = null }
        return append(type, lossy) // BUG: coerced instead of rejected
      }
    })
  },
)
