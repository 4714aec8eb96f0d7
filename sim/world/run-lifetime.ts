/**
 * The abort listeners a world puts on the code under test's signals, for as long as its run lasts.
 * Node keeps an `AbortSignal.any()` signal that has an abort listener, and all that listener
 * reaches, for as long as it has not aborted; a signal of a run that ended mid-wait (a hung model
 * call or load) never aborts, and a listener left on it would keep the whole world alive in a
 * thread that runs thousands of runs. So each listener is removed when the run ends.
 * @module
 */
import { setMaxListeners } from 'node:events'

/** Abort listeners that end with the run: {@link listen} while it lasts, {@link end} once it is over. */
export class RunLifetime {
  readonly #ended = new AbortController()

  constructor() {
    // Each listener holds one of its own on this signal: no limit, or Node warns past 10.
    setMaxListeners(0, this.#ended.signal)
  }

  /** Call `listener` once when `signal` aborts, unless the run has ended first. */
  listen(signal: AbortSignal, listener: () => void): void {
    signal.addEventListener('abort', listener, { once: true, signal: this.#ended.signal })
  }

  /** The run is over: remove every listener still in place. */
  end(): void {
    this.#ended.abort()
  }
}
