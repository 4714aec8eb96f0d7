/**
 * Registry mutant (§9 84): `list()` and `roots()` return agents sorted by id instead of in enter
 * order.
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p06-list-by-id', reproduces: '§9 84: list()/roots() in id order, not enter order' },
  ({ registry }) => {
    const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
    const list = registry.list.bind(registry)
    const roots = registry.roots.bind(registry)
    registry.list = () => list().sort(byId) // BUG
    registry.roots = () => roots().sort(byId) // BUG
  },
)
