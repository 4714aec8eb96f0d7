/**
 * Long reference campaigns (a million runs and more) take an hour of a 2-core machine, too long to
 * repeat inside `npm run bench`. Each one is recorded here from its `fuzz --json` report, with the
 * command, the commit that ran it and how its findings were settled, and `bench/run.ts` prints the
 * records in RESULTS.md.
 *
 * `node dist/bench/long-campaigns.js --report <fuzz.json> --command "<the fuzz command>" --commit <sha>
 *   [--wall <seconds>] [--settled "<how each violation was settled>"]` appends a record to
 * bench/long-campaigns.json; `--write` (alone or with a record) rewrites that section of RESULTS.md
 * and its goal row from the records, leaving the rest of the file as it was measured.
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { arg, fmt, table } from './common.js'

/** One recorded campaign. */
export interface LongCampaign {
  readonly command: string
  readonly commit: string
  readonly date: string
  readonly runs: number
  readonly seeds: number
  readonly wallSeconds: number
  readonly outcomes: Record<string, number>
  readonly violatingRuns: number
  readonly violationCounts: Record<string, number>
  readonly coverage?: string
  readonly stateTransitions?: number
  /** How the violations were settled (fixed checker false positives, reference bugs), if any. */
  readonly settled?: string
}

const FILE = fileURLToPath(new URL('../../bench/long-campaigns.json', import.meta.url))

/** The recorded campaigns, oldest first. */
export function readLongCampaigns(file = FILE): LongCampaign[] {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LongCampaign[]) : []
}

