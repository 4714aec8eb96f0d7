/**
 * Session-store mutant (§9 43, §6.5): "crash repair" on load cuts a persisted log that ends inside
 * an open turn back to before its `turn/start` (as a backend rolling back an unfinished
 * transaction would), so durable events are lost — the splices of input accepted during that turn
 * among them. A graceful restart never leaves an open turn on disk; only a crash does.
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p21-resume-cuts-interrupted-turn', reproduces: '§9 43: a resume after a crash mid-turn drops the durable events of the interrupted turn' },
  ({ store }) => {
    const prepare = store.prepare.bind(store)
    store.prepare = (id, options) => {
      const seed = options?.seed
      if (options?.seedSource !== 'persistence' || !seed) return prepare(id, options)
      const start = seed.findLastIndex((e) => e.type === 'turn/start')
      const open = start >= 0 && !seed.slice(start).some((e) => e.type === 'turn/end')
      return prepare(id, open ? { ...options, seed: seed.slice(0, start) } : options) // BUG
    }
  },
)
