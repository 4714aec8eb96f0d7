import { AsyncLocalStorage } from 'node:async_hooks'
import { types } from 'node:util'
import { ERRORS } from './contract.js'
import type { Agent } from './contract.js'

interface Run {
  readonly parent: Run | undefined
  released: boolean
}

interface Frame {
  readonly agent: Agent | undefined
  readonly run: Run
}

/** Captured once so a Promise with an overridden `then` is observed without calling it (§8). */
const intrinsicThen = Promise.prototype.then

/**
 * Process-local causal attribution over AsyncLocalStorage (§8). Stores the exact Agent; not proof
 * of liveness or authorization. State: active → closing → disposed.
 */
export class InitiatorScope {
  #state: 'active' | 'closing' | 'disposed' = 'active'
  readonly #storage = new AsyncLocalStorage<Frame>()
  readonly #active = new Set<Run>()
  #drained: (() => void) | undefined
  #disposing: Promise<void> | undefined

  get state(): 'active' | 'closing' | 'disposed' { return this.#state }

  current(): Agent | undefined {
    if (this.#state === 'disposed') throw new Error(ERRORS.initiatorDisposed)
    return this.#storage.getStore()?.agent
  }

  require(): Agent {
    const agent = this.current()
    if (!agent) throw new Error(ERRORS.noInitiator)
    return agent
  }

  /** `withInitiator(agent, op)`; `agent === undefined` is `withoutInitiator`. Returns exactly what `op` returned. */
  run<T>(agent: Agent | undefined, op: () => T): T {
    if (this.#state !== 'active') throw new Error(ERRORS.initiatorDisposed)
    const run: Run = { parent: this.#storage.getStore()?.run, released: false }
    this.#active.add(run)
    let result: T
    try {
      result = this.#storage.run({ agent, run }, op)
    } catch (error) {
      this.#release(run)
      throw error
    }
    if (types.isPromise(result)) {
      const release = (): void => this.#release(run)
      try {
        intrinsicThen.call(result, release, release)
      } catch {
        // A hostile species getter: the promise cannot be observed; release now (§8).
        release()
      }
    } else {
      this.#release(run)
    }
    return result
  }

  /** Closing: reject new boundaries; reads still work. */
  close(): void {
    if (this.#state === 'active') this.#state = 'closing'
  }

  /**
   * Memoized disposal: release the calling chain's runs (a boundary whose chain started the unload
   * must not wait on itself), wait for the other returned-Promise boundaries, then disable.
   */
  dispose(): Promise<void> {
    this.close()
    if (this.#disposing) return this.#disposing
    for (let run = this.#storage.getStore()?.run; run; run = run.parent) this.#release(run)
    this.#disposing = new Promise<void>((resolve) => {
      if (this.#active.size === 0) resolve()
      else this.#drained = resolve
    }).then(() => {
      this.#state = 'disposed'
      this.#storage.disable()
    })
    return this.#disposing
  }

  /**
   * Disable the storage at once, without draining: for a simulator that drops a whole process.
   * An enabled AsyncLocalStorage makes every later promise in the process pay for propagation.
   */
  abandon(): void {
    this.#state = 'disposed'
    this.#storage.disable()
  }

  #release(run: Run): void {
    if (run.released) return
    run.released = true
    this.#active.delete(run)
    if (this.#active.size === 0 && this.#drained) {
      const drained = this.#drained
      this.#drained = undefined
      drained()
    }
  }
}
