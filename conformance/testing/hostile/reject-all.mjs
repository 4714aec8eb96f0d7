// A failing factory: every create and resume rejects (the base the other attacks add their trick to).
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
export default factoryAdapter({ name: 'reject-all', version: '1' }, () => ({
  createAgent: () => Promise.reject(new Error('create refused')), resume: () => Promise.reject(new Error('resume refused')),
}))
