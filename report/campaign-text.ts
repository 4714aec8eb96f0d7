/**
 * Wording of a campaign's report: data in, text out. A failure reads as something to paste back:
 * the clause, the seed and strategy, the sizes before and after shrinking, the shrunk program as
 * builder code, `npx dsh-kit replay <file>`, the command rerunning the seed, and the timeline.
 * @module
 */
import { printProgram } from '../scenarios/arbitraries/print.js'
import type { CampaignFailure, CampaignReport } from '../scenarios/campaign/campaign.js'
import { formatSizes } from '../sim/run-size.js'
import { formatInteractionCoverage } from './interaction-text.js'

export { formatSizes }

/** Options of {@link formatCampaign}. */
export interface FormatCampaignOptions {
  /** Print each failure's timeline (default true). */
  readonly timelines?: boolean
  /** Wall time of the campaign, printed when given (the library itself never reads a clock). */
  readonly durationMs?: number
  /**
   * The heading's command and subject, instead of `dsh-kit fuzz` and `scenario NAME` (`dsh-kit run`
   * gives `dsh-kit run` and `program <file>`).
   */
  readonly heading?: { readonly command: string; readonly subject: string }
}

/** Coverage keys listed in text before "and N more". */
const MAX_LISTED = 16

const indent = (text: string, by = '    '): string => text.split('\n').map((l) => `${by}${l}`).join('\n')


/** One failure, ready to paste back. */
export function formatCampaignFailure(f: CampaignFailure, options: FormatCampaignOptions = {}): string {
  const lines = [
    `${f.key} violated${f.known ? ` (known: ${f.known.reason || 'listed in the baseline'}${f.known.link ? `, ${f.known.link}` : ''})` : ''}: ${f.message}`,
    `  found by run ${f.run} { seed: ${f.runSeed}, strategy: '${f.strategy}' }${f.alsoViolated.length ? `; the same run also violated ${f.alsoViolated.join(', ')}` : ''}`,
  ]
  if (f.shrink) {
    lines.push(f.shrink.reproduced
      ? `  shrunk in ${f.shrink.runs} runs: ${formatSizes(f.before, f.after)}`
      : `  NOT shrunk: the violation did not reproduce under a guided replay (${f.shrink.runs} runs); reporting the original run`)
  } else {
    lines.push(`  not shrunk: ${formatSizes(f.before, f.after)}`)
  }
  lines.push(`  outcome: ${f.outcome}, trace ${f.hash}${f.replayVerified ? '' : ' (WARNING: a strict replay of the saved log did not reproduce this trace: the factory is nondeterministic)'}`)
  if (f.baseline) {
    lines.push(f.baseline.violates.includes(f.key)
      ? `  NOTE: the baseline ${f.baseline.name} violates ${f.key} too on this program and schedule (it followed ${f.baseline.followed}/${f.baseline.picks} picks): likely a checker false positive or a contract ambiguity, not this adapter's bug`
      : `  the baseline ${f.baseline.name} does not violate it on this program and schedule (it followed ${f.baseline.followed}/${f.baseline.picks} picks${f.baseline.violates.length ? `; it violates ${f.baseline.violates.join(', ')}` : ''})`)
  }
  lines.push('  program:', indent(printProgram(f.program)))
  if (f.replay) lines.push(`  replay:  ${f.replay}`)
  lines.push(`  rerun:   ${f.rerun}`)
  if (options.timelines ?? true) lines.push('  timeline:', indent(f.timeline))
  return lines.join('\n')
}

/** What kinds of programs a random-program campaign ran. */
function programKinds(report: CampaignReport): string {
  if (report.interactions === 'only') return 'the interaction suite: small programs, each under its bounded schedules'
  const mixed = report.goals !== undefined && Object.keys(report.goals.reached).length > 0
  const kinds = `full mix, swarm${mixed ? ' and named scenarios' : ''} by seed block`
  const beside = report.interactions === 'mix' ? ', and the interaction suite beside one seed in 16' : ''
  return report.guidance === 'on' ? `${kinds}, guided by state coverage: mostly mutants of a corpus${beside}` : `${kinds}, one per run seed${beside}`
}

const pct = (share: number): string => `${Math.round(share * 100)}%`

/** The state-coverage line: transitions covered, their growth, the corpus. */
export function formatStateCoverage(c: NonNullable<CampaignReport['stateCoverage']>): string {
  if (c.lowerBound) return `state coverage: at least ${c.transitions} abstract transitions (the largest shard's)`
  const growth = c.growth.map((g) => `${g.transitions} at ${pct(g.share)}`).join(', ')
  const corpus = c.corpus ? `; corpus ${c.corpus.entries} programs, ${c.corpus.mutatedSeeds} seeds ran a mutant of one` : ''
  const full = c.fullSince === undefined ? '' : `; the table of transitions filled at run ${c.fullSince} (its bound on memory): transitions first reached after it are not counted`
  return `state coverage: ${c.transitions} abstract transitions (${growth} of the runs)${corpus}${full}`
}

/**
 * The checkers' line: the clauses whose checker declined a unit in some run, with the share of the
 * runs that reached them and the most frequent reason (a reason the contract leaves open starts with
 * `§`), and those never judged although reached.
 */
