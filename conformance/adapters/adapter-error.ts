/**
 * The error of an adapter that fails validation, in a module of its own: the CLI names it before it
 * loads anything else (an adapter module is validated in a worker; `adapter.ts` brings the reference
 * core with it).
 * @module
 */

/** An adapter failed validation; the message says what was wrong and how to fix it. */
export class AdapterError extends Error {
  override readonly name = 'AdapterError'
}
