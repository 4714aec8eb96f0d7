// Loads in the main thread; ends its thread when a worker loads it.
import { isMainThread } from 'node:worker_threads'
if (!isMainThread) process.exit(0)
export { default } from './reject-all.mjs'
