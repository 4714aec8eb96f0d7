/**
 * Wording of certificates and failures (the RunDetailsFormatter of the kit): data in, text out.
 * @module
 */
import type { ClauseResult, Failure, Report } from './suite.js'

const MARK: Record<ClauseResult['status'], string> = { pass: 'pass', fail: 'FAIL', kit: 'unit', unchecked: '  - ' }

/** The per-clause table, grouped by clause group. */
export function formatClauseTable(report: Report): string {
  const lines: string[] = []
  const groups = [...new Set(report.clauses.map((c) => c.group))]
  for (const group of groups) {
    const inGroup = report.clauses.filter((x) => x.group === group)
    const fails = inGroup.filter((x) => x.status === 'fail').length
    const passes = inGroup.filter((x) => x.status === 'pass').length
    const kit = inGroup.filter((x) => x.status === 'kit').length
    lines.push(`${group}  (${passes} pass, ${fails} fail${kit ? `, ${kit} unit-tested in the kit` : ''}, ${inGroup.length - passes - fails - kit} unchecked)`)
    for (const c of inGroup) {
      const title = c.title.length > 86 ? `${c.title.slice(0, 83)}...` : c.title
      lines.push(`  ${MARK[c.status]}  ${String(c.clause).padStart(3)}  ${title}${c.status === 'pass' ? `  [${c.checks}]` : ''}`)
    }
  }
  return lines.join('\n')
}

/** One failure, as something a user can paste back: clause, seed, strategy, program, replay. */
export function formatFailure(c: ClauseResult, withTimeline = false): string {
  const f = c.failure as Failure
  const lines = [`${c.key} violated: ${c.title}`, ...f.message.split('\n').filter((line) => line.trim() !== '').map((line) => `  ${line}`), `  the clause and what it rests on: npx dsh-kit list --clause "${c.key}" (docs/clauses.md)`]
  if (f.via === 'directed case') {
    lines.push(`  found by directed case "${f.caseTitle}"`, `  rerun: ${f.replay}`)
  } else {
    lines.push(`  found by ${f.via} "${f.programName}" { strategy: '${f.strategy}', seed: ${f.seed}, decisions: ${f.decisions} }`)
    lines.push(`  program: ${JSON.stringify(f.program)}`)
    lines.push(`  replay: ${f.replay}`)
    if (withTimeline && f.timeline) lines.push('  timeline:', ...f.timeline.split('\n').map((l) => `    ${l}`))
  }
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
  const kit = report.clauses.filter((c) => c.status === 'kit').length
  const checked = report.clauses.some((c) => c.checks > 0)
  const verdict = report.failing.length > 0 ? (report.complete ? 'FAILED' : `FAILED (and incomplete: ${report.incomplete ?? 'not every unit ran'})`) : !report.complete ? `INCOMPLETE (${incompleteReason(report)})` : !checked ? 'INCOMPLETE (nothing was checked)' : 'PASSED'
  const tail = `${verdict}: ${pass} clauses pass, ${report.failing.length} fail, ${kit} kit-level (unit-tested in core/), ${unchecked} unchecked (${report.directedCases} directed cases, ${report.runs} simulated runs, ${(report.durationMs / 1000).toFixed(1)} s)`
  return [...head, ...(failures.length ? [...failures, ''] : []), tail].join('\n')
}

/** Why a certificate is incomplete, with how many units ran (said once). */
function incompleteReason(report: Report): string {
  const why = report.incomplete ?? 'not every unit ran'
  const units = `${report.units.ran} of ${report.units.planned} units ran`
  return why.includes(units) ? why : `${why}; ${units}`
}
