/**
 * Parsing and checking command-line options: budgets, clause names and output paths, with errors
 * that name the option and what it needs. Output paths are checked for writability before any work
 * starts, so a finding is never lost to an unwritable `--out`.
 * @module
 */
import { accessSync, constants, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { ParseArgsConfig } from 'node:util'
import { clauseNumberOf } from '../conformance/certify/clause-number.js'
import { OutputError, UsageError } from './errors.js'
import { EXIT } from './exit-codes.js'

const EXIT_OUTPUT = EXIT.output

/** `parseArgs` with its errors turned into one-line usage errors naming the command. */
export function parseOptions<O extends NonNullable<ParseArgsConfig['options']>>(command: string, args: string[], options: O, positionals = false): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>> {
  try {
    return parseArgs({ args, options, allowPositionals: positionals, strict: true })
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '')
    throw new UsageError(`${command}: ${message} (see \`dsh-kit ${command} --help\`)`)
  }
}

/** `60s`, `2m`, `1h`, `500ms` or a bare number of seconds, in milliseconds; must be positive. */
export function parseDuration(name: string, text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim())
  if (!m) throw new UsageError(`--${name} must be a duration like 60s, 2m or 500ms, got "${text}"`)
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h']
  const ms = Number(m[1]) * unit
  if (!(ms > 0)) throw new UsageError(`--${name} must be positive, got "${text}"`)
  return ms
}

/** An integer option of at least `min`, or undefined when absent. */
export function intOption(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined
  const n = Number(text)
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got "${text}"`)
  return n
}

/** `--workers`: an integer >= 1, default the machine's available parallelism. */
export function workersOption(text: string | undefined): number {
  return intOption('workers', text, 1) ?? Math.max(1, availableParallelism())
}

/** Check every `--only` entry names a clause (usage error otherwise). */
export function onlyOption(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined
  for (const v of values) {
    try {
      clauseNumberOf(v)
    } catch (error) {
      throw new UsageError(`--only: ${(error as Error).message}`)
    }
  }
  return [...values]
}

/** Make sure `dir` exists (or can be created) and is a writable directory; `option` names it in errors. */
export function writableDir(option: string, dir: string): string {
  const abs = resolve(dir)
  try {
    if (existsSync(abs) && !statSync(abs).isDirectory()) throw new Error('it exists and is not a directory')
    mkdirSync(abs, { recursive: true })
    const probe = join(abs, `.dsh-kit-write-check-${process.pid}`)
    writeFileSync(probe, '')
    rmSync(probe)
  } catch (error) {
    throw new OutputError(`${option} ${dir}: cannot write there (${reason(error)}); name a writable directory`)
  }
  return abs
}

/** Make sure `file` can be written (its folder exists or can be created, it is not a directory). */
export function writableFile(option: string, file: string): string {
  const abs = resolve(file)
  try {
    if (existsSync(abs)) {
      if (statSync(abs).isDirectory()) throw new Error('it is a directory')
      accessSync(abs, constants.W_OK)
    } else {
      mkdirSync(dirname(abs), { recursive: true })
      accessSync(dirname(abs), constants.W_OK)
    }
  } catch (error) {
    throw new OutputError(`${option} ${file}: cannot write there (${reason(error)}); name a writable file`)
  }
  return abs
}

/** Write an output file; a failure is an {@link OutputError} naming the option (findings are printed first). */
export function writeOutput(option: string, file: string, text: string): void {
  try {
    mkdirSync(dirname(resolve(file)), { recursive: true })
    writeFileSync(file, text)
  } catch (error) {
    throw new OutputError(`${option} ${file}: could not write (${reason(error)})`)
  }
}

/** Run one output step; its {@link OutputError} (or any error, as one) is returned, never thrown, so the next output is still attempted. */
export function attemptOutput(write: () => void): OutputError | undefined {
  try {
    write()
    return undefined
  } catch (error) {
    return error instanceof OutputError ? error : new OutputError(`an output failed: ${reason(error)}`)
  }
}

/** Print each failed output (one line each) and return the output exit code; `code` when none failed. */
export function outputsExitCode(failed: readonly (OutputError | undefined)[], code: number): number {
  const errors = failed.filter((e): e is OutputError => e !== undefined)
  for (const e of errors) process.stderr.write(`dsh-kit: ${e.message}\n`)
  return errors.length > 0 ? EXIT_OUTPUT : code
}

/** `ENOTDIR: not a directory` from a Node file-system error (the path is already in the message around it). */
function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException
  const text = String(e.message ?? error).replace(/^[A-Z]+: /, '').replace(/, \w+ '[^']*'$/, '')
  return e.code ? `${e.code}: ${text}` : text
}
