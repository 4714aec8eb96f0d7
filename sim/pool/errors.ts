/**
 * Errors crossing a thread boundary keep their name, message, stack and (non-Error throws) their
 * printed value, so the supervisor can re-raise an `AdapterError` as one and print the rest.
 * @module
 */

/** An error as posted between threads. */
export interface SerializedError {
  readonly name: string
  readonly message: string
  readonly stack?: string
}

/** Flatten anything thrown into a {@link SerializedError}. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
  return { name: 'NonError', message: `a non-Error value was thrown: ${printValue(error)}` }
}

/** Rebuild an error posted by a worker (its class is lost: `name` says what it was). */
export function deserializeError(e: SerializedError): Error {
  const error = new Error(e.message)
  error.name = e.name
  if (e.stack) error.stack = e.stack
  return error
}

/** A short printable form of any thrown value. */
export function printValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'symbol' || typeof value === 'function' || typeof value === 'bigint') return String(value)
  try {
    const json = JSON.stringify(value)
    return json === undefined ? String(value) : json.length > 200 ? `${json.slice(0, 197)}...` : json
  } catch {
    return Object.prototype.toString.call(value)
  }
}
