/**
 * j08 — `sessions.flush` resolves once its listeners were called, not once they settled.
 *
 * Breaks: the store's `flush` starts the `session/flush` dispatch and resolves `true` at once,
 * dropping the dispatch's promise: a listener with an asynchronous tail is still running when the
 * flush resolves. Violates: AGENT-REGISTRY-TEST 87 (§1.3: `session/flush` listeners are awaited in
 * parallel; every listener settles before the flush settles). Before the `tail` facts the 87
 * checker declined a flush with a `slow` listener (row D64): nothing recorded when its tail ended.
 * Realistic: a "fire the hooks" helper returning `true` for "flush requested".
 * @module
 */
import { processMutant } from './process/process-mutant.js'

export default processMutant(
  { name: 'process-mutant:j08-flush-ignores-async-listeners', reproduces: '§9 87: sessions.flush resolves before its session/flush listeners settled' },
  ({ store }) => {
    const flush = store.flush.bind(store)
    store.flush = (session) => {
      flush(session).catch(() => undefined)
      return Promise.resolve(true) // BUG: the listeners' promises are not awaited
    }
  },
)
