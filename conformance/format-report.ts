/**
 * Wording of certificates and failures (the RunDetailsFormatter of the kit): data in, text out.
 * @module
 */
import type { ClauseResult, Failure, Report } from './suite.js'

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

/** One failure, as something a user can paste back: clause, seed, strategy, program, replay. */
export function formatFailure(c: ClauseResult, withTimeline = false): string {
  const f = c.failure as Failure
  const lines = [`${c.key} violated: ${c.title}`, `  ${f.message}`]
  if (f.via === 'directed case') {
    lines.push(`  found by directed case "${f.caseTitle}"`, `  rerun: ${f.replay}`)
  } else {
    lines.push(`  found by ${f.via} "${f.programName}" { strategy: '${f.strategy}', seed: ${f.seed}, decisions: ${f.decisions} }`)
    lines.push(`  program: ${JSON.stringify(f.program)}`)
    lines.push(`  replay: ${f.replay}`)
    if (withTimeline && f.timeline) lines.push('  timeline:', ...f.timeline.split('\n').map((l) => `    ${l}`))
  }
  if (c.caseFailure) lines.push(`  also failed directed case "${c.caseFailure.caseTitle}": ${c.caseFailure.message.split('\n')[0]}`, `  rerun: ${c.caseFailure.replay}`)
  return lines.join('\n')
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
  const by = (how: 'case' | 'program' | 'checker'): number => report.clauses.filter((c) => c.status !== 'unchecked' && c.checkedBy.includes(how)).length
  const tail = `${report.passed ? 'PASSED' : 'FAILED'}: ${pass} clauses pass, ${report.failing.length} fail, ${unchecked} unchecked; checked by a case ${by('case')}, a program ${by('program')}, a checker ${by('checker')} (${report.directedCases} directed cases, ${report.runs} simulated runs, ${(report.durationMs / 1000).toFixed(1)} s)`
  return [...head, ...(failures.length ? [...failures, ''] : []), tail].join('\n')
}
