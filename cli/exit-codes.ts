/**
 * Every exit code `dsh-kit` can return, in one table (TigerBeetle's `Failure` enum): the README's
 * table is checked against it by a test, and `main` never lets another code escape.
 * @module
 */

/** The exit codes, by meaning. */
export const EXIT = {
  /** Everything requested ran to completion and passed (`explain`, a viewer: it drew the timeline, whatever the run shows). */
  ok: 0,
  /**
   * A clause failed or a violation was found (a hang, livelock or crash charged to a clause included);
   * for certify, a MUST clause failed or was left unchecked outside the baseline, or a baseline entry no longer holds.
   */
  violation: 1,
  /** The work did not complete and nothing failed: a `--timeout` expired, work was lost, or the event loop drained while work was pending. */
  incomplete: 2,
  /** A replay did not reproduce its recorded run (the code under test changed or is nondeterministic). */
  diverged: 3,
  /** Bad usage: an unknown command or option, or an option value out of range. */
  usage: 64,
  /** A bad input file: a run file, program or report that does not parse or validate. */
  input: 65,
  /** An internal error of the kit (a bug: please report it with the command that caused it). */
  internal: 70,
  /** An output path (`--out`, `--json`, `--html`, …) cannot be written. */
  output: 73,
  /** The adapter does not load, has the wrong shape, throws on install or registers no factory. */
  adapter: 78,
  /** Interrupted by SIGINT: the partial summary and `--json` were written first. */
  interrupted: 130,
  /** Terminated by SIGTERM: the partial summary and `--json` were written first. */
  terminated: 143,
} as const

/** An exit code of the table. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** One line per exit code, for `--help` and the README. */
export const EXIT_MEANINGS: ReadonlyArray<readonly [ExitCode, string]> = [
  [EXIT.ok, 'everything requested ran to completion and passed; explain exits 0 once it drew the timeline, even of a violating run (gate on replay)'],
  [EXIT.violation, 'a clause failed or a violation was found (hangs, livelocks and crashes are charged to a clause); certify: a MUST clause failed or was left unchecked and the --baseline does not list it, or a baseline entry no longer holds'],
  [EXIT.incomplete, 'the work did not complete and nothing failed (a --timeout expired, or work never settled)'],
  [EXIT.diverged, 'a replay did not reproduce its recorded run'],
  [EXIT.usage, 'usage error: unknown command or option, or a value out of range'],
  [EXIT.input, 'bad input file: a run file, program or report that does not parse or validate'],
  [EXIT.internal, 'internal error of the kit (a bug; please report it)'],
  [EXIT.output, 'an output path cannot be written (every other output is still attempted; each failure is named)'],
  [EXIT.adapter, 'adapter error: does not load (its worker dies, hangs or runs away while loading), wrong shape, throws on install, registers no factory'],
  [EXIT.interrupted, 'interrupted (SIGINT) after writing the partial summary'],
  [EXIT.terminated, 'terminated (SIGTERM) after writing the partial summary'],
]
