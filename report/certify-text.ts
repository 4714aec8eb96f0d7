/**
 * The certificate as text: the per-clause table and the whole report, built from the words of each
 * failure (`conformance/certify/failure-text.ts`). Data in, text out.
 * @module
 */
import type { ClauseResult, Report } from '../conformance/certify/report.js'
import { formatFailure, verdictOf } from '../conformance/certify/failure-text.js'

const MARK: Record<ClauseResult['status'], string> = { pass: 'pass', fail: 'FAIL', unchecked: '  - ' }

/** The per-clause table, grouped by clause group. */
export function formatClauseTable(report: Report): string {
  const lines: string[] = []
  const groups = [...new Set(report.clauses.map((c) => c.group))]
  for (const group of groups) {
    const inGroup = report.clauses.filter((x) => x.group === group)
    const fails = inGroup.filter((x) => x.status === 'fail').length
    const passes = inGroup.filter((x) => x.status === 'pass').length
    lines.push(`${group}  (${passes} pass, ${fails} fail, ${inGroup.length - passes - fails} unchecked)`)
    for (const c of inGroup) {
      const title = c.title.length > 80 ? `${c.title.slice(0, 77)}...` : c.title
      const how = c.status === 'unchecked' ? `  (${c.reason ?? 'unchecked'})` : `  [${c.checkedBy.join('+')} ${c.checks}]`
      lines.push(`  ${MARK[c.status]}  ${String(c.clause).padStart(3)}  ${title}${how}`)
    }
  }
  return lines.join('\n')
}

function describeVerdict(report: Report): string {
  const { verdict, why } = verdictOf(report)
  return why === undefined ? verdict : `${verdict} (${why})`
}

/** The whole certificate as text. */
export function formatReport(report: Report, options: { timelines?: boolean } = {}): string {
  const head = [
    `dsh-kit certify — suite ${report.suite.version}, adapter ${report.adapter.name}@${report.adapter.version}, profile ${report.profile}`,
    ...(report.adapter.reproduces ? [`reproduces: ${report.adapter.reproduces}`] : []),
    `supports: ${Object.entries(report.adapter.supports).map(([k, v]) => `${k}=${v}`).join(' ')}`,
    '',
    formatClauseTable(report),
    '',
  ]
  const failures = report.clauses.filter((c) => c.status === 'fail').map((c) => formatFailure(c, options.timelines))
  const pass = report.clauses.filter((c) => c.status === 'pass').length
  const unchecked = report.clauses.filter((c) => c.status === 'unchecked').length
  const verdict = describeVerdict(report)
  const by = (how: 'case' | 'program' | 'checker'): number => report.clauses.filter((c) => c.status !== 'unchecked' && c.checkedBy.includes(how)).length
  const tail = `${verdict}: ${pass} clauses pass, ${report.failing.length} fail, ${unchecked} unchecked; checked by a case ${by('case')}, a program ${by('program')}, a checker ${by('checker')} (${report.directedCases} directed cases, ${report.runs} simulated runs, ${(report.durationMs / 1000).toFixed(1)} s)`
  return [...head, ...(failures.length ? [...failures, ''] : []), tail].join('\n')
}
