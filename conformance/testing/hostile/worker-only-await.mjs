// Loads in the main thread; awaits forever when a worker loads it.
import { isMainThread } from 'node:worker_threads'
if (!isMainThread) await new Promise(() => {})
export { default } from './reject-all.mjs'
