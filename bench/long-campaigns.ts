/**
 * Long reference campaigns (a million runs and more) take an hour of a 2-core machine, too long to
 * repeat inside `npm run bench`. Each one is recorded here from its `fuzz --json` report, with the
 * command, the commit that ran it and how its findings were settled, and `bench/run.ts` prints the
 * records in RESULTS.md.
 *
 * `node dist/bench/long-campaigns.js --report <fuzz.json> --command "<the fuzz command>" --commit <sha>
 *   [--wall <seconds>] [--settled "<how each violation was settled>"]` appends a record to
 * bench/long-campaigns.json.
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
  return `${table(['command', 'commit', 'date', 'runs', 'wall', 'outcomes', 'violations'], rows)}${notes.length ? `\n\n${notes.join('\n')}` : ''}`
}

function main(): void {
  const report = arg('report')
  const command = arg('command')
  const commit = arg('commit')
  if (!report || !command || !commit) throw new Error('usage: long-campaigns --report <fuzz.json> --command "<fuzz command>" --commit <sha> [--wall <s>] [--settled "<text>"]')
  const r = JSON.parse(readFileSync(report, 'utf8')) as {
    runs: number; seeds: number; durationMs?: number; outcomes: Record<string, number>; violatingRuns: number; violationCounts: Record<string, number>
    coverage?: { exercised: number; total: number }; stateCoverage?: { transitions: number }
  }
  const wall = arg('wall')
  const settled = arg('settled')
  const record: LongCampaign = {
    command, commit, date: new Date().toISOString(), runs: r.runs, seeds: r.seeds,
    wallSeconds: wall !== undefined ? Number(wall) : (r.durationMs ?? 0) / 1000,
    outcomes: r.outcomes, violatingRuns: r.violatingRuns, violationCounts: r.violationCounts,
    ...(r.coverage ? { coverage: `${r.coverage.exercised}/${r.coverage.total}` } : {}),
    ...(r.stateCoverage ? { stateTransitions: r.stateCoverage.transitions } : {}),
    ...(settled ? { settled } : {}),
  }
  writeFileSync(FILE, `${JSON.stringify([...readLongCampaigns(), record], null, 1)}\n`)
  process.stdout.write(`recorded ${fmt(record.runs)} runs of \`${command}\` in ${FILE}\n`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main()
