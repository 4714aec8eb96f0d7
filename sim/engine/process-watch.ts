/**
 * Watching the real process during a run: what happens outside the scheduler.
 *
 * - Real async resources (a real `Timeout`, file system or network requests,
 *   ...) created by code under test are uncontrolled nondeterminism: they wake
 *   up on the real clock. An `async_hooks` init hook sees each one as it is
 *   created, synchronously, with the stack that created it.
 * - Real `setImmediate` callbacks of code under test are deterministic (FIFO,
 *   run by the engine's settle turns), but each one means the process is not
 *   settled yet; the hook tells the engine to take another turn.
 * - Unhandled rejections and uncaught exceptions are crashes of the run.
 *
 * Cost: Node has no per-type filter for hooks, so while the hook is enabled
 * every promise pays an init callback that returns at once (measured on
 * Node 20: about +150 ns a promise). Only `init` is hooked: `destroy`
 * tracking measured about ten times slower.
 *
 * @module
 */
import { AsyncResource, createHook, executionAsyncResource } from 'node:async_hooks'
import { fileURLToPath } from 'node:url'
import { realClearTimeout, realSetImmediate } from '../world/clock.js'
import type { CrashSource } from './outcome.js'

/**
 * Resource types that never wake code under test up on the real clock:
 * promises and microtask/tick bookkeeping (drained by every settle turn),
 * and stdio handles that exist for logging. `Immediate` is handled apart.
 */
const CONTROLLED_TYPES: ReadonlySet<string> = new Set(['PROMISE', 'TickObject', 'Microtask', 'TTYWRAP', 'PIPEWRAP', 'WRITEWRAP', 'SHUTDOWNWRAP'])

/** A real async resource seen during a run. */
export interface UncontrolledResource {
  /** The async_hooks resource type, e.g. `Timeout`, `FSREQCALLBACK`, `TCPWRAP`. */
  readonly type: string
  /** Decisions recorded before it was created. */
  readonly decision: number
  /** The stack frame of the code under test that created it. */
  readonly where: string
}

/** A crash observed through process events. */
export interface ObservedCrash {
  readonly error: unknown
  readonly source: CrashSource
}

let active: ProcessWatch | undefined
let engineTurn = false

const RUN_RESOURCE = 'DSH_SCHEDULER_RUN'

const hook = createHook({
  init(_id, type, trigger, resource) {
    if (type === 'PROMISE') return // the hot case: leave at once
    const watch = active
    if (watch === undefined) return
    if (type === 'Immediate') {
      if (!engineTurn) watch.immediateSeen = true
      return
    }
    if (CONTROLLED_TYPES.has(type)) return
    // What follows runs only for real work, which is rare. Report only work
    // this run started: the tail of earlier work (the next step of a file read
    // that a previous run began) must not be blamed on this one.
    if (trigger < watch.firstId) return // caused by something older than the run
    // An exception escaping an async hook aborts the process, so a failure to
    // attribute is reported rather than thrown.
    let where: string | undefined
    try {
      if (inCallbackOfRealWork()) return // the real work that called back was the finding
      where = userFrame()
      if (where === undefined) return // Node's internals continuing earlier work
    } catch (error) {
      where = `(could not attribute: ${String(error)})`
    }
    watch.sawUncontrolled(type, resource, where)
  },
})

/**
 * Whether the code running now is the callback of real work (a real timer,
 * an I/O request) rather than the run's own controlled code, which runs in a
 * promise continuation, the run's root, a microtask, an immediate or a tick.
 */
function inCallbackOfRealWork(): boolean {
  const exec: object = executionAsyncResource()
  if (exec instanceof Promise) return false
  const name = exec.constructor?.name
  return name !== 'AsyncResource' && name !== 'Immediate' && name !== 'Object'
}

const THIS_FILE = fileURLToPath(import.meta.url)

const isOwnOrInternal = (site: NodeJS.CallSite): boolean => {
  const file = site.getFileName()
  if (file === undefined || file === null || file.startsWith('node:')) return true
  return (file.startsWith('file:') ? fileURLToPath(file) : file) === THIS_FILE
}

/**
 * The first frame of the synchronous creation stack that is neither Node's
 * own nor this module's: where code under test started the work, formatted by
 * the host (so a test runner's source maps apply). `undefined` when only
 * Node's internals are on the synchronous stack, whatever awaited them.
 */