export function formatDeclines(clauses: NonNullable<CampaignReport['clauses']>): string {
  const declined = clauses.filter((c) => c.declinedRuns > 0).sort((x, y) => y.declinedRuns / y.reached - x.declinedRuns / x.reached)
  if (declined.length === 0) return 'checkers: every clause judged in every run that reached it'
  const shown = declined.slice(0, MAX_LISTED / 2).map((c) => {
    const [reason] = Object.entries(c.declined).sort((x, y) => y[1] - x[1])[0] ?? []
    return `${c.key}${c.judged === 0 ? ' (NOT JUDGED)' : ''} in ${c.declinedRuns} of ${c.reached} runs${reason ? ` (${reason})` : ''}`
  })
  const more = declined.length > shown.length ? ` and ${declined.length - shown.length} more (all in --json)` : ''
  return `checkers declined: ${shown.join(', ')}${more}`
}

/** The whole campaign report as text. */
export function formatCampaign(report: CampaignReport, options: FormatCampaignOptions = {}): string {
  const what = options.heading?.subject ?? (report.mode === 'scenario' ? `scenario ${report.scenario}` : `random programs (${programKinds(report)})`)
  const outcomes = Object.entries(report.outcomes).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ')
  const lines = [
    `${options.heading?.command ?? 'dsh-kit fuzz'} — adapter ${report.adapter}, ${what}, strategy ${report.strategy}, seed ${report.seed}, shard ${report.shard.index}/${report.shard.count}`,
    `runs: ${report.runs} (${report.seeds} run seeds${options.durationMs === undefined ? '' : `, ${(options.durationMs / 1000).toFixed(1)} s, ${(report.runs / Math.max(options.durationMs / 1000, 1e-3)).toFixed(1)} runs/s`}); outcomes: ${outcomes || 'none'}; stopped by ${report.stoppedBy}`,
    '',
  ]
  for (const f of report.failures) lines.push(formatCampaignFailure(f, options), '')
  if (report.shared.length) {
    lines.push('violations the baseline factory shows too under the same schedules (not counted against this adapter; likely checker false positives — please report them):')
    for (const v of report.shared) lines.push(`  ${v.key} in ${v.runs} run${v.runs === 1 ? '' : 's'}, first at seed ${v.firstRunSeed}: ${v.message}`)
    lines.push('')
  }
  if (report.coverage) {
    const { exercised, total, missing } = report.coverage
    const shown = missing.slice(0, MAX_LISTED)
    const more = missing.length > shown.length ? ` and ${missing.length - shown.length} more (all in --json)` : ''
    lines.push(`coverage: ${exercised}/${total} program coverage keys exercised${missing.length ? `; never exercised: ${shown.join(', ')}${more}` : ''}`)
  }
  if (report.stateCoverage) lines.push(formatStateCoverage(report.stateCoverage))
  if (report.clauses) lines.push(formatDeclines(report.clauses))
  if (report.interactionCoverage) lines.push(formatInteractionCoverage(report.interactionCoverage))
  if (report.goals && report.mode === 'programs' && Object.keys(report.goals.reached).length > 0) {
    const reached = Object.values(report.goals.reached).filter((r) => r !== undefined)
    lines.push(`goals of the scenarios mixed in: ${reached.length}/${Object.keys(report.goals.reached).length} reached`)
    const missed = report.goals.missed
    if (missed.length) lines.push(`goals never reached: ${missed.slice(0, MAX_LISTED).join(', ')}${missed.length > MAX_LISTED ? ` and ${missed.length - MAX_LISTED} more (all in --json)` : ''}`)
  } else if (report.goals && Object.keys(report.goals.reached).length > 0) {
    const reached = Object.entries(report.goals.reached).filter(([, r]) => r !== undefined)
    lines.push(`goals: ${reached.length}/${Object.keys(report.goals.reached).length} reached${reached.length ? ` (${reached.map(([g, r]) => `${g} at run ${r}`).join(', ')})` : ''}`)
    if (report.goals.missed.length) lines.push(`goals never reached: ${report.goals.missed.join(', ')}`)
  }
  const counts = Object.entries(report.violationCounts).map(([k, n]) => `${k} in ${n} run${n === 1 ? '' : 's'}`).join(', ')
  const found = `${Object.keys(report.violationCounts).length} clause(s) violated in ${report.violatingRuns} of ${report.runs} runs (${counts})`
  // With a baseline (--baseline), violations of the clauses it lists are known: they do not fail the campaign.
  const known = new Set(report.knownClauses ?? [])
  const knownCounts = Object.entries(report.violationCounts).filter(([k]) => known.has(k)).map(([k, n]) => `${k} in ${n} run${n === 1 ? '' : 's'}`)
  const newOnes = Object.keys(report.violationCounts).filter((k) => !known.has(k))
  const passedText = knownCounts.length ? `no new violation in ${report.runs} runs; known (baseline): ${knownCounts.join(', ')}` : `no violation in ${report.runs} runs`
  const failedText = knownCounts.length ? `${newOnes.length} new clause(s) violated (${newOnes.join(', ')}); ${found}` : found
  if (report.stoppedBy === 'interrupted') lines.push(`INTERRUPTED after ${report.runs} runs: ${report.passed ? (knownCounts.length ? passedText : 'no violation so far') : failedText}`)
  else if (report.runs === 0) lines.push('INCOMPLETE: no run completed within the budget')
  else lines.push(report.passed ? `PASSED: ${passedText}` : `FAILED: ${failedText}`)
  return lines.join('\n')
}
