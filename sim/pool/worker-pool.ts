/**
 * A pool of worker threads that runs units of work under a supervisor (the watchdog the code under
 * test cannot defeat): each unit has a wall-clock budget and each worker a heap limit; a unit that
 * overruns, exhausts memory, crashes its worker or stops reaching its event loop is reported as **lost**
 * with the reason, its worker is terminated and replaced, and the pool goes on. Nothing is dropped
 * silently: every `run` resolves with the unit's result or the reason it has none. With
 * `recycleAfter`, a worker is also replaced, between units, once it has been given that many.
 * @module
 */
import { existsSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { BudgetTimer } from './budget-timer.js'
import { deserializeError } from './errors.js'
import { SHARED } from './protocol.js'
import type { FromWorker, ToWorker, UnitEnd } from './protocol.js'
import { fromEpochMs, realClearInterval, realNow, realSetImmediate, realSetInterval } from './real-clock.js'

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
  /**
   * Ends of units a worker posts together (default 1: each as it ends). A worker posts what it has
   * once it holds `batch` ends or has no unit left to run; with `prefetch` >= `batch` it keeps
   * working meanwhile. A lost unit is still told apart from the units before it (their ends lost
   * with the worker are run again elsewhere): the worker publishes which unit it runs in shared memory.
   */
  readonly batch?: number
  /**
   * What a worker does with an error its units' code leaves uncaught outside any unit (a stray timer
   * of an adapter module): `charge` (default) rethrows it at the start of the next unit, which is
   * then lost like any crash of a run; `ignore` keeps the worker going (a worker that only reads an
   * adapter's description owes no verdict on its runtime behaviour).
   */
  readonly strays?: 'charge' | 'ignore'
  /**
   * A worker must load its executor (and, through it, the adapter module) within this long
   * (default {@link DEFAULT_INIT_TIMEOUT_MS}); it may not stay off its event loop for
   * {@link DEFAULT_INIT_BUSY_LIMIT_MS} meanwhile.
   */
  readonly initTimeoutMs?: number
  /**
   * Memory one worker may hold, heap plus external and array-buffer memory (which the heap limit
   * does not count: a `Buffer` lives outside the heap), sampled at its heartbeats, in MB (default:
   * the heap limit).
   */
  readonly memoryLimitMb?: number
  /**
   * Resident memory of the whole process (sampled here, so it counts a worker that allocates
   * without ever reaching its event loop), in MB: past it, the unit of the worker holding the most
   * memory is lost to memory (default {@link DEFAULT_PROCESS_MEMORY_MB}).
   */
  readonly processMemoryMb?: number
  /**
   * Replace a worker by a fresh one once it has been given this many units (default: never). For
   * code under test that leaves memory in its thread unit after unit, which only the thread's end
   * frees (the upstream adapter: see its REPORT.md). A retiring worker is given no more units; once
   * it has ended those it holds it is terminated, and a fresh one loads the executor (its load and
   * JIT warm-up are paid again). No unit is moved, repeated or changed, so the units' results are
   * those of a pool that never recycles. A worker holding a stray error (see `strays`) is kept until
   * its next unit is charged with it.
   */
  readonly recycleAfter?: number
  /**
   * What a unit is posted to one worker as (default: the unit itself), given the worker's identity:
   * an object of its own per worker started, kept while it lives (a key for a `WeakMap`). The pool
   * posts each worker its units in the order it runs them, and a unit run again elsewhere is posted
   * anew, so an executor that keeps state across units can be sent what it does not hold yet only.
   */
  readonly perWorker?: (unit: unknown, worker: object) => unknown
}

/** A pool whose workers cannot start: the executor's `init` threw, or a worker died, hung or ran away while loading. */
export class PoolInitError extends Error {
  override readonly name: string = 'PoolInitError'
}

/** Default heap limit of a worker: far above any honest run, far below the machine. */
export const DEFAULT_WORKER_HEAP_MB = 1024

/** Default time a worker may run without ever idling (no honest unit computes for seconds on end). */
export const DEFAULT_BUSY_LIMIT_MS = 3_000

/** Default time a worker has to load its executor and the adapter. */
export const DEFAULT_INIT_TIMEOUT_MS = 60_000

