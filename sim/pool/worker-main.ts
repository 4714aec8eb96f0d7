/**
 * The entry of a pool worker: loads the executor module named in `workerData`, initialises it once,
 * then runs the units the supervisor posts, one at a time, in order. Everything unit-specific is the
 * executor's; this file only speaks the protocol of `worker-pool.ts`.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads'
import { serializeError } from './errors.js'
import { NO_UNIT, SHARED } from './protocol.js'
import type { FromWorker, PoolExecutor, ToWorker, UnitEnd } from './protocol.js'
import { realEpochMs, realSetImmediate, realSetInterval } from './real-clock.js'

const port = parentPort!
const data = workerData as { executor: string; init: unknown; shared: SharedArrayBuffer; batch: number; strays: 'charge' | 'ignore' }

/** How often the heartbeat is written; the supervisor's busy limit is many beats. */
const BEAT_MS = 200

// The heartbeat is the time (in µs since the epoch) this thread last reached its event loop, written
// into memory shared with the supervisor, which reads it at once: a message would wait behind the
// results queued before it whenever the supervisor is busy, and a busy supervisor would read a
// working worker as silent. Started before any run installs a virtual clock, so it is a real
// timer: it fires only when the thread gets back to its event loop, which a livelock never does.
const shared = new BigInt64Array(data.shared)
const epochMicros = (): bigint => BigInt(Math.round(realEpochMs() * 1000))
const memoryUsage = process.memoryUsage.bind(process)
const beatNow = (): void => {
  Atomics.store(shared, SHARED.beat, epochMicros())
  const m = memoryUsage()
  Atomics.store(shared, SHARED.memory, BigInt(m.heapUsed + m.external + m.arrayBuffers))
}
beatNow()
realSetInterval(beatNow, BEAT_MS).unref()

// An error the code under test leaves uncaught outside any run (a stray timer of the adapter's
// module, firing while it loads or between units) would end this thread while it holds no unit, so
// nothing would be charged for it (or, while loading, it would read as a module that cannot load).
// It is kept and rethrown uncaught at the start of the next unit: the thread then ends holding that
// unit, which the supervisor charges like any crash of a run. A run's own watch takes these
// listeners over while it runs (`process-watch.ts`) and gives them back after.
let stray: { readonly error: unknown } | undefined
const keepStray = (error: unknown): void => {
  stray ??= { error }
  if (data.strays === 'charge') Atomics.store(shared, SHARED.stray, 1n)
}
process.on('uncaughtException', keepStray)
process.on('unhandledRejection', keepStray)

/** Rethrow a stray error, uncaught: the thread ends with the unit it now holds. */
function rethrowStray(): boolean {
  if (stray === undefined || data.strays === 'ignore') return false
  const { error } = stray
  process.off('uncaughtException', keepStray)
  process.off('unhandledRejection', keepStray)
  realSetImmediate(() => { throw error })
  return true
}

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
  // Units run one at a time, in the order posted (the supervisor may post several ahead, see
  // `prefetch`). Their ends are posted in batches of `batch`, and whenever no unit is left to run.
  const queue: { id: number; unit: unknown }[] = []
  const ends: UnitEnd[] = []
  let running = false
  const post = (message: FromWorker): void => port.postMessage(message)
  const flush = (): void => {
    if (ends.length === 0) return
    const batch = ends.splice(0)
    try {
      post({ type: 'ends', ends: batch })
    } catch {
      // A result that cannot be cloned fails alone, not its whole batch.
      for (const end of batch) {
        try {
          post({ type: 'ends', ends: [end] })
        } catch (error) {
          post({ type: 'ends', ends: [{ type: 'failed', id: end.id, error: serializeError(error) }] })
        }
      }
    }
  }
  const next = (): void => {
    const message = queue.shift()
    running = message !== undefined
    if (message === undefined) {
      Atomics.store(shared, SHARED.running, NO_UNIT)
      flush()
      return
    }
    Atomics.store(shared, SHARED.since, epochMicros())
    Atomics.store(shared, SHARED.running, BigInt(message.id))
    if (rethrowStray()) return
    executor.run(state, message.unit, { keepAlive: port }).then(
      (result) => { ends.push({ type: 'done', id: message.id, result }) },
      (error: unknown) => { ends.push({ type: 'failed', id: message.id, error: serializeError(error) }) },
    ).then(() => {
      if (ends.length >= data.batch || queue.length === 0) flush()
      // One real event-loop turn between units, as a round trip through the supervisor gave: what the
      // last unit left queued (its real immediates) runs before the next unit starts, not inside it.
      realSetImmediate(next)
    })
  }
  port.on('message', (message: ToWorker) => {
    queue.push(...message.units)
    if (!running) next()
  })
  port.postMessage({ type: 'ready' })
}

void boot()
