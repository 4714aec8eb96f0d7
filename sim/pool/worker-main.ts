/**
 * The entry of a pool worker: loads the executor module named in `workerData`, initialises it once,
 * then runs the units the supervisor posts, one at a time, in order. Everything unit-specific is the
 * executor's; this file only speaks the protocol of `worker-pool.ts`.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads'
import { serializeError } from './errors.js'
import type { PoolExecutor, ToWorker } from './protocol.js'
import { realEpochMs } from './real-clock.js'

const port = parentPort!
const realSetImmediate = setImmediate
const data = workerData as { executor: string; init: unknown; beat: SharedArrayBuffer }

/** How often the heartbeat is written; the supervisor's busy limit is many beats. */
const BEAT_MS = 200

// The heartbeat is the time (in µs since the epoch) this thread last reached its event loop, written
// into memory shared with the supervisor, which reads it at once: a message would wait behind the
// results queued before it whenever the supervisor is busy, and a busy supervisor would read a
// working worker as silent. Started before any run installs a virtual clock, so it is a real
// timer: it fires only when the thread gets back to its event loop, which a livelock never does.
const beat = new BigInt64Array(data.beat)
const beatNow = (): void => { Atomics.store(beat, 0, BigInt(Math.round(realEpochMs() * 1000))) }
beatNow()
setInterval(beatNow, BEAT_MS).unref()

async function boot(): Promise<void> {
  let executor: PoolExecutor<unknown, unknown, unknown>
  let state: unknown
  try {
    executor = (await import(data.executor)) as PoolExecutor<unknown, unknown, unknown>
    state = await executor.init(data.init)
  } catch (error) {
    port.postMessage({ type: 'init-failed', error: serializeError(error) })
    return
  }
  // Units run one at a time, in the order posted (the supervisor may post one ahead, see `prefetch`).
  const queue: ToWorker[] = []
  let running = false
  const next = (): void => {
    const message = queue.shift()
    running = message !== undefined
    if (message === undefined) return
    const failed = (error: unknown): void => port.postMessage({ type: 'failed', id: message.id, error: serializeError(error) })
    executor.run(state, message.unit, { keepAlive: port }).then(
      (result) => {
        try {
          port.postMessage({ type: 'done', id: message.id, result })
        } catch (error) {
          failed(error) // a result that cannot be cloned
        }
      },
      failed,
      // One real event-loop turn between units, as a round trip through the supervisor gave: what the
      // last unit left queued (its real immediates) runs before the next unit starts, not inside it.
    ).then(() => realSetImmediate(next))
  }
  port.on('message', (message: ToWorker) => {
    queue.push(message)
    if (!running) next()
  })
  port.postMessage({ type: 'ready' })
}

void boot()