function userFrame(): string | undefined {
  const limit = Error.stackTraceLimit
  const prepare = Error.prepareStackTrace
  Error.stackTraceLimit = 30
  try {
    // Decide on structured call sites: test runners reformat stack strings
    // (vitest drops the "async" marker of awaited frames, for instance).
    Error.prepareStackTrace = (_error, sites) => sites
    const raw: { stack?: unknown } = {}
    Error.captureStackTrace(raw)
    const sites = raw.stack as NodeJS.CallSite[]
    let index = -1
    for (let i = 0; i < sites.length; i++) {
      const site = sites[i]!
      if (site.isAsync()) break // past the synchronous part
      if (isOwnOrInternal(site)) continue
      index = i
      break
    }
    if (index < 0) return undefined
    Error.prepareStackTrace = prepare
    const formatted: { stack?: string } = {}
    Error.captureStackTrace(formatted)
    // One line a frame after the message line; if a formatter broke that, fall back to V8's form.
    const lines = formatted.stack?.split('\n') ?? []
    return lines.length === sites.length + 1 ? lines[index + 1]!.trim() : `at ${String(sites[index])}`
  } finally {
    Error.prepareStackTrace = prepare
    Error.stackTraceLimit = limit
  }
}

/**
 * Observes the process for the duration of one run. Only one can be active at
 * a time (the virtual clock already enforces one run per process).
 */
export class ProcessWatch {
  /** Set when code under test queued a real immediate; the engine clears it. */
  immediateSeen = false
  /** The first uncontrolled resource seen, if any. */
  uncontrolled: UncontrolledResource | undefined
  /** The first crash seen through process events, if any. */
  crash: ObservedCrash | undefined

  /** The async id of this run's root resource, created at start: everything the run causes has a trigger id at least this. */
  firstId = Number.POSITIVE_INFINITY
  #root: AsyncResource | undefined
  readonly #decision: () => number
  readonly #leakedTimers: unknown[] = []
  #savedRejection: NodeJS.UnhandledRejectionListener[] = []
  #savedException: NodeJS.UncaughtExceptionListener[] = []
  readonly #onRejection = (reason: unknown): void => {
    this.crash ??= { error: reason, source: 'unhandled-rejection' }
  }
  readonly #onException = (error: Error): void => {
    this.crash ??= { error, source: 'uncaught-exception' }
  }
  readonly #onTurn = (): void => {
    const resolve = this.#turnResolve
    this.#turnResolve = undefined
    resolve?.()
  }
  #turnResolve: (() => void) | undefined
  readonly #turnExecutor = (resolve: () => void): void => {
    this.#turnResolve = resolve
    engineTurn = true
    try {
      realSetImmediate(this.#onTurn)
    } finally {
      engineTurn = false
    }
  }

  /** @param decision how many decisions the run has recorded, to date what is seen. */
  constructor(decision: () => number) {
    this.#decision = decision
  }

  /**
   * Call `fn` as the root of the run's async tree, so that what it starts is
   * attributed to the run even when the caller's own context predates it.
   */
  runInRun<T>(fn: () => T): T {
    if (this.#root === undefined) throw new Error('ProcessWatch.runInRun(): call start() first')
    return this.#root.runInAsyncScope(fn)
  }

  /**
   * Start watching: enable the hook and take over the process's
   * `unhandledRejection` and `uncaughtException` listeners (the test runner's
   * own would otherwise report the run's crash as a failure of the host).
   */
  start(): void {
    if (active !== undefined) throw new Error('ProcessWatch.start(): another run is being watched')
    active = this
    // Created before the hook is enabled, so the hook never reports it.
    this.#root = new AsyncResource(RUN_RESOURCE)
    this.firstId = this.#root.asyncId()
    this.#savedRejection = process.listeners('unhandledRejection')
    this.#savedException = process.listeners('uncaughtException')
    process.removeAllListeners('unhandledRejection')
    process.removeAllListeners('uncaughtException')
    process.on('unhandledRejection', this.#onRejection)
    process.on('uncaughtException', this.#onException)
    hook.enable()
  }

  /**
   * Stop watching and restore the listeners. Real timers the code under test
   * created are cancelled: the run they belonged to is over, and letting them
   * fire would leak its work into whatever runs next. Other real work (I/O)
   * cannot be cancelled and is only reported.
   */
  stop(): void {
    if (active !== this) return
    hook.disable()
    active = undefined
    process.off('unhandledRejection', this.#onRejection)
    process.off('uncaughtException', this.#onException)
    for (const l of this.#savedRejection) process.on('unhandledRejection', l)
    for (const l of this.#savedException) process.on('uncaughtException', l)
    for (const timer of this.#leakedTimers.splice(0)) realClearTimeout(timer as NodeJS.Timeout)
  }

  /**
   * One real macrotask turn: when it resolves, every microtask queued before
   * it has run, and so has every immediate queued before it.
   */
  turn(): Promise<void> {
    return new Promise(this.#turnExecutor)
  }

  /** @internal called by the hook. */
  sawUncontrolled(type: string, resource: object, where: string): void {
    if (type === 'Timeout') this.#leakedTimers.push(resource)
    if (this.uncontrolled !== undefined) return
    this.uncontrolled = { type, decision: this.#decision(), where }
  }
}
