// Rejects with a cyclic null-prototype value that has a throwing getter.
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
const hostile = () => { const o = Object.create(null); o.self = o; Object.defineProperty(o, 'boom', { enumerable: true, get() { throw new Error('getter') } }); return o }
export default factoryAdapter({ name: 'cyclic-value', version: '1' }, () => ({ createAgent: () => Promise.reject(hostile()), resume: () => Promise.reject(hostile()) }))
