/**
 * Session-store mutant (§9 87, §1.3 flush): `flush` rejects with the first listener failure as soon
 * as it happens, without waiting for the other session/flush listeners to settle.
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p24-store-flush-fails-fast', reproduces: '§9 87: sessions.flush rejects at the first failure while other listeners are pending' },
  ({ store, root }) => {
    let failNow: ((error: unknown) => void) | undefined
    const add = root.bus.add.bind(root.bus)
    root.bus.add = (name, fn, tag, options) => {
      if (name !== 'session/flush') return add(name, fn, tag, options)
      const reporting = (...args: unknown[]): unknown => {
        try {
          const result = fn(...args)
          if (result instanceof Promise) result.catch((error: unknown) => failNow?.(error))
          return result
        } catch (error) {
          failNow?.(error)
          throw error
        }
      }
      return add(name, reporting, tag, options)
    }
    const flush = store.flush.bind(store)
    store.flush = (session) => new Promise<boolean>((resolve, reject) => {
      failNow = reject // BUG: the first failure settles flush at once
      flush(session).then(resolve, reject)
    })
  },
)
