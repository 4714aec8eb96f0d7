/**
 * A pool of worker threads that runs units of work under a supervisor (the watchdog the code under
 * test cannot defeat): each unit has a wall-clock budget and each worker a heap limit; a unit that
 * overruns, exhausts memory, crashes its worker or stops reaching its event loop is reported as **lost**
 * with the reason, its worker is terminated and replaced, and the pool goes on. Nothing is dropped
 * silently: every `run` resolves with the unit's result or the reason it has none.
 * @module
 */
import { existsSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { deserializeError } from './errors.js'
import type { FromWorker } from './protocol.js'
import { fromEpochMs, realNow } from './real-clock.js'

/** Why a unit has no result. */
export type LostReason = 'timeout' | 'memory' | 'crash' | 'runaway'

/** How one unit ended. */
export type PoolOutcome<R> =
  | { readonly kind: 'done'; readonly result: R }
  | { readonly kind: 'lost'; readonly reason: LostReason; readonly detail: string; readonly afterMs: number }
  /** The executor itself threw (a kit error, or an adapter error raised while running the unit). */
  | { readonly kind: 'error'; readonly error: Error }

/** Options of {@link WorkerPool}. */
export interface WorkerPoolOptions {
  /** Worker threads (>= 1). */
  readonly size: number
  /** URL of the executor module (compiled JS), see `protocol.ts`. */
  readonly executor: string
  /** Structured-cloneable data each worker's `init` receives. */
  readonly init: unknown
  /** Wall-clock budget of one unit, in ms. */
  readonly unitTimeoutMs: number
  /** Heap limit of each worker (old generation), in MB. */
  readonly maxOldGenerationSizeMb?: number
  /**
   * A worker that does not return to its event loop for this long (it never idles: a synchronous or
   * microtask livelock) has its unit ended as runaway long before the unit's timeout (default 3 s).
   */
  readonly busyLimitMs?: number
  /** Where the workers' stdout and stderr go (default: this process's stderr, so stdout stays the report's). */
  readonly output?: NodeJS.WritableStream
  /**
   * Units posted ahead to a busy worker (default 0). A worker runs its units one after another, so
   * with one unit ahead it starts the next as soon as one ends instead of idling for a round trip
   * through this thread, which matters when units take a few milliseconds (a fuzz seed) and this
   * thread is busy or descheduled. Budgets are unchanged: a unit's budget starts when the unit
   * before it on that worker has ended, and units waiting behind a lost unit are run again elsewhere.
   */
  readonly prefetch?: number
}

/** Default heap limit of a worker: far above any honest run, far below the machine. */
export const DEFAULT_WORKER_HEAP_MB = 1024

/** Default time a worker may run without ever idling (no honest unit computes for seconds on end). */
export const DEFAULT_BUSY_LIMIT_MS = 3_000

const BUSY_POLL_MS = 250

interface Job<R> {
  readonly id: number
  readonly unit: unknown
  readonly timeoutMs: number
  readonly resolve: (outcome: PoolOutcome<R>) => void
  readonly reject: (error: Error) => void
}

interface Slot<R> {
  worker: Worker
  ready: boolean
  /** The units posted to this worker, in the order it runs them: the first is running, the rest wait in the worker. */
  jobs: Job<R>[]
  /** The running unit's budget timer, and when it started (as far as this thread can tell). */
  timer: NodeJS.Timeout | undefined
  started: number
  /**
   * When the worker last reached its event loop (µs since the epoch), written by the worker's real
   * timer into shared memory so that it is current even while this thread is busy.
   */
  readonly beat: BigInt64Array
}

/** The supervisor: `run` units, `close` when done. */
export class WorkerPool<U, R> {
  readonly #options: WorkerPoolOptions
  readonly #slots: Slot<R>[] = []
  readonly #queue: Job<R>[] = []
  #nextId = 0
  #initError: Error | undefined
  #closed = false
  #lost = 0
  #busyPoll: NodeJS.Timeout | undefined

  constructor(options: WorkerPoolOptions) {
    if (!Number.isSafeInteger(options.size) || options.size < 1) throw new RangeError(`WorkerPool: size must be an integer >= 1, got ${String(options.size)}`)
    if (options.prefetch !== undefined && (!Number.isSafeInteger(options.prefetch) || options.prefetch < 0)) throw new RangeError(`WorkerPool: prefetch must be an integer >= 0, got ${String(options.prefetch)}`)
    this.#options = options
    for (let i = 0; i < options.size; i++) this.#slots.push(this.#spawn())
  }

  /** Units lost so far (each was reported to its caller). */
  get lost(): number {
    return this.#lost
  }

  /** Run one unit; resolves with its result, or why it has none. Rejects only if the workers cannot start. */
  run(unit: U, timeoutMs = this.#options.unitTimeoutMs): Promise<PoolOutcome<R>> {
    if (this.#closed) return Promise.reject(new Error('WorkerPool: run() after close()'))
    if (this.#initError) return Promise.reject(this.#initError)
    return new Promise((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, unit, timeoutMs, resolve, reject })
      this.#dispatch()
    })
  }

  /** Terminate every worker; queued units are rejected. */
  async close(): Promise<void> {
    this.#closed = true
    clearInterval(this.#busyPoll)
    for (const job of this.#queue.splice(0)) job.reject(new Error('WorkerPool closed'))
    await Promise.all(this.#slots.map((s) => {
      clearTimeout(s.timer)
      // The running unit is ended by its worker's exit; those waiting behind it never start.
      for (const job of s.jobs.splice(1)) job.reject(new Error('WorkerPool closed'))
      return s.worker.terminate()
    }))
  }

  #spawn(): Slot<R> {
    const beat = new BigInt64Array(new SharedArrayBuffer(8))
    const worker = new Worker(new URL(compiledModuleUrl(new URL(`./worker-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href)), {
      workerData: { executor: this.#options.executor, init: this.#options.init, beat: beat.buffer },
      resourceLimits: { maxOldGenerationSizeMb: this.#options.maxOldGenerationSizeMb ?? DEFAULT_WORKER_HEAP_MB },
      stdout: true,
      stderr: true,
    })
    const out = this.#options.output ?? process.stderr
    worker.stdout.pipe(out, { end: false })
    worker.stderr.pipe(out, { end: false })
    const slot: Slot<R> = { worker, ready: false, jobs: [], timer: undefined, started: 0, beat }
    worker.on('message', (m: FromWorker) => this.#onMessage(slot, m))
    worker.on('error', (error: Error & { code?: string }) => {
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY'
      this.#lose(slot, memory ? 'memory' : 'crash', memory ? `ran out of memory (worker heap limit ${this.#options.maxOldGenerationSizeMb ?? DEFAULT_WORKER_HEAP_MB} MB): a runaway livelock` : `its worker crashed: ${error.message}`)
    })
    worker.on('exit', (code) => {
      if (slot.jobs.length > 0) this.#lose(slot, 'crash', `its worker exited with code ${code}`)
      else if (!this.#closed && this.#slots.includes(slot) && slot.worker === worker) this.#replace(slot)
    })
    return slot
  }

  #onMessage(slot: Slot<R>, m: FromWorker): void {
    switch (m.type) {
      case 'ready':
        slot.ready = true
        this.#dispatch()
        return
      case 'init-failed':
        this.#initError = deserializeError(m.error)
        for (const job of this.#queue.splice(0)) job.reject(this.#initError)
        return
      case 'done':
      case 'failed': {
        const current = slot.jobs[0]
        if (!current || current.id !== m.id) return
        clearTimeout(slot.timer)
        slot.jobs.shift()
        // The worker went on to the next unit it holds as soon as it posted this result.
        if (slot.jobs.length > 0) this.#startHead(slot)
        current.resolve(m.type === 'done' ? { kind: 'done', result: m.result as R } : { kind: 'error', error: deserializeError(m.error) })
        this.#dispatch()
      }
    }
  }

  /** End the slot's running unit without a result, then replace its worker; units waiting behind it run elsewhere. */
  #lose(slot: Slot<R>, reason: LostReason, detail: string): void {
    const [current, ...waiting] = slot.jobs.splice(0)
    if (!current) return
    clearTimeout(slot.timer)
    slot.timer = undefined
    this.#lost++
    if (this.#closed) for (const job of waiting) job.reject(new Error('WorkerPool closed'))
    else this.#queue.unshift(...waiting)
    current.resolve({ kind: 'lost', reason, detail, afterMs: Math.round(realNow() - slot.started) })
    this.#replace(slot)
  }

  #replace(slot: Slot<R>): void {
    const old = slot.worker
    old.removeAllListeners('exit')
    old.on('exit', () => undefined)
    void old.terminate()
    if (this.#closed) return
    const index = this.#slots.indexOf(slot)
    if (index < 0) return
    this.#slots[index] = this.#spawn()
    this.#dispatch()
  }

  #dispatch(): void {
    // Every idle worker gets a unit before any busy one gets a unit ahead.
    const depth = 1 + (this.#options.prefetch ?? 0)
    for (let held = 1; held <= depth; held++) {
      for (const slot of this.#slots) {
        if (this.#queue.length === 0) return
        if (!slot.ready || slot.jobs.length >= held) continue
        const job = this.#queue.shift()!
        slot.jobs.push(job)
        slot.worker.postMessage({ id: job.id, unit: job.unit })
        if (slot.jobs.length === 1) this.#startHead(slot)
      }
    }
  }

  /** Time the slot's first unit, which its worker is running now. */
  #startHead(slot: Slot<R>): void {
    const job = slot.jobs[0]!
    slot.started = realNow()
    slot.timer = setTimeout(() => this.#lose(slot, 'timeout', `did not finish within ${job.timeoutMs} ms (a hang or livelock)`), job.timeoutMs)
    this.#busyPoll ??= setInterval(() => this.#checkBusy(), BUSY_POLL_MS)
  }

  /** End units whose worker has not idled for the busy limit (a livelock that starves its own thread). */
  #checkBusy(): void {
    const limit = this.#options.busyLimitMs ?? DEFAULT_BUSY_LIMIT_MS
    const now = realNow()
    let busy = false
    for (const slot of this.#slots) {
      if (slot.jobs.length === 0) continue
      busy = true
      // The worker's heartbeat, read from shared memory (absolute µs), on this thread's clock.
      const beat = fromEpochMs(Number(Atomics.load(slot.beat, 0)) / 1000)
      const silent = now - Math.max(beat, slot.started)
      if (silent >= limit) this.#lose(slot, 'runaway', `never returned to its event loop for ${Math.round(silent)} ms (a synchronous or microtask livelock)`)
    }
    if (!busy) {
      clearInterval(this.#busyPoll)
      this.#busyPoll = undefined
    }
  }
}

/**
 * The URL of a module's compiled JavaScript: itself when it is JavaScript, else the `dist/` twin of a
 * TypeScript source (under vitest the kit runs from sources), so workers always load built code.
 */
export function compiledModuleUrl(url: string): string {
  if (!url.endsWith('.ts')) return url
  const path = fileURLToPath(url)
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    if (!existsSync(join(dir, 'package.json'))) continue
    const compiled = join(dir, 'dist', relative(dir, path)).replace(/\.ts$/, '.js')
    return pathToFileURL(compiled).href
  }
  return url
}
