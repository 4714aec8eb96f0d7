/**
 * What the checkers declined over a campaign, clause by clause: the share of the runs that reached
 * a clause's shape in which it declined a unit, for any reason and for a reason that is not the
 * contract's (a blind spot of the kit), from the `clauses` list of a `fuzz --json` report.
 *
 * Measure:  node dist/cli/main.js fuzz --runs 5000 --workers 2 --json <report.json>
 * Record:   node dist/bench/declines.js --report <report.json> --label <before|after> --command "<the fuzz command>" --commit <sha>
 *           appends the measurement to bench/declines.json (a later one of the same label replaces it);
 * Write:    node dist/bench/declines.js --write   rewrites RESULTS.md's declines section from the records;
 * Check:    node dist/bench/declines.js --check <report.json>   exits 1 when a clause that reached its shape
 *           in at least 50 runs declined more than 5% of them for a reason that is not the contract's.
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { ClauseTally } from '../conformance/checkers/index.js'
import { arg, fmt, table } from './common.js'

/** One recorded measurement. */
export interface DeclineMeasurement {
  readonly label: string
  readonly command: string
  readonly commit: string
  readonly date: string
  readonly runs: number
  readonly clauses: readonly ClauseTally[]
}

/** The goal: a clause that reached its shape in this many runs or more ... */
export const MIN_REACHED = 50
/** ... declines at most this share of them for a reason that is not the contract's. */
export const MAX_BLIND_SHARE = 0.05

const FILE = fileURLToPath(new URL('../../bench/declines.json', import.meta.url))
const RESULTS = fileURLToPath(new URL('../../bench/RESULTS.md', import.meta.url))
const HEADING = '## 10. What the checkers decline'
/** The section's first paragraph (bench/run.ts prints the same). */
export const DECLINES_INTRO = 'Per clause, over a 5,000-run default campaign on the reference: the runs that reached the clause\'s shape (a unit of it was judged or declined), the share in which a unit was declined, and the share declined for a reason that is not the contract\'s (`blind`; a reason the contract leaves open starts with `§`). `conformance/checkers/README.md` lists every decline path and what became of it. Measured with `bench/declines.ts` from a `fuzz --json` report\'s `clauses` list.'

/** The recorded measurements. */
export function readMeasurements(file = FILE): DeclineMeasurement[] {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DeclineMeasurement[]) : []
}

const share = (n: number, of: number): string => (of === 0 ? '–' : `${fmt((100 * n) / of, 1)}%`)

/** The clauses over the goal in a report's `clauses` list. */
export function overGoal(clauses: readonly ClauseTally[]): ClauseTally[] {
  return clauses.filter((c) => c.reached >= MIN_REACHED && c.blind / c.reached > MAX_BLIND_SHARE)
}

/** The RESULTS.md section body: one row per clause that reached its shape before or after. */
export function declinesSection(records: readonly DeclineMeasurement[]): string {
  const before = records.find((r) => r.label === 'before')
  const after = records.find((r) => r.label === 'after')
  if (!before && !after) return 'No measurement recorded yet (`bench/declines.ts` says how to record one).'
  const keys = [...new Set([...(before?.clauses ?? []), ...(after?.clauses ?? [])].filter((c) => c.declinedRuns > 0).map((c) => c.key))]
  const byKey = (r: DeclineMeasurement | undefined, key: string): ClauseTally | undefined => r?.clauses.find((c) => c.key === key)
  const order = (key: string): number => Number(/\d+$/.exec(key)?.[0])
  const rows = keys.sort((x, y) => order(x) - order(y)).map((key) => {
    const b = byKey(before, key)
    const a = byKey(after, key)
    const cells = (c: ClauseTally | undefined): string[] => c === undefined || c.reached === 0
      ? ['–', '–', '–']
      : [fmt(c.reached), share(c.declinedRuns, c.reached), share(c.blind, c.reached)]
    const top = (c: ClauseTally | undefined): string => {
      const [reason, n] = Object.entries(c?.declined ?? {}).sort((x, y) => y[1] - x[1])[0] ?? []
      return reason === undefined ? '' : `${reason} (${fmt(n!)})`
    }
    return [key, ...cells(b), ...cells(a), top(a) || top(b)]
  })
  const head = ['clause', 'before: reached', 'declined', 'blind', 'after: reached', 'declined', 'blind', 'most frequent reason (after, else before)']
  const meta = records.map((r) => `- ${r.label}: \`${r.command}\` at ${r.commit} (${fmt(r.runs)} runs)`)
  const over = after ? overGoal(after.clauses) : []
  const goal = after
    ? over.length === 0
      ? `After: no clause that reached its shape in ${MIN_REACHED} runs or more declined more than ${MAX_BLIND_SHARE * 100}% of them for a reason that is not the contract's.`
      : `After, over the goal (${MAX_BLIND_SHARE * 100}% of at least ${MIN_REACHED} runs): ${over.map((c) => `${c.key} ${share(c.blind, c.reached)}`).join(', ')}.`
    : ''
  return `${meta.join('\n')}\n\n${table(head, rows)}\n\n${goal}`.trimEnd()
}

/** Replace (or add, before the goals) the section in RESULTS.md text. */
export function rewriteResults(text: string, records: readonly DeclineMeasurement[]): string {
  const section = `${HEADING}\n\n${DECLINES_INTRO}\n\n${declinesSection(records)}\n`
  const start = text.indexOf(HEADING)
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + HEADING.length)
    return `${text.slice(0, start)}${section}${next >= 0 ? text.slice(next) : ''}`
  }
  const goals = text.indexOf('\n## Goals vs measured')
  return goals >= 0 ? `${text.slice(0, goals)}\n${section}${text.slice(goals)}` : `${text.trimEnd()}\n\n${section}`
}

function main(): void {
  const check = arg('check')
  if (check) {
    const report = JSON.parse(readFileSync(check, 'utf8')) as { clauses?: ClauseTally[] }
    const over = overGoal(report.clauses ?? [])
    for (const c of over) process.stdout.write(`${c.key}: declined for a reason that is not the contract's in ${c.blind} of ${c.reached} runs (${share(c.blind, c.reached)}): ${JSON.stringify(c.declined)}\n`)
    process.stdout.write(over.length === 0 ? 'every clause within the goal\n' : '')
    process.exitCode = over.length === 0 ? 0 : 1
    return
  }
  if (process.argv.includes('--write') && !arg('report')) {
    writeFileSync(RESULTS, rewriteResults(readFileSync(RESULTS, 'utf8'), readMeasurements()))
    return
  }
  const report = arg('report')
  const label = arg('label')
  const command = arg('command')
  const commit = arg('commit')
  if (!report || !label || !command || !commit) throw new Error('usage: declines --report <fuzz.json> --label <before|after> --command "<fuzz command>" --commit <sha> | --write | --check <fuzz.json>')
  const r = JSON.parse(readFileSync(report, 'utf8')) as { runs: number; clauses?: ClauseTally[] }
  if (!r.clauses) throw new Error(`${report} has no clauses list (a fuzz --json report of a kit that counts declines)`)
  const record: DeclineMeasurement = { label, command, commit, date: new Date().toISOString(), runs: r.runs, clauses: r.clauses }
  const records = [...readMeasurements().filter((m) => m.label !== label), record]
  writeFileSync(FILE, `${JSON.stringify(records, null, 1)}\n`)
  process.stdout.write(`recorded ${label}: ${fmt(r.runs)} runs of \`${command}\` in bench/declines.json\n`)
  if (process.argv.includes('--write')) writeFileSync(RESULTS, rewriteResults(readFileSync(RESULTS, 'utf8'), records))
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main()