/** The RESULTS.md section body for the recorded campaigns. */
export function longCampaignsSection(records: readonly LongCampaign[]): string {
  if (records.length === 0) return 'No long campaign recorded yet (`bench/long-campaigns.ts` says how to record one).'
  const rows = records.map((c) => [
    `\`${c.command}\``, c.commit, c.date.slice(0, 10), fmt(c.runs), `${fmt(c.wallSeconds / 60, 1)} min`,
    Object.entries(c.outcomes).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${fmt(n)}`).join(', '),
    c.violatingRuns === 0 ? 'none' : `${fmt(c.violatingRuns)} runs: ${Object.entries(c.violationCounts).map(([k, n]) => `${k} ×${n}`).join(', ')}`,
  ])
  const notes = records.filter((c) => c.settled).map((c) => `- \`${c.command}\` at ${c.commit}: ${c.settled}`)
  return `${table(['command', 'commit', 'date', 'runs', 'wall', 'outcomes', 'violations'], rows)}${notes.length ? `\n\n${notes.join('\n')}` : ''}${soundnessSection(records)}`
}

/**
 * The first commit whose checkers count what they decline and judge the former blind spots (issue
 * "checkers without blind spots"): soundness campaigns count from its records on.
 */
export const SOUNDNESS_SINCE = 'b8468db'
/** Clean runs the soundness goal asks of each (factory, strategy) pair. */
export const SOUNDNESS_GOAL = 300_000

/** The soundness pair of a recorded `fuzz --keep-going` command: the factory and the strategy. */
function soundnessPair(command: string): { factory: string; strategy: string } | undefined {
  const strategy = /--strategy (random|pct|portfolio)\b/.exec(command)?.[1]
  if (strategy === undefined || !command.includes('--keep-going')) return undefined
  const adapter = /--adapter (\S+)/.exec(command)?.[1]
  const factory = adapter === undefined ? 'reference' : adapter.includes('from-scratch-factory') ? 'from-scratch' : undefined
  return factory === undefined ? undefined : { factory, strategy }
}

/** One soundness pair's runs over its recorded campaigns. */
export interface SoundnessTotal { factory: string; strategy: string; runs: number; clean: number; violating: number; unsettled: number; commits: string[] }

/**
 * Per (factory, strategy) pair, the runs of the soundness campaigns recorded from
 * {@link SOUNDNESS_SINCE} on: a violating run counts as clean only once its record says how it was
 * settled (and never as one of the clean runs: they are the runs without a violation).
 */
export function soundnessTotals(records: readonly LongCampaign[]): SoundnessTotal[] {
  const from = records.findIndex((c) => c.commit === SOUNDNESS_SINCE)
  if (from < 0) return []
  const totals = new Map<string, SoundnessTotal>()
  for (const c of records.slice(from)) {
    const pair = soundnessPair(c.command)
    if (!pair) continue
    const key = `${pair.factory} ${pair.strategy}`
    const t = totals.get(key) ?? { ...pair, runs: 0, clean: 0, violating: 0, unsettled: 0, commits: [] }
    t.runs += c.runs
    t.clean += c.runs - c.violatingRuns
    t.violating += c.violatingRuns
    if (c.violatingRuns > 0 && (!c.settled || /NOT settled/.test(c.settled))) t.unsettled += c.violatingRuns
    if (!t.commits.includes(c.commit)) t.commits.push(c.commit)
    totals.set(key, t)
  }
  return [...totals.values()]
}

function soundnessSection(records: readonly LongCampaign[]): string {
  const totals = soundnessTotals(records)
  if (totals.length === 0) return ''
  const rows = totals.map((t) => [t.factory, t.strategy, fmt(t.runs), fmt(t.clean), t.violating === 0 ? 'none' : `${fmt(t.violating)} (${t.unsettled === 0 ? 'all settled' : `${fmt(t.unsettled)} not settled`})`, t.commits.join(', '), t.clean >= SOUNDNESS_GOAL && t.unsettled === 0 ? 'yes' : 'no'])
  const all = totals.reduce((n, t) => n + t.runs, 0)
  return `\n\n**Soundness (\`npm run soundness\`), per pair, from ${SOUNDNESS_SINCE} on** (${fmt(all)} runs; goal: ${fmt(SOUNDNESS_GOAL)} clean runs per pair, every violation settled):\n\n${table(['factory', 'strategy', 'runs', 'clean runs', 'violating runs', 'commits', 'goal met'], rows)}`
}

const RESULTS = fileURLToPath(new URL('../../bench/RESULTS.md', import.meta.url))
const HEADING = '## 9. Long reference campaigns (recorded)'
/** The section's first paragraph (bench/run.ts prints the same). */
export const LONG_CAMPAIGNS_INTRO = 'A million runs take about an hour of this machine, too long to repeat inside `npm run bench`: each long campaign is recorded from its `fuzz --json` report with `node dist/bench/long-campaigns.js` (the command, the commit that ran it, and how any violation was settled) in `bench/long-campaigns.json`, and printed here.'

/** The million-run goal row of RESULTS.md: the largest recorded reference campaign, and whether it ended clean. */
export function longCampaignGoal(records: readonly LongCampaign[]): string[] {
  const biggest = records.filter((c) => !/--adapter/.test(c.command)).sort((x, y) => y.runs - x.runs)[0]
  if (!biggest) return ['reference campaign', '1,000,000 runs, no violation', 'none recorded (§9)', 'n/a']
  const clean = biggest.violatingRuns === 0
  return ['reference campaign', '1,000,000 runs, no violation', `${fmt(biggest.runs)} runs at ${biggest.commit}: ${clean ? 'no violation' : `${fmt(biggest.violatingRuns)} violating runs (§9 says how they were settled)`}`, biggest.runs >= 1_000_000 && clean ? 'yes' : 'no']
}

/** Replace §9's body and the goal row in RESULTS.md text. */
export function rewriteResults(text: string, records: readonly LongCampaign[]): string {
  const start = text.indexOf(HEADING)
  // (the section ends at the next heading: sections written after it, like the goals, stay)
  const end = start >= 0 ? text.indexOf('\n## ', start + HEADING.length) : text.indexOf('\n## Goals vs measured')
  let out: string
  if (start >= 0 && end > start) {
    const intro = text.slice(start, end).split('\n\n').slice(0, 2).join('\n\n')
    out = `${text.slice(0, start)}${intro}\n\n${longCampaignsSection(records)}\n${text.slice(end)}`
  } else {
    // A RESULTS.md written before the section existed: put it before the goals (or at the end).
    const section = `${HEADING}\n\n${LONG_CAMPAIGNS_INTRO}\n\n${longCampaignsSection(records)}\n`
    out = end >= 0 ? `${text.slice(0, end)}\n${section}${text.slice(end)}` : `${text.trimEnd()}\n\n${section}`
  }
  const goal = `| ${longCampaignGoal(records).join(' | ')} |`
  if (/^\| reference campaign \|.*$/m.test(out)) return out.replace(/^\| reference campaign \|.*$/m, goal)
  // A goals table written before the row existed: the row goes after the table's last row.
  const table = out.indexOf('| goal | target | measured | met |')
  if (table < 0) return out
  const after = out.indexOf('\n\n', table)
  return after < 0 ? `${out.trimEnd()}\n${goal}\n` : `${out.slice(0, after)}\n${goal}${out.slice(after)}`
}

function main(): void {
  if (process.argv.includes('--write') && !arg('report')) {
    writeFileSync(RESULTS, rewriteResults(readFileSync(RESULTS, 'utf8'), readLongCampaigns()))
    return
  }
  const report = arg('report')
  const command = arg('command')
  const commit = arg('commit')
  if (!report || !command || !commit) throw new Error('usage: long-campaigns --report <fuzz.json> --command "<fuzz command>" --commit <sha> [--wall <s>] [--settled "<text>"]')
  const wall = arg('wall')
  const settled = arg('settled')
  const records = recordCampaign(report, command, commit, { ...(wall !== undefined ? { wallSeconds: Number(wall) } : {}), ...(settled ? { settled } : {}) })
  if (process.argv.includes('--write')) writeFileSync(RESULTS, rewriteResults(readFileSync(RESULTS, 'utf8'), records))
}

/** Append the campaign of a `fuzz --json` report to bench/long-campaigns.json; returns every record. */
export function recordCampaign(report: string, command: string, commit: string, extra: { wallSeconds?: number; settled?: string } = {}): LongCampaign[] {
  const r = JSON.parse(readFileSync(report, 'utf8')) as {
    runs: number; seeds: number; durationMs?: number; outcomes: Record<string, number>; violatingRuns: number; violationCounts: Record<string, number>
    coverage?: { exercised: number; total: number }; stateCoverage?: { transitions: number }
  }
  const record: LongCampaign = {
    command, commit, date: new Date().toISOString(), runs: r.runs, seeds: r.seeds,
    wallSeconds: extra.wallSeconds ?? (r.durationMs ?? 0) / 1000,
    outcomes: r.outcomes, violatingRuns: r.violatingRuns, violationCounts: r.violationCounts,
    ...(r.coverage ? { coverage: `${r.coverage.exercised}/${r.coverage.total}` } : {}),
    ...(r.stateCoverage ? { stateTransitions: r.stateCoverage.transitions } : {}),
    ...(extra.settled ? { settled: extra.settled } : {}),
  }
  const records = [...readLongCampaigns(), record]
  writeFileSync(FILE, `${JSON.stringify(records, null, 1)}\n`)
  process.stdout.write(`recorded ${fmt(record.runs)} runs of \`${command}\` in bench/long-campaigns.json\n`)
  return records
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main()
