/**
 * The certificate as text: the per-clause table and the whole report, built from the words of each
 * failure (`conformance/certify/failure-text.ts`). Data in, text out.
 * @module
 */
import type { ClauseResult, Report } from '../conformance/certify/report.js'
import { formatFailure, verdictOf } from '../conformance/certify/failure-text.js'
import { clauseTier, gateOf, tierTotals } from '../conformance/certify/gate.js'
import { TIERS } from '../conformance/clauses/tiers.js'
import { describeDeclines } from '../conformance/checkers/index.js'
import { formatInteractionCoverage, interactionStatement } from './interaction-text.js'

const MARK: Record<ClauseResult['status'], string> = { pass: 'pass', fail: 'FAIL', unchecked: '  - ', unjudged: ' ?? ' }

/** What a trace checker declined of a clause, after its checks (`; judged in …, declined in …`), or ''. */
export function declinedText(c: ClauseResult): string {
  if (c.judged === undefined || c.reached === undefined || c.declined === undefined) return ''
  const text = describeDeclines({ judged: c.judged, reached: c.reached, declined: c.declined, declinedRuns: c.declinedRuns ?? 0, blind: 0 })
  return text && `; ${text}`
}

/** The per-clause table, grouped by clause group. */
export function formatClauseTable(report: Report): string {
  const lines: string[] = []
  const groups = [...new Set(report.clauses.map((c) => c.group))]
  for (const group of groups) {
    const inGroup = report.clauses.filter((x) => x.group === group)
    const fails = inGroup.filter((x) => x.status === 'fail').length
    const passes = inGroup.filter((x) => x.status === 'pass').length
    const notJudged = inGroup.filter((x) => x.status === 'unjudged').length
    lines.push(`${group}  (${passes} pass, ${fails} fail, ${inGroup.length - passes - fails - notJudged} unchecked${notJudged ? `, ${notJudged} not judged` : ''})`)
    for (const c of inGroup) {
      const title = c.title.length > 80 ? `${c.title.slice(0, 77)}...` : c.title
      const how = c.status === 'unchecked' ? `  (${c.reason ?? 'unchecked'})` : `  [${c.checkedBy.join('+')} ${c.checks}${declinedText(c)}]`
      lines.push(`  ${c.known && c.status === 'fail' ? 'fail' : MARK[c.status]}  ${String(c.clause).padStart(3)}  ${title}${how}${gateNote(c)}`)
    }
  }
  return lines.join('\n')
}

/** A clause's tier when it is not a MUST, and its baseline entry when it has one. */
function gateNote(c: ClauseResult): string {
  const tier = clauseTier(c)
  return `${tier === 'MUST' ? '' : `  [${tier}, not counted]`}${c.known ? `  known: ${c.known.reason || 'listed in the baseline'}` : ''}`
}

/** Each tier's totals, on one line. */
export function formatTierTotals(report: Report): string {
  const totals = report.tiers ?? tierTotals(report.clauses)
  const parts = TIERS.map((t) => {
    const n = totals[t]
    return n.clauses === 0 ? `${t} none` : `${t} ${n.pass}/${n.clauses} pass (${n.fail} fail, ${n.unchecked} unchecked)`
  })
  return `tiers: ${parts.join('; ')} — the verdict counts the MUST clauses`
}

/** What the baseline made of the certificate: the known failures and unchecked clauses, what is new, what no longer holds. */
export function formatBaselineSummary(report: Report): string[] {
  const gate = gateOf(report)
  const b = gate.baseline
  if (!b) return []
  const byKey = new Map(report.clauses.map((c) => [c.key, c]))
  const entry = (key: string): string => {
    const known = byKey.get(key)?.known
    return `    ${key}  ${known?.reason || '(no reason given)'}${known?.link ? `  (${known.link})` : ''}`
  }
  const lines = [`baseline ${b.file ?? ''}${b.file ? ' ' : ''}(written for ${b.adapter}, kit ${b.kit}, contract ${b.contract}):`]
  lines.push(`  known failures (${b.knownFailures.length})${b.knownFailures.length ? ':' : ''}`, ...b.knownFailures.map(entry))
  if (b.knownUnchecked.length) lines.push(`  known unchecked (${b.knownUnchecked.length}):`, ...b.knownUnchecked.map(entry))
  lines.push(`  new failures: ${gate.newFailures.length ? gate.newFailures.join(', ') : 'none'}`)
  if (gate.newUnchecked.length) lines.push(`  new unchecked MUST clauses: ${gate.newUnchecked.join(', ')}`)
  if (b.stale.length) lines.push(`  out of date (update the baseline: dsh-kit certify --write-baseline <file>):`, ...b.stale.map((e) => `    ${e.clause}  listed in "${e.listed}", now ${e.now === 'pass' ? 'passes' : e.now === 'fail' ? 'fails' : 'unchecked'}`))
  if (b.notCovered.length) lines.push(`  not covered by this certification (--only): ${b.notCovered.join(', ')}`)
  return lines
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
  // A known failure is listed with its reason under the baseline; the new ones are printed in full.
  const failures = report.clauses.filter((c) => c.status === 'fail' && !c.known).map((c) => formatFailure(c, options.timelines))
  const gateLines = [formatTierTotals(report), ...formatBaselineSummary(report), '']
  const pass = report.clauses.filter((c) => c.status === 'pass').length
  const unchecked = report.clauses.filter((c) => c.status === 'unchecked').length
  const notJudged = report.clauses.filter((c) => c.status === 'unjudged').length
  const verdict = describeVerdict(report)
  const by = (how: 'case' | 'program' | 'checker'): number => report.clauses.filter((c) => c.status !== 'unchecked' && c.checkedBy.includes(how)).length
  const tail = `${verdict}: ${pass} clauses pass, ${report.failing.length} fail, ${unchecked} unchecked${notJudged ? `, ${notJudged} not judged (the checkers declined every run that reached them)` : ''}; checked by a case ${by('case')}, a program ${by('program')}, a checker ${by('checker')} (${report.directedCases} directed cases, ${report.runs} simulated runs, ${(report.durationMs / 1000).toFixed(1)} s)`
  const coverage = report.interactionCoverage ? [`${formatInteractionCoverage(report.interactionCoverage)}; covered: ${interactionStatement(report.interactionCoverage) || 'no combination in full'}`] : []
  return [...head, ...(failures.length ? [...failures, ''] : []), ...coverage, ...gateLines, tail].join('\n')
}
