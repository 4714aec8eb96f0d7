/**
 * The run file: everything needed to replay a run with no seed — the program, the decision log,
 * the adapter it ran against and the trace hash it produced.
 * @module
 */
import { crashText } from './bounded-text.js'
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { DecisionLog } from './decision-log.js'
import { validateDecisionLog } from './decision-log.js'
import type { RunOutcome } from '../engine/index.js'
import type { Program } from '../program/program.js'
import { markRecorded, validateProgramShape } from '../program/program.js'
import type { RunResult } from '../run.js'

/** The run file format version. */
export const RUN_FILE_VERSION = 1

/** A violation as saved in a run file (checkers fill these in). */
export interface SavedViolation {
  readonly clause: string
  readonly message: string
}

/** A saved run. */
export interface RunFile {
  readonly v: typeof RUN_FILE_VERSION
  readonly kind: 'dsh-kit-run'
  readonly program: Program
  /** The adapter module the run used, as the user named it; absent for the built-in reference factory. */
  readonly adapter?: string
  /** The adapter's `name@version` when the run was recorded: a replay refuses another adapter. */
  readonly adapterName?: string
  readonly decisions: DecisionLog
  /** Trace hash of the recorded run; a replay must reproduce it. */
  readonly hash: string
  readonly outcome: { kind: RunOutcome['kind']; detail: string }
  readonly violations?: readonly SavedViolation[]
}

/** A run file failed validation; the message names the file and field. */
export class RunFileError extends Error {
  override readonly name = 'RunFileError'
}

/** One line describing how a run ended (deadlock: what each pending operation waits on). */
export function describeOutcome(outcome: RunOutcome): string {
  switch (outcome.kind) {
    case 'ok': return `ok after ${outcome.steps} steps`
    case 'deadlock': return `deadlock after ${outcome.steps} steps: ${outcome.blocked.map((b) => `${b.actor} ${b.op} waits on ${b.waitingOn}`).join('; ')}`
    case 'livelock': return outcome.reason ? `livelock: ${outcome.reason}` : `livelock: step budget ${outcome.budget} exceeded`
    case 'uncontrolled': return `uncontrolled nondeterminism: ${outcome.seen}`
    case 'crash': return `crash (${outcome.source}): ${crashText(outcome.error)}`
  }
}

/** Build the run file of a result. */
export function toRunFile(program: Program, result: RunResult, extra: { adapter?: string; adapterName?: string; violations?: readonly SavedViolation[] } = {}): RunFile {
  return {
    v: RUN_FILE_VERSION,
    kind: 'dsh-kit-run',
    program,
    ...(extra.adapter === undefined ? {} : { adapter: extra.adapter }),
    ...(extra.adapterName === undefined ? {} : { adapterName: extra.adapterName }),
    decisions: result.decisions,
    hash: result.hash,
    outcome: { kind: result.outcome.kind, detail: describeOutcome(result.outcome) },
    ...(extra.violations === undefined ? {} : { violations: extra.violations }),
  }
}

/** Write a run file (creating its folder). */
export function writeRunFile(path: string, file: RunFile): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `${JSON.stringify(file, null, 1)}\n`)
}

/** Read and validate a run file. */
export function readRunFile(path: string): RunFile {
  let value: any
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new RunFileError(`${path}: cannot read a run file: ${(error as Error).message}`)
  }
  return validateRunFile(value, path)
}

/** Validate a parsed run file. */
export function validateRunFile(value: any, source = 'run file'): RunFile {
  if (typeof value !== 'object' || value === null) throw new RunFileError(`${source}: expected an object`)
  if (value.kind !== 'dsh-kit-run') throw new RunFileError(`${source}: .kind must be "dsh-kit-run", got ${JSON.stringify(value.kind)}`)
  if (value.v !== RUN_FILE_VERSION) throw new RunFileError(`${source}: .v must be ${RUN_FILE_VERSION}, got ${JSON.stringify(value.v)}`)
  if (typeof value.hash !== 'string') throw new RunFileError(`${source}: .hash must be a string`)
  if (value.adapter !== undefined && (typeof value.adapter !== 'string' || value.adapter.length === 0)) throw new RunFileError(`${source}: .adapter must be a non-empty string (the adapter module) when present`)
  if (value.adapterName !== undefined && typeof value.adapterName !== 'string') throw new RunFileError(`${source}: .adapterName must be a string when present`)
  try {
    // A recorded run replays as it ran: its program's shape is checked, not its references (a run
    // file may predate the reference rules of validateProgram).
    validateProgramShape(value.program)
    markRecorded(value.program)
    validateDecisionLog(value.decisions)
  } catch (error) {
    throw new RunFileError(`${source}: ${(error as Error).message}`)
  }
  return value as RunFile
}
