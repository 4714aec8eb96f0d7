// Ends its thread from inside create (a library calling process.exit on a fatal error).
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
export default factoryAdapter({ name: 'exit-in-create', version: '1' }, () => ({ createAgent() { process.exit(0) }, resume() { process.exit(0) } }))
