import { ERRORS } from '../contract.js'
import type { Disposer, EffectResult, Fiber, FiberState } from '../contract.js'

/** Where contained failures go. */
export type WarnFn = (message: string, error?: unknown) => void

interface EffectRecord {
  readonly label: string
  /** Runs the collected disposers once; later calls join the in-flight run. */
  dispose(): void | Promise<void>
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
}

/**
 * Runs disposers in reverse order. Synchronous ones run inline; once one returns a promise the rest
 * are chained after it. A failing link is logged and the chain goes on: unlike the framework at
 * upstream HEAD (§2.2 rule 4) a failure never silently skips later links, which is the hazard of
 * commit 5a5b7d19c3 (§5.4).
 */
export function runDisposers(disposers: readonly Disposer[], label: string, warn: WarnFn): void | Promise<void> {
  let chain: Promise<void> | undefined
  for (let i = disposers.length - 1; i >= 0; i--) {
    const dispose = disposers[i]!
    if (chain) {
      chain = chain.then(() => dispose()).then(undefined, (error) => warn(`effect "${label}" disposer failed`, error))
      continue
    }
    try {
      const result = dispose()
      if (isPromiseLike(result)) {
        chain = Promise.resolve(result).then(undefined, (error) => warn(`effect "${label}" disposer failed`, error))
      }
    } catch (error) {
      warn(`effect "${label}" disposer failed`, error)
    }
  }
  return chain
}

function collectDisposers(result: EffectResult, label: string, warn: WarnFn): Disposer[] {
  if (result === undefined) return []
  if (typeof result === 'function') return [result]
  const collected: Disposer[] = []
  try {
    for (const disposer of result) collected.push(disposer)
  } catch (error) {
    // A generator that throws after yielding k disposers rolls those k back, then rethrows (§2.2 rule 3).
    const rollback = runDisposers(collected, label, warn)
    if (rollback) void rollback
    throw error
  }
  return collected
}

/** A structured-concurrency owner (§2.1–§2.3). */
export class FiberImpl implements Fiber {
  #state: FiberState = 'active'
  readonly #effects = new Set<EffectRecord>()
  readonly #observers = new Set<(state: FiberState) => void>()
  #unloading: Promise<void> | undefined

  constructor(
    readonly name: string,
    readonly parent: FiberImpl | undefined,
    private readonly warn: WarnFn,
  ) {}

  get state(): FiberState { return this.#state }

  effectLabels(): string[] { return [...this.#effects].map((e) => e.label) }

  onStateChange(observer: (state: FiberState) => void): () => void {
    this.#observers.add(observer)
    return () => { this.#observers.delete(observer) }
  }

  /** True when this fiber or an ancestor has begun unloading. */
  get dying(): boolean {
    for (let f: FiberImpl | undefined = this; f; f = f.parent) if (f.state !== 'active') return true
    return false
  }

  /**
   * Register an effect (§2.2). The record is registered before `execute` runs so that a reentrant
   * unload triggered inside `execute` still finds it; disposal requested meanwhile runs as soon as
   * `execute` returns.
   */
  effect(execute: () => EffectResult, label = 'effect'): Disposer {
    if (this.#state !== 'active') throw new Error(ERRORS.inactiveContext)
    let disposers: Disposer[] | undefined
    let requested = false
    let running: void | Promise<void> | undefined
    let started = false
    const finish = (): void => { this.#effects.delete(record) }
    const start = (): void | Promise<void> => {
      started = true
      const result = runDisposers(disposers ?? [], label, this.warn)
      if (result) {
        running = result.then(finish)
        return running
      }
      finish()
      return undefined
    }
    const record: EffectRecord = {
      label,
      dispose: () => {
        if (started) return running
        if (!disposers) { requested = true; return undefined }
        return start()
      },
    }
    this.#effects.add(record)
    try {
      disposers = collectDisposers(execute(), label, this.warn)
    } catch (error) {
      this.#effects.delete(record)
      throw error
    }
    if (requested) void start()
    return () => record.dispose()
  }

  /** Unload (§2.3): memoized; observers see `unloading` synchronously; effects dispose concurrently. */
  unload(): Promise<void> {
    if (this.#unloading) return this.#unloading
    this.#setState('unloading')
    const records = [...this.#effects]
    this.#unloading = Promise.all(
      records.map((record) =>
        Promise.resolve()
          .then(() => record.dispose())
          .then(undefined, (error) => this.warn(`effect "${record.label}" failed during unload of ${this.name}`, error)),
      ),
    ).then(() => {
      this.#setState('disposed')
    })
    return this.#unloading
  }

  #setState(state: FiberState): void {
    this.#state = state
    for (const observer of [...this.#observers]) {
      try { observer(state) } catch (error) { this.warn(`fiber ${this.name} state observer failed`, error) }
    }
  }
}
