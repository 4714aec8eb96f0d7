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
  job: { job: Job<R>; timer: NodeJS.Timeout; started: number } | undefined
  /** When the worker's heartbeat (a real timer: it fires only when the thread reaches its event loop) last arrived. */
  beat: number
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
      if (s.job) clearTimeout(s.job.timer)
      return s.worker.terminate()
    }))
  }

  #spawn(): Slot<R> {
    const worker = new Worker(new URL(compiledModuleUrl(new URL(`./worker-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href)), {
      workerData: { executor: this.#options.executor, init: this.#options.init },
      resourceLimits: { maxOldGenerationSizeMb: this.#options.maxOldGenerationSizeMb ?? DEFAULT_WORKER_HEAP_MB },
      stdout: true,
      stderr: true,
    })
    const out = this.#options.output ?? process.stderr
    worker.stdout.pipe(out, { end: false })
    worker.stderr.pipe(out, { end: false })
    const slot: Slot<R> = { worker, ready: false, job: undefined, beat: performance.now() }
    worker.on('message', (m: FromWorker) => this.#onMessage(slot, m))
    worker.on('error', (error: Error & { code?: string }) => {
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY'
      this.#lose(slot, memory ? 'memory' : 'crash', memory ? `ran out of memory (worker heap limit ${this.#options.maxOldGenerationSizeMb ?? DEFAULT_WORKER_HEAP_MB} MB): a runaway livelock` : `its worker crashed: ${error.message}`)
    })
    worker.on('exit', (code) => {
      if (slot.job) this.#lose(slot, 'crash', `its worker exited with code ${code}`)
      else if (!this.#closed && this.#slots.includes(slot) && slot.worker === worker) this.#replace(slot)
    })
    return slot
  }

  #onMessage(slot: Slot<R>, m: FromWorker): void {
    switch (m.type) {
      case 'beat':
        slot.beat = performance.now()
        return
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
        const current = slot.job
        if (!current || current.job.id !== m.id) return
        clearTimeout(current.timer)
        slot.job = undefined
        current.job.resolve(m.type === 'done' ? { kind: 'done', result: m.result as R } : { kind: 'error', error: deserializeError(m.error) })
        this.#dispatch()
      }
    }
  }

  /** End the slot's unit without a result, then replace its worker. */
  #lose(slot: Slot<R>, reason: LostReason, detail: string): void {
    const current = slot.job
    if (!current) return
    clearTimeout(current.timer)
    slot.job = undefined
    this.#lost++
    current.job.resolve({ kind: 'lost', reason, detail, afterMs: Math.round(performance.now() - current.started) })
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
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) return
      if (!slot.ready || slot.job) continue
      const job = this.#queue.shift()!
      const timer = setTimeout(() => this.#lose(slot, 'timeout', `did not finish within ${job.timeoutMs} ms (a hang or livelock)`), job.timeoutMs)
      const now = performance.now()
      slot.job = { job, timer, started: now }
      slot.worker.postMessage({ id: job.id, unit: job.unit })
      this.#busyPoll ??= setInterval(() => this.#checkBusy(), BUSY_POLL_MS)
    }
  }

  /** End units whose worker has not idled for the busy limit (a livelock that starves its own thread). */
  #checkBusy(): void {
    const limit = this.#options.busyLimitMs ?? DEFAULT_BUSY_LIMIT_MS
    const now = performance.now()
    let busy = false
    for (const slot of this.#slots) {
      const current = slot.job
      if (!current) continue
      busy = true
      const silent = now - Math.max(slot.beat, current.started)
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
