/**
 * The CLI's own errors, each mapped to one exit code by `main.ts`: one line, naming what was wrong.
 * @module
 */

/** Bad usage: an unknown command or option, or an option value out of range (exit 64). */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** A bad input file: a run file, program or report that does not parse or validate (exit 65). */
export class InputError extends Error {
  override readonly name = 'InputError'
}

/** An output path that cannot be written (exit 73); raised before any work starts. */
export class OutputError extends Error {
  override readonly name = 'OutputError'
}
