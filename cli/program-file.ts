/**
 * Reading a program file for `dsh-kit run`: a `.json` program (or a saved run file, whose program is
 * taken), or an ES module (`.mjs`, `.js`) whose default export is a program built with the builders
 * reports print (`import { program, actor, create, … } from 'dsh-lifecycle-kit/scenarios'`). Every
 * problem is an {@link InputError} (exit 65) naming the file and, for a bad program, the field.
 * @module
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { basename, extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Program } from '../sim/program/program.js'
import { validateProgram } from '../sim/program/program.js'
import { InputError, UsageError } from './errors.js'

/** The extensions `dsh-kit run` reads. */
export const PROGRAM_EXTENSIONS = ['.json', '.mjs', '.js'] as const

/** A program read from a file. */
export interface ProgramFile {
  readonly program: Program
  /** The file's name without its extension, for run file names. */
  readonly name: string
  /** How the program was read: a program, a run file's program, or a module's default export. */
  readonly kind: 'json' | 'run file' | 'module'
}

/** Read and validate the program in `path`; throws {@link InputError} naming what was wrong. */
export async function readProgramFile(path: string): Promise<ProgramFile> {
  const ext = extname(path).toLowerCase()
  if (!(PROGRAM_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new UsageError(`run takes a program file ending in ${PROGRAM_EXTENSIONS.join(', ')}, got "${path}"`)
  }
  const abs = resolve(path)
  if (!existsSync(abs) || !statSync(abs).isFile()) throw new InputError(`${path}: no such program file`)
  const name = basename(path, extname(path))
  if (ext === '.json') {
    let value: unknown
    try {
      value = JSON.parse(readFileSync(abs, 'utf8'))
    } catch (error) {
      throw new InputError(`${path}: not valid JSON: ${(error as Error).message}`)
    }
    if (typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'dsh-kit-run') {
      return { program: checked(path, (value as { program?: unknown }).program, 'program'), name, kind: 'run file' }
    }
    return { program: checked(path, value), name, kind: 'json' }
  }
  let module: Record<string, unknown>
  try {
    module = await import(pathToFileURL(abs).href) as Record<string, unknown>
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const hint = /dsh-lifecycle-kit/.test(message) ? ' (a program module imports its builders from \'dsh-lifecycle-kit/scenarios\': install the kit where the module can find it)' : ''
    throw new InputError(`${path}: cannot import the program module: ${message}${hint}`)
  }
  if (!('default' in module)) {
    throw new InputError(`${path}: the module has no default export; end it with \`export default program([actor('a1', create('s1')), …])\``)
  }
  return { program: checked(path, module.default, 'default export'), name, kind: 'module' }
}

/** `value` as a valid program, or an InputError naming the file and the offending field. */
function checked(path: string, value: unknown, what?: string): Program {
  try {
    validateProgram(value)
  } catch (error) {
    throw new InputError(`${path}${what ? ` (${what})` : ''}: ${(error as Error).message}`)
  }
  return value as Program
}
