/**
 * Gates and settling for tests that hold work open instead of sleeping: the unit tests beside the
 * core's modules and the conformance suite's directed cases share them.
 * @module
 */

/** A promise held behind a gate: tests open it explicitly (never sleeps). */
export interface Gate<T = void> {
  readonly promise: Promise<T>
  open(value: T): void
  fail(error: unknown): void
  readonly opened: boolean
}

/** Create a gate. */
export function gate<T = void>(): Gate<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  let opened = false
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej })
  promise.catch(() => undefined)
  return {
    promise,
    open: (value: T) => { opened = true; resolve(value) },
    fail: (error: unknown) => { opened = true; reject(error) },
    get opened() { return opened },
  }
}

/** Let every pending microtask and one macrotask run (to observe "nothing happened"). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
