/**
 * `dsh-kit certify`: a certificate per clause, from worker threads the kit can always stop.
 * @module
 */
import { REFERENCE_ADAPTER } from '../../conformance/adapters/adapter.js'
import { DEFAULT_PROBE_TIMEOUT_MS, describeAdapter, WatchedAdapter } from '../../conformance/adapters/watched-adapter.js'
import { CertifyOptionError } from '../../conformance/certify/plan.js'
import { formatReport } from '../../report/certify-text.js'
import { certify } from '../../conformance/certify/certify.js'
import type { Progress, Report } from '../../conformance/certify/report.js'
import { failureTimelines } from '../../conformance/certify/failure-timelines.js'
import { renderCertificateHtml } from '../../report/certificate/index.js'
import { UsageError } from '../errors.js'
import { EXIT } from '../exit-codes.js'
import { exitCodeOf, interrupted } from '../interrupt.js'
import { kitVersion } from '../kit-version.js'
import { attemptOutput, intOption, onlyOption, outputsExitCode, parseDuration, parseOptions, workersOption, writableDir, writableFile, writeOutput } from '../options.js'
import { reporterOptions, writeReports } from '../reporters/index.js'
import { certifyJUnit } from '../../report/junit.js'

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

/** The exit code of a certificate. */
export function certifyExitCode(report: Report): number {
  const signal = interrupted()
  if (signal) return exitCodeOf(signal)
  if (report.failing.length > 0) return EXIT.violation
  if (!report.complete || report.clauses.every((c) => c.checks === 0)) return EXIT.incomplete
  return EXIT.ok
}

export async function certifyCommand(args: string[]): Promise<number> {
  const { values } = parseOptions('certify', args, {
    adapter: { type: 'string' }, profile: { type: 'string', default: 'quick' }, json: { type: 'string' },
    seed: { type: 'string' }, out: { type: 'string' }, html: { type: 'string' }, timelines: { type: 'boolean', default: false }, only: { type: 'string', multiple: true },
    workers: { type: 'string' }, timeout: { type: 'string' }, 'case-timeout': { type: 'string' }, 'fail-fast': { type: 'boolean', default: false },
    reporter: { type: 'string', multiple: true },
    'no-shrink': { type: 'boolean', default: false },
  })
  if (values.profile !== 'quick' && values.profile !== 'thorough') throw new UsageError(`--profile must be quick or thorough, got "${values.profile}"`)
  const seed = intOption('seed', values.seed, 0)
  const only = onlyOption(values.only)
  const workers = workersOption(values.workers)
  const deadlineMs = values.timeout === undefined ? undefined : parseDuration('timeout', values.timeout)
  const unitTimeoutMs = values['case-timeout'] === undefined ? undefined : parseDuration('case-timeout', values['case-timeout'])
  const outDir = values.out === undefined ? undefined : writableDir('--out', values.out)
  const reporters = reporterOptions('certify', values.reporter, values.json)
  if (values.html !== undefined) writableFile('--html', values.html)
  // The adapter's module is loaded and probed only in a watched worker (never in this thread).
  const adapter = values.adapter === undefined ? REFERENCE_ADAPTER
    : await describeAdapter(values.adapter, { probe: true, probeTimeoutMs: Math.max(unitTimeoutMs ?? 0, DEFAULT_PROBE_TIMEOUT_MS) })
  process.stderr.write(`certifying ${adapter.name}@${adapter.version} (${values.profile}, ${workers} worker${workers === 1 ? '' : 's'})\n`)
  const started = performance.now()
  let report: Report
  try {
    report = await certify(adapter, {
      profile: values.profile, onProgress: progressPrinter(), workers, failFast: values['fail-fast'], shrink: !values['no-shrink'],
      shouldStop: () => {
        const signal = interrupted()
        if (signal) return `interrupted by ${signal}`
        if (deadlineMs !== undefined && performance.now() - started >= deadlineMs) return `--timeout ${values.timeout} expired`
        return undefined
      },
      ...(values.adapter ? { adapterModule: values.adapter, probed: true } : {}),
      ...(seed === undefined ? {} : { seed }),
      ...(outDir ? { outDir } : {}),
      ...(only ? { only } : {}),
      ...(unitTimeoutMs === undefined ? {} : { unitTimeoutMs }),
    })
  } catch (error) {
    if (error instanceof CertifyOptionError) throw new UsageError(error.message)
    throw error
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
  return outputsExitCode(failed, certifyExitCode(report))
}
