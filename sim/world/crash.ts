/**
 * What a program's `crash` meets on a process that cannot crash (no `crash()`; capability `crash`).
 * @module
 */

/** A program crashed a process that has no `crash()`. */
export class CrashUnsupported extends Error {
  constructor() { super('the process cannot crash (no crash(); capability crash)') }
}
