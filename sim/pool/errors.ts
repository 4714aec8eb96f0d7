/**
 * Errors crossing a thread boundary keep their name, message, stack and (non-Error throws) their
 * printed value, so the supervisor can re-raise an `AdapterError` as one and print the rest.
 * @module
 */
import { errorParts, isError, printValue } from '../trace/bounded-text.js'

/** An error as posted between threads. */
export interface SerializedError {
  readonly name: string
  readonly message: string
  readonly stack?: string
}

/** Flatten anything thrown into a {@link SerializedError}. */
export function serializeError(error: unknown): SerializedError {
  if (isError(error)) return errorParts(error)
  return { name: 'NonError', message: `a non-Error value was thrown: ${printValue(error)}` }
}

/** Rebuild an error posted by a worker (its class is lost: `name` says what it was). */
export function deserializeError(e: SerializedError): Error {
  const error = new Error(e.message)
  error.name = e.name
  if (e.stack) error.stack = e.stack
  return error
}

/** A short printable form of any thrown value (never throws). */
export { printValue }
