// Throws an object with no prototype (no toString, no valueOf) from every create.
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
export default factoryAdapter({ name: 'null-prototype', version: '1' }, () => ({ createAgent() { throw Object.create(null) }, resume() { throw Object.create(null) } }))
