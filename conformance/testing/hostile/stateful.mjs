// Keeps state across runs: every third create of the process rejects, so a failing run does not
// replay (its strict replay diverges) and a campaign's findings depend on what ran before.
import { ReferenceFactory } from 'dsh-lifecycle-kit'
import { referenceAdapter } from 'dsh-lifecycle-kit/conformance'
let creates = 0
class Stateful extends ReferenceFactory {
  createAgent(ownerCtx, options) {
    if (++creates % 3 === 0) return Promise.reject(new Error(`create #${creates} refused`))
    return super.createAgent(ownerCtx, options)
  }
}
export default referenceAdapter({ name: 'stateful', version: '1' }, Stateful)
