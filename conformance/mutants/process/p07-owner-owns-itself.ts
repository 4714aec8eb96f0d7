/**
 * Registry mutant (§9 6): `isOwnedBy(id, owner)` is also true when the entry *is* the owner, so a
 * root reads as owned by itself.
 */
import { processMutant } from './process-mutant.js'

export default processMutant(
  { name: 'process-mutant:p07-owner-owns-itself', reproduces: '§9 6: isOwnedBy(root.id, root) is true' },
  ({ registry }) => {
    const isOwnedBy = registry.isOwnedBy.bind(registry)
    registry.isOwnedBy = (id, owner) => isOwnedBy(id, owner) || registry.get(id) === owner // BUG
  },
)
