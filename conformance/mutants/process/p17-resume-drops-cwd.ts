/**
 * Session-store mutant (§9 45): a session restored from persistence loses its `cwd` (the store
 * rebuilds the header from the fields it knows and forgets one).
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p17-resume-drops-cwd', reproduces: '§9 45: a resume does not preserve the persisted header.cwd' },
  ({ store }) => {
    const prepare = store.prepare.bind(store)
    store.prepare = (id, options) => {
      if (options?.header?.cwd === undefined) return prepare(id, options)
      const { cwd: _dropped, ...header } = options.header // BUG
      return prepare(id, { ...options, header })
    }
  },
)
