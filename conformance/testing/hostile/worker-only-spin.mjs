// Loads in the main thread; livelocks when a worker thread loads it.
import { isMainThread } from 'node:worker_threads'
if (!isMainThread) for (;;) {}
export { default } from './reject-all.mjs'
