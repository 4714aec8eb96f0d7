// Allocates Buffers (outside the V8 heap) on every create, and keeps them.
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
const kept = []
export default factoryAdapter({ name: 'buffer-bomb', version: '1' }, () => ({
  createAgent() { for (let i = 0; i < 8; i++) kept.push(Buffer.alloc(16 * 1024 * 1024, 1)); return Promise.reject(new Error('no')) },
  resume: () => Promise.reject(new Error('no')),
}))
