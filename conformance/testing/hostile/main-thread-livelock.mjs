// A failing factory that livelocks when it runs in the main thread (as certify --html's replays did).
import { isMainThread } from 'node:worker_threads'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
export default factoryAdapter({ name: 'main-thread-livelock', version: '1' }, () => ({
  createAgent() { if (isMainThread) for (;;) {} return Promise.reject(new Error('create refused')) },
  resume: () => Promise.reject(new Error('resume refused')),
}))
