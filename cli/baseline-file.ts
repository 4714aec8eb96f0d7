/**
 * `--baseline <file>` and `--write-baseline <file>`: reading a baseline (a bad one is exit 65,
 * naming the field) and writing one from a certificate. The model is
 * `conformance/certify/baseline.ts`; this is only the files.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs'
import { BaselineError, parseBaseline } from '../conformance/certify/baseline.js'
import type { Baseline } from '../conformance/certify/baseline.js'
import { InputError } from './errors.js'

/** Read and validate the baseline `file` (`--baseline`); an {@link InputError} names what is wrong. */
export function readBaselineFile(file: string, option = '--baseline'): Baseline {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    throw new InputError(`${option} ${file}: cannot read it (${e.code ?? e.message}); \`dsh-kit certify --write-baseline ${file}\` writes one`)
  }
  try {
    return parseBaseline(text, `${option} ${file}`)
  } catch (error) {
    if (error instanceof BaselineError) throw new InputError(error.message)
    throw error
  }
}

/**
 * The baseline a `--write-baseline` rewrites, for the reasons and links it keeps: the file itself if
 * it exists and is a valid baseline (a file that is not one is replaced, saying so on stderr).
 */
export function previousBaseline(file: string): Baseline | undefined {
  if (!existsSync(file)) return undefined
  try {
    return readBaselineFile(file, '--write-baseline')
  } catch (error) {
    process.stderr.write(`${(error as Error).message}: replacing it\n`)
    return undefined
  }
}
