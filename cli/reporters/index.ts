/**
 * `--reporter <kind>[=<file>]`: machine-readable reports next to the text report (which always goes
 * to stdout). `json` is the report's data (`--json <file>` is its short form), `junit` JUnit XML.
 * Every file is checked writable before any work starts and written after the text is printed.
 * @module
 */
import { OutputError, UsageError } from '../errors.js'
import { attemptOutput, writableFile, writeOutput } from '../options.js'

/** The machine-readable report kinds. */
export const REPORTER_KINDS = ['json', 'junit'] as const
export type ReporterKind = (typeof REPORTER_KINDS)[number]

/** One requested report file. */
export interface ReporterSpec {
  readonly kind: ReporterKind
  readonly file: string
}

/**
 * Parse `--reporter` values (and `--json <file>`), with default files `dsh-kit-<command>.json` and
 * `dsh-kit-<command>.junit.xml`; each file is checked writable now.
 */
export function reporterOptions(command: string, values: readonly string[] | undefined, json: string | undefined): ReporterSpec[] {
  const specs: ReporterSpec[] = []
  if (json !== undefined) specs.push({ kind: 'json', file: json })
  for (const value of values ?? []) {
    const [kind, ...rest] = value.split('=')
    if (!(REPORTER_KINDS as readonly string[]).includes(kind!)) {
      throw new UsageError(`--reporter must be ${REPORTER_KINDS.join(' or ')} (optionally =<file>), got "${value}"`)
    }
    const file = rest.length > 0 ? rest.join('=') : `dsh-kit-${command}.${kind === 'junit' ? 'junit.xml' : 'json'}`
    if (file === '') throw new UsageError(`--reporter ${kind}= needs a file name after "="`)
    specs.push({ kind: kind as ReporterKind, file })
  }
  for (const s of specs) writableFile(s.kind === 'json' && s.file === json ? '--json' : `--reporter ${s.kind}`, s.file)
  return specs
}

/**
 * Write each requested report (after the text report was printed, so a failure to write loses
 * nothing); every one is attempted, and those that failed are returned.
 */
export function writeReports(specs: readonly ReporterSpec[], render: Readonly<Record<ReporterKind, () => string>>): OutputError[] {
  const failed: OutputError[] = []
  for (const s of specs) {
    const error = attemptOutput(() => writeOutput(`--reporter ${s.kind}`, s.file, render[s.kind]()))
    if (error) failed.push(error)
  }
  return failed
}
