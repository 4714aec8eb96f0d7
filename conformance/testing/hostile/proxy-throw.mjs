// Rejects every create with a Proxy whose every trap throws.
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
const trap = () => { throw new Error('trap') }
const hostile = () => new Proxy({}, { get: trap, has: trap, ownKeys: trap, getPrototypeOf: trap, getOwnPropertyDescriptor: trap, apply: trap })
export default factoryAdapter({ name: 'proxy-throw', version: '1' }, () => ({ createAgent: () => Promise.reject(hostile()), resume: () => Promise.reject(hostile()) }))
