// Rejects every create with an Error whose message (and stack) getters throw.
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
const hostile = () => {
  const e = new Error('x')
  Object.defineProperty(e, 'message', { get() { throw new Error('message getter') } })
  Object.defineProperty(e, 'stack', { get() { throw new Error('stack getter') } })
  return e
}
export default factoryAdapter({ name: 'message-getter-throws', version: '1' }, () => ({ createAgent: () => Promise.reject(hostile()), resume: () => Promise.reject(hostile()) }))
