/**
 * `dsh-kit certify`, once its options are read and its workers started (`certify.ts`): the
 * certification, then every output (text, reporters, page, badge, baseline).
 * @module
 */
import type { Adapter } from '../../conformance/adapters/adapter.js'
import { WatchedAdapter } from '../../conformance/adapters/watched-adapter.js'
import { CertifyOptionError } from '../../conformance/certify/clause-number.js'
import type { CertifyPool } from '../../conformance/certify/certify-pool.js'
import { formatReport } from '../../report/certify-text.js'
import { certify } from '../../conformance/certify/certify.js'
import type { CertifyOptions, Progress, Report } from '../../conformance/certify/report.js'
import { failureTimelines } from '../../conformance/certify/failure-timelines.js'
import { renderCertificateHtml } from '../../report/certificate/index.js'
import { UsageError } from '../errors.js'
import { EXIT } from '../exit-codes.js'
import { exitCodeOf, interrupted } from '../interrupt.js'
import { kitVersion } from '../kit-version.js'
import { attemptOutput, outputsExitCode, writeOutput } from '../options.js'
import { writeReports } from '../reporters/index.js'
import type { ReporterSpec } from '../reporters/index.js'
import { certifyJUnit } from '../../report/junit.js'
import { certificateBadge, renderBadge } from '../../report/badge.js'
import { baselineOf, formatBaseline } from '../../conformance/certify/baseline.js'
import type { Baseline } from '../../conformance/certify/baseline.js'
import { applyGate } from '../../conformance/certify/gate.js'
import { verdictOf } from '../../conformance/certify/failure-text.js'
import { previousBaseline } from '../baseline-file.js'

/** What `certify.ts` read from the command line and started. */
export interface Certification {
  readonly adapter: Adapter
  /** The certification's options (without progress and stop, which this module adds). */
  readonly options: CertifyOptions & { readonly workers: number }
  /** Its workers, started with `options` (`certify` closes them). */
  readonly pool: CertifyPool
  readonly deadlineMs: number | undefined
  readonly reporters: readonly ReporterSpec[]
  readonly baseline: Baseline | undefined
  readonly values: {
    readonly adapter?: string | undefined
    readonly timeout?: string | undefined
    readonly timelines?: boolean | undefined
    readonly baseline?: string | undefined
    readonly writeBaseline?: string | undefined
    readonly html?: string | undefined
    readonly badge?: string | undefined
  }
}

function progressPrinter(): (p: Progress) => void {
  let last = 0
  return (p) => {
    if (p.kind === 'phase') {
      if (p.phase === 'shrinking') process.stderr.write(`  shrinking ${p.total} failure${p.total === 1 ? '' : 's'}\n`)
      return
    }
    if (!process.stderr.isTTY && p.done !== p.total) return
    const now = performance.now()
    if (p.done !== p.total && now - last < 100) return
    last = now
    const line = `  certifying ${String(p.done).padStart(5)}/${p.total} units  failing clauses: ${p.failures}`
    process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`)
    if (p.done === p.total && process.stderr.isTTY) process.stderr.write('\n')
  }
}

/**
 * The exit code of a certificate: its verdict (`verdictOf`), so the summary line and the code say
 * the same: 1 when a MUST clause fails or is left unchecked outside the baseline, or a baseline entry
 * no longer holds; 2 when incomplete; 0 when it passed.
 */
export function certifyExitCode(report: Report): number {
  const signal = interrupted()
  if (signal) return exitCodeOf(signal)
  const { verdict } = verdictOf(report)
  return verdict === 'FAILED' ? EXIT.violation : verdict === 'INCOMPLETE' ? EXIT.incomplete : EXIT.ok
}

/** Certify, then write every output; the exit code. */
export async function runCertification({ adapter, options, pool, deadlineMs, reporters, baseline, values }: Certification): Promise<number> {
  const started = performance.now()
  let report: Report
  try {
    report = await certify(adapter, {
      // (the process ends once the certificate is out: its workers' threads need not have exited)
      ...options, pool, awaitWorkerExit: false, onProgress: progressPrinter(),
      shouldStop: () => {
        const signal = interrupted()
        if (signal) return `interrupted by ${signal}`
        if (deadlineMs !== undefined && performance.now() - started >= deadlineMs) return `--timeout ${values.timeout} expired`
        return undefined
      },
    })
  } catch (error) {
    if (error instanceof CertifyOptionError) throw new UsageError(error.message)
    throw error
  }
  if (values.writeBaseline !== undefined) {
    report = writeBaseline(report, values.writeBaseline, baseline)
  } else if (baseline) {
    report = applyGate(report, baseline, values.baseline)
  }
  console.log(formatReport(report, { timelines: values.timelines }))
  // After the text report, every output is attempted even when another failed: a page or file that
  // cannot be written never hides the findings or the other outputs.
  const failed = writeReports(reporters, { json: () => `${JSON.stringify(report, null, 1)}\n`, junit: () => certifyJUnit(report) })
  if (values.html) {
    const html = values.html
    // The failures' replays run against the adapter, so in a watched worker too.
    const watched = new WatchedAdapter(values.adapter)
    let timelines
    try {
      timelines = await failureTimelines(report, (request) => watched.replay(request))
    } finally {
      await watched.close()
    }
    const error = attemptOutput(() => writeOutput('--html', html, renderCertificateHtml(report, { kitVersion: kitVersion(), timelines })))
    if (error) failed.push(error)
    else process.stderr.write(`wrote ${html}\n`)
  }
  if (values.badge) {
    const badge = values.badge
    const error = attemptOutput(() => writeOutput('--badge', badge, renderBadge(certificateBadge(report, kitVersion()))))
    if (error) failed.push(error)
    else process.stderr.write(`wrote ${badge}\n`)
  }
  return outputsExitCode(failed, certifyExitCode(report))
}


/**
 * `--write-baseline <file>`: write the certificate's baseline (every failing clause, every MUST
 * clause left unchecked with its reason), keeping the reasons and links of the baseline being
 * rewritten (`--baseline`, else the file itself), and gate the certificate with it. Only a
 * complete certification writes one: an incomplete one would list clauses it never ran.
 */
function writeBaseline(report: Report, file: string, given: Baseline | undefined): Report {
  if (!report.complete || interrupted()) {
    process.stderr.write(`--write-baseline ${file}: not written, the certification did not complete\n`)
    return given ? applyGate(report, given) : report
  }
  const baseline = baselineOf(report, kitVersion(), given ?? previousBaseline(file))
  writeOutput('--write-baseline', file, formatBaseline(baseline))
  process.stderr.write(`wrote ${file}: ${baseline.failures.length} failure${baseline.failures.length === 1 ? '' : 's'}, ${baseline.unchecked?.length ?? 0} unchecked${baseline.findings?.length ? `, ${baseline.findings.length} fuzz findings kept` : ''} (fill in each "reason" and "link", then commit it)\n`)
  return applyGate(report, baseline, file)
}
