/**
 * The words of one failure and the verdict of a certificate: data in, text out. They sit with
 * certify, not in `report/`, because the vitest face (`define-suite.ts`) throws a failure's words as
 * its assertion message; every whole-report format (`report/certify-text.ts` and the rest) builds on them.
 * @module
 */
import { printProgram } from '../../sim/program/program-print.js'
import { formatSizes } from '../../sim/run-size.js'
import type { RunSize } from '../../sim/shrink.js'
import { tierOfKey } from '../clauses/tiers.js'
import { gateOf } from './gate.js'
import type { ClauseResult, Failure, Report, StaleEntry } from './report.js'

const indent = (text: string, by = '    '): string => text.split('\n').map((l) => `${by}${l}`).join('\n')

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`

/** "shrunk from 13 operations to 2 (in 85 runs: operations 13 → 2, …)", or why it was not. */
export function describeShrink(f: Failure): string | undefined {
  const s = f.shrink
  if (s === undefined) return undefined
  if (!s.shrunk) return `not shrunk: ${s.note ?? 'the shrink did not apply'}`
  const { before, after } = s as { before: RunSize; after: RunSize }
  return `shrunk from ${plural(before.operations, 'operation')} to ${after.operations} (in ${s.runs} runs: ${formatSizes(before, after)})`
}

/**
 * One failure, as something a user can paste back: clause, message, how it was found, the
 * (shrunk) program as builder code and its replay command, then the run as found.
 */
export function formatFailure(c: ClauseResult, withTimeline = false): string {
  const f = c.failure as Failure
  const lines = [`${c.key} violated: ${c.title}`, ...f.message.split('\n').filter((line) => line.trim() !== '').map((line) => `  ${line}`), `  the clause and what it rests on: npx dsh-kit list --clause "${c.key}" (docs/clauses.md)`]
  if (f.via === 'directed case') {
    lines.push(`  found by directed case "${f.caseTitle}"`, `  rerun: ${f.replay}`)
  } else {
    lines.push(`  found by ${f.via} "${f.programName}" { strategy: '${f.strategy}', seed: ${f.seed}${f.shrink ? '' : `, decisions: ${f.decisions}`} }`)
    if (f.program) lines.push(`  program${f.shrink?.shrunk ? ' (shrunk)' : ''}:`, indent(printProgram(f.program)))
    if (f.replay) lines.push(`  replay: ${f.replay}`)
    const shrink = describeShrink(f)
    if (shrink) lines.push(`  ${shrink}`)
    if (f.shrink?.shrunk && f.shrink.original.replay) lines.push(`  as found (${f.shrink.original.decisions} decisions): ${f.shrink.original.replay}`)
    if (withTimeline && f.timeline) lines.push('  timeline:', indent(f.timeline))
  }
  if (c.caseFailure) lines.push(`  also failed directed case "${c.caseFailure.caseTitle}": ${c.caseFailure.message.split('\n')[0]}`, `  rerun: ${c.caseFailure.replay}`)
  return lines.join('\n')
}

/**
 * The certificate's verdict word and why (`gate.ts`): FAILED when a MUST clause fails that the
 * baseline does not list, INCOMPLETE when not every unit ran or nothing was checked, FAILED when a
 * MUST clause is left unchecked that the baseline does not list or a baseline entry no longer holds,
 * else PASSED (saying what the baseline made known, or which failures of other tiers were not counted).
 */
export function verdictOf(report: Report): { readonly verdict: 'PASSED' | 'FAILED' | 'INCOMPLETE'; readonly why?: string } {
  const gate = gateOf(report)
  const baseline = gate.baseline
  const parts: string[] = []
  if (baseline && gate.newFailures.length > 0) parts.push(`${count(gate.newFailures.length, 'new failure')} not in the baseline: ${gate.newFailures.join(', ')}`)
  if (gate.newUnchecked.length > 0) parts.push(`${count(gate.newUnchecked.length, 'MUST clause')} left unchecked${baseline ? ' and not in the baseline' : ''}: ${gate.newUnchecked.join(', ')}`)
  if (baseline && baseline.stale.length > 0) parts.push(`the baseline is out of date: ${baseline.stale.map(staleText).join(', ')}`)
  const why = (more: string[] = []): { why?: string } => (parts.length + more.length > 0 ? { why: [...parts, ...more].join('; ') } : {})
  if (gate.newFailures.length > 0) return { verdict: 'FAILED', ...why(report.complete ? [] : [`and incomplete: ${report.incomplete ?? 'not every unit ran'}`]) }
  if (!report.complete) return { verdict: 'INCOMPLETE', why: incompleteReason(report) }
  if (!report.clauses.some((c) => c.checks > 0)) return { verdict: 'INCOMPLETE', why: 'nothing was checked' }
  if (parts.length > 0) return { verdict: 'FAILED', ...why() }
  const known = baseline ? [`baseline${baseline.file ? ` ${baseline.file}` : ''}: ${count(baseline.knownFailures.length, 'known failure')}${baseline.knownUnchecked.length ? `, ${baseline.knownUnchecked.length} known unchecked` : ''}`] : []
  const uncounted = gate.uncounted.length ? [`not counted: ${gate.uncounted.map((k) => `${k} (${tierOfKey(k)})`).join(', ')}`] : []
  return { verdict: 'PASSED', ...why([...known, ...uncounted]) }
}

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`

/** A stale baseline entry, as the fix it needs. */
function staleText(e: StaleEntry): string {
  if (e.now === 'pass') return `${e.clause} now passes (remove it from "${e.listed}")`
  if (e.now === 'unchecked') return `${e.clause} is now unchecked (move it to "unchecked" with the reason)`
  return `${e.clause} is now checked and fails (move it to "failures")`
}

/** Why a certificate is incomplete, with how many units ran (said once). */
function incompleteReason(report: Report): string {
  const why = report.incomplete ?? 'not every unit ran'
  const units = `${report.units.ran} of ${report.units.planned} units ran`
  return why.includes(units) ? why : `${why}; ${units}`
}
