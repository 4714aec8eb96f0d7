// Rejects every create with a 3 MB message.
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
const big = 'x'.repeat(3 * 1024 * 1024)
export default factoryAdapter({ name: 'huge-message', version: '1' }, () => ({ createAgent: () => Promise.reject(new Error(big)), resume: () => Promise.reject(new Error(big)) }))