/** A loading worker off its event loop this long is stuck at load (module evaluation yields between files). */
export const DEFAULT_INIT_BUSY_LIMIT_MS = 10_000

/** Default resident-memory budget of the whole process (the kit's own threads take about 200 MB). */
export const DEFAULT_PROCESS_MEMORY_MB = 1_536

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
  /** When the worker was started (its load is timed from here). */
  readonly spawned: number
  /** The units posted to this worker, in the order it runs them: the first is running, the rest wait in the worker. */
  jobs: Job<R>[]
  /** The worker's identity for {@link WorkerPoolOptions.perWorker}. */
  readonly identity: object
  /** Units posted to this worker since it started. */
  posted: number
  /** It has been given its `recycleAfter` units: it gets no more, and is replaced once it has ended them. */
  retiring: boolean
  /** When the running unit started (as far as this thread can tell), and the timer holding it to its budget. */
  started: number
  readonly budget: BudgetTimer
  /**
   * Memory shared with the worker (`SHARED` in `protocol.ts`): when it last reached its event loop
   * and which unit it runs since when, current even while this thread is busy.
   */
  readonly shared: BigInt64Array
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
  #recycled = 0
  #dispatchQueued = false
  /** A worker's message is being handled: units submitted from its callbacks are dispatched at its end. */
  #handling = false
  /** Checks loads, livelocks and memory while any worker lives (real timers: see real-clock.ts). */
  #watchdog: NodeJS.Timeout | undefined
  /** Workers terminated and not yet gone (their memory is not back yet). */
  #terminating = 0
  /**
   * The process's resident memory once the workers last stopped for memory had gone: memory freed
   * is not always given back to the system, so only growth past it counts again.
   */
  #rssAfterStop = 0
  #stoppedForMemory = false

  constructor(options: WorkerPoolOptions) {
    if (!Number.isSafeInteger(options.size) || options.size < 1) throw new RangeError(`WorkerPool: size must be an integer >= 1, got ${String(options.size)}`)
    if (options.prefetch !== undefined && (!Number.isSafeInteger(options.prefetch) || options.prefetch < 0)) throw new RangeError(`WorkerPool: prefetch must be an integer >= 0, got ${String(options.prefetch)}`)
    if (options.batch !== undefined && (!Number.isSafeInteger(options.batch) || options.batch < 1)) throw new RangeError(`WorkerPool: batch must be an integer >= 1, got ${String(options.batch)}`)
    if (options.recycleAfter !== undefined && (!Number.isSafeInteger(options.recycleAfter) || options.recycleAfter < 1)) throw new RangeError(`WorkerPool: recycleAfter must be an integer >= 1, got ${String(options.recycleAfter)}`)
    this.#options = options
    for (let i = 0; i < options.size; i++) this.#slots.push(this.#spawn())
    this.#watchdog = realSetInterval(() => this.#watch(), BUSY_POLL_MS)
    this.#watchdog.unref()
  }

  /** Units lost so far (each was reported to its caller). */
  get lost(): number {
    return this.#lost
  }

  /** Workers replaced so far after their `recycleAfter` units. */
  get recycled(): number {
    return this.#recycled
  }

  /** Run one unit; resolves with its result, or why it has none. Rejects only if the workers cannot start. */
  run(unit: U, timeoutMs = this.#options.unitTimeoutMs): Promise<PoolOutcome<R>> {
    return new Promise((resolve, reject) => this.submit(unit, timeoutMs, resolve, reject))
  }

  /**
   * {@link run} with callbacks: `done` is called once with the unit's outcome, or `failed` once if
   * the workers cannot start or the pool closes first (never both). For a caller that takes
   * thousands of units in order and keeps its own queue: no promise, closure or microtask per unit.
   * `done` runs inside the pool's message handler: it must not throw.
   */
  submit(unit: U, timeoutMs: number | undefined, done: (outcome: PoolOutcome<R>) => void, failed: (error: Error) => void): void {
    if (this.#closed) return failed(new Error('WorkerPool: run() after close()'))
    if (this.#initError) return failed(this.#initError)
    this.#queue.push({ id: this.#nextId++, unit, timeoutMs: timeoutMs ?? this.#options.unitTimeoutMs, resolve: done, reject: failed })
    // Units asked for in one turn of this thread's event loop reach a worker in one message: a
    // campaign taking a batch of results refills its window one seed per result. Asked for while a
    // worker's message is handled, they go out at its end, without another turn of the loop.
    if (this.#dispatchQueued || this.#handling) return
    this.#dispatchQueued = true
    realSetImmediate(() => {
      this.#dispatchQueued = false
      if (!this.#closed) this.#dispatch()
    })
  }

  /** Terminate every worker; queued units are rejected. */
  async close(): Promise<void> {
    this.#closed = true
    realClearInterval(this.#watchdog)
    for (const job of this.#queue.splice(0)) job.reject(new Error('WorkerPool closed'))
    await Promise.all(this.#slots.map((s) => {
      s.budget.disarm()
      // The running unit is ended by its worker's exit; those waiting behind it never start.
      for (const job of s.jobs.splice(1)) job.reject(new Error('WorkerPool closed'))
      return s.worker.terminate()
    }))
  }

  #spawn(): Slot<R> {
    const shared = new BigInt64Array(new SharedArrayBuffer(8 * SHARED.length))
    const worker = new Worker(new URL(compiledModuleUrl(new URL(`./worker-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href)), {
      workerData: { executor: this.#options.executor, init: this.#options.init, shared: shared.buffer, batch: this.#options.batch ?? 1, strays: this.#options.strays ?? 'charge' },
      resourceLimits: { maxOldGenerationSizeMb: this.#options.maxOldGenerationSizeMb ?? DEFAULT_WORKER_HEAP_MB },
      stdout: true,
      stderr: true,
    })
    const out = this.#options.output ?? process.stderr
    worker.stdout.pipe(out, { end: false })
    worker.stderr.pipe(out, { end: false })
    const slot: Slot<R> = { worker, ready: false, spawned: realNow(), identity: {}, jobs: [], posted: 0, retiring: false, started: 0, shared,
      budget: new BudgetTimer(() => this.#overrun(slot), () => slot.jobs.length > 0),
    }
    worker.on('message', (m: FromWorker) => this.#onMessage(slot, m))
    worker.on('error', (error: Error & { code?: string }) => {
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY'
      // A worker that dies while loading fails the pool once: a replacement would load the same module.
      if (!slot.ready) return this.#failInit(memory ? `ran out of memory while loading (worker heap limit ${this.#heapMb()} MB)` : `crashed while loading: ${error.message}`)
      this.#lose(slot, memory ? 'memory' : 'crash', memory ? `ran out of memory (worker heap limit ${this.#heapMb()} MB): a runaway livelock` : `its worker crashed: ${error.message}`)
    })
    worker.on('exit', (code) => {
      if (!slot.ready) this.#failInit(`ended its worker thread while loading (exit code ${code})`)
      else if (slot.jobs.length > 0) this.#lose(slot, 'crash', `its worker exited with code ${code}`)
      else if (!this.#closed && this.#slots.includes(slot) && slot.worker === worker) this.#replace(slot)
    })
    return slot
  }

  #onMessage(slot: Slot<R>, m: FromWorker): void {
    this.#handling = true
    try {
      switch (m.type) {
        case 'ready':
          slot.ready = true
          break
        case 'init-failed':
          this.#failInit(deserializeError(m.error))
          break
        case 'ends':
          for (let i = 0; i < m.ends.length; i++) this.#onEnd(slot, m.ends[i]!)
          if (slot.retiring && slot.jobs.length === 0) this.#recycle(slot)
      }
    } finally {
      this.#handling = false
      if (!this.#closed) this.#dispatch()
    }
  }

  #onEnd(slot: Slot<R>, m: UnitEnd): void {
    const current = slot.jobs[0]
    if (!current || current.id !== m.id) return
    slot.jobs.shift()
    // The worker went on to the next unit it holds as soon as this one ended.
    if (slot.jobs.length > 0) this.#startHead(slot)
    else slot.budget.disarm()
    current.resolve(m.type === 'done' ? { kind: 'done', result: m.result as R } : { kind: 'error', error: deserializeError(m.error) })
  }

  /**
   * End the unit the slot's worker runs without a result, then replace the worker. Units before it
   * on that worker ended, but their ends were still in the worker's batch: they run again
   * elsewhere, as do the units waiting behind it.
   */
  #lose(slot: Slot<R>, reason: LostReason, detail: string): void {
    if (slot.jobs.length === 0) return
    const at = this.#runningIndex(slot)
    const [current] = slot.jobs.splice(at, 1)
    const again = slot.jobs.splice(0)
    slot.budget.disarm()
    this.#lost++
    if (this.#closed) for (const job of again) job.reject(new Error('WorkerPool closed'))
    else this.#queue.unshift(...again)
    current!.resolve({ kind: 'lost', reason, detail, afterMs: Math.round(realNow() - (at > 0 ? this.#runningSince(slot) : slot.started)) })
    this.#replace(slot)
  }

  /** Which of the slot's units its worker runs now, by the worker's shared memory (the first when it says none of them). */
  #runningIndex(slot: Slot<R>): number {
    const running = Number(Atomics.load(slot.shared, SHARED.running))
    return Math.max(0, slot.jobs.findIndex((job) => job.id === running))
  }

  /** When the worker started the unit it runs now, on this thread's clock. */
  #runningSince(slot: Slot<R>): number {
    return fromEpochMs(Number(Atomics.load(slot.shared, SHARED.since)) / 1000)
  }

  /** A retiring worker has ended its units: replace it, unless it holds a stray error its next unit must be charged with. */
  #recycle(slot: Slot<R>): void {
    if (this.#closed || this.#initError !== undefined) return
    if (Atomics.load(slot.shared, SHARED.stray) !== 0n) {
      slot.retiring = false
      return
    }
    this.#recycled++
    this.#replace(slot)
  }

  #replace(slot: Slot<R>): void {
    const old = slot.worker
    old.removeAllListeners('exit')
    old.on('exit', () => undefined)
    this.#terminating++
    void old.terminate().finally(() => {
      this.#terminating--
    })
    if (this.#closed) return
    const index = this.#slots.indexOf(slot)
    if (index < 0) return
    this.#slots[index] = this.#spawn()
    this.#dispatch()
  }

  #dispatch(): void {
    // Every idle worker gets a unit before any busy one gets a unit ahead; each worker gets what it
    // was given in one message.
    const depth = 1 + (this.#options.prefetch ?? 0)
    const posted = new Map<Slot<R>, Job<R>[]>()
    for (let held = 1; held <= depth && this.#queue.length > 0; held++) {
      for (const slot of this.#slots) {
        if (this.#queue.length === 0) break
        if (!slot.ready || slot.retiring || slot.jobs.length >= held) continue
        const job = this.#queue.shift()!
        slot.jobs.push(job)
        if (++slot.posted === this.#options.recycleAfter) slot.retiring = true
        let batch = posted.get(slot)
        if (batch === undefined) posted.set(slot, (batch = []))
        batch.push(job)
        if (slot.jobs.length === 1) this.#startHead(slot)
      }
    }
    const perWorker = this.#options.perWorker
    for (const [slot, jobs] of posted) {
      const message: ToWorker = { units: jobs.map((job) => ({ id: job.id, unit: perWorker ? perWorker(job.unit, slot.identity) : job.unit })) }
      slot.worker.postMessage(message)
    }
  }

  /** Time the slot's first unit, which its worker is running now (or has run, its end still in the worker's batch). */
  #startHead(slot: Slot<R>): void {
    const job = slot.jobs[0]!
    slot.started = realNow()
    slot.budget.arm(slot.started + job.timeoutMs)
  }

  /**
   * The head unit's budget ran out: lose the unit the worker runs if that one overran its own
   * budget; if the worker is past the head (its end is in a batch not yet posted), wait for the rest
   * of the running unit's budget instead.
   */
  #overrun(slot: Slot<R>): void {
    const at = this.#runningIndex(slot)
    const job = slot.jobs[at]
    if (at === 0 || job === undefined) {
      this.#lose(slot, 'timeout', `did not finish within ${slot.jobs[0]!.timeoutMs} ms (a hang or livelock)`)
      return
    }
    const left = job.timeoutMs - (realNow() - this.#runningSince(slot))
    if (left <= 0) this.#lose(slot, 'timeout', `did not finish within ${job.timeoutMs} ms (a hang or livelock)`)
    else slot.budget.arm(realNow() + left)
  }

  #heapMb(): number {
    return this.#options.maxOldGenerationSizeMb ?? DEFAULT_WORKER_HEAP_MB
  }

  /**
   * The pool cannot run anything: every unit asked for is rejected with why, once, and no worker is
   * started again (each would load the same module and fail the same way).
   */
  #failInit(reason: Error | string): void {
    if (this.#initError !== undefined || this.#closed) return
    this.#initError = typeof reason === 'string' ? new PoolInitError(`a worker thread loading the executor and the adapter module ${reason}`) : reason
    realClearInterval(this.#watchdog)
    for (const job of this.#queue.splice(0)) job.reject(this.#initError)
    for (const slot of this.#slots) {
      slot.budget.disarm()
      for (const job of slot.jobs.splice(0)) job.reject(this.#initError)
      slot.worker.removeAllListeners('exit')
      slot.worker.removeAllListeners('error')
      slot.worker.on('error', () => undefined)
      void slot.worker.terminate()
    }
  }

  /**
   * The watchdog, every {@link BUSY_POLL_MS}: a worker that does not load in time (or stays off its
   * event loop while loading) fails the pool; a unit whose worker has not idled for the busy limit
   * (a livelock that starves its own thread) is lost as runaway; a worker past its memory limit, or
   * the largest one when the whole process is past its budget, loses its unit to memory.
   */
  #watch(): void {
    const limit = this.#options.busyLimitMs ?? DEFAULT_BUSY_LIMIT_MS
    const now = realNow()
    const memoryLimit = (this.#options.memoryLimitMb ?? this.#heapMb()) * 1024 * 1024
    let largest: { slot: Slot<R>; bytes: number } | undefined
    for (const slot of [...this.#slots]) {
      // The worker's heartbeat, read from shared memory (absolute µs), on this thread's clock.
      const beat = fromEpochMs(Number(Atomics.load(slot.shared, SHARED.beat)) / 1000)
      const bytes = Number(Atomics.load(slot.shared, SHARED.memory))
      if (!slot.ready) {
        const loading = now - slot.spawned
        const silent = now - Math.max(beat, slot.spawned)
        if (loading >= (this.#options.initTimeoutMs ?? DEFAULT_INIT_TIMEOUT_MS)) return this.#failInit(`did not finish loading within ${Math.round(loading)} ms`)
        if (silent >= Math.max(limit, DEFAULT_INIT_BUSY_LIMIT_MS)) return this.#failInit(`never returned to its event loop for ${Math.round(silent)} ms while loading (a synchronous livelock at load)`)
        if (bytes > memoryLimit) return this.#failInit(`held ${Math.round(bytes / 2 ** 20)} MB while loading, past its limit of ${Math.round(memoryLimit / 2 ** 20)} MB`)
        continue
      }
      if (slot.jobs.length === 0) continue
      const silent = now - Math.max(beat, slot.started)
      if (silent >= limit) {
        this.#lose(slot, 'runaway', `never returned to its event loop for ${Math.round(silent)} ms (a synchronous or microtask livelock)`)
        continue
      }
      if (bytes > memoryLimit) {
        this.#lose(slot, 'memory', `ran out of memory: its worker held ${Math.round(bytes / 2 ** 20)} MB (heap, external and array buffers), past its limit of ${Math.round(memoryLimit / 2 ** 20)} MB`)
        continue
      }
      // A worker allocating without reaching its event loop publishes nothing: count it the largest.
      const weight = silent >= BUSY_POLL_MS * 2 ? Number.MAX_SAFE_INTEGER : bytes
      if (largest === undefined || weight > largest.bytes) largest = { slot, bytes: weight }
    }
    const budget = (this.#options.processMemoryMb ?? DEFAULT_PROCESS_MEMORY_MB) * 1024 * 1024
    const rss = process.memoryUsage.rss()
    if (this.#terminating > 0) return
    if (this.#stoppedForMemory) {
      this.#stoppedForMemory = false
      this.#rssAfterStop = rss
    }
    if (rss > Math.max(budget, this.#rssAfterStop + 256 * 2 ** 20) && largest !== undefined) {
      this.#stoppedForMemory = true
      this.#lose(largest.slot, 'memory', `ran out of memory: the process reached ${Math.round(rss / 2 ** 20)} MB resident, past its budget of ${Math.round(budget / 2 ** 20)} MB, and its worker held the most`)
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
