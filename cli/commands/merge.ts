/**
 * `dsh-kit merge`: the shard reports of one campaign (a CI matrix of `fuzz --shard i/n --json …`
 * jobs) as one report, with one exit code.
 * @module
 */
import { readFileSync } from 'node:fs'
import { formatCampaign } from '../../report/campaign-text.js'
import { MergeError, mergeReports } from '../../scenarios/campaign/merge.js'
import type { MergedReport, ShardReport } from '../../scenarios/campaign/merge.js'
import { InputError, UsageError } from '../errors.js'
import { EXIT } from '../exit-codes.js'
import { outputsExitCode, parseOptions } from '../options.js'
import { reporterOptions, writeReports } from '../reporters/index.js'
import { campaignJUnit } from '../../report/junit.js'

function readShard(path: string): ShardReport {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new InputError(`${path}: cannot read a fuzz report: ${(error as Error).message}`)
  }
  const r = value as Partial<ShardReport>
  if (typeof r !== 'object' || r === null || typeof r.runs !== 'number' || !Array.isArray(r.failures) || typeof r.shard !== 'object' || r.shard === null
    || typeof r.shard.index !== 'number' || typeof r.shard.count !== 'number' || typeof r.adapter !== 'string' || typeof r.violatingRuns !== 'number'
    || typeof r.violationCounts !== 'object' || r.violationCounts === null) {
    throw new InputError(`${path}: not a fuzz report (expected the JSON that \`dsh-kit fuzz --json <file>\` writes)`)
  }
  return r as ShardReport
}

/** The exit code of a merged campaign. */
export function mergeExitCode(report: MergedReport): number {
  if (!report.passed) return EXIT.violation
  if (report.stoppedBy === 'interrupted' || report.runs === 0 || report.emptyShards.length > 0) return EXIT.incomplete
  return EXIT.ok
}

export function mergeCommand(args: string[]): number {
  const { values, positionals } = parseOptions('merge', args, {
    json: { type: 'string' }, reporter: { type: 'string', multiple: true }, 'no-timelines': { type: 'boolean', default: false },
  }, true)
  if (positionals.length === 0) throw new UsageError('merge needs the shard reports: dsh-kit merge <report.json>...')
  const reporters = reporterOptions('merge', values.reporter, values.json)
  let merged: MergedReport
  try {
    merged = mergeReports(positionals.map(readShard), (i) => positionals[i]!)
  } catch (error) {
    if (error instanceof MergeError) throw new InputError(error.message)
    throw error
  }
  console.log(`merged ${positionals.length} shard report${positionals.length === 1 ? '' : 's'} (shards ${merged.mergedShards.join(', ')}; dsh-kit ${merged.kitVersion})`)
  // A shard that ran nothing (killed, or out of time before its first run) tried none of its seeds.
  for (const shard of merged.emptyShards) console.log(`shard ${shard} completed 0 runs: its seeds were never tried, so the merge is INCOMPLETE`)
  console.log(formatCampaign(merged, { timelines: !values['no-timelines'], ...(merged.durationMs === undefined ? {} : { durationMs: merged.durationMs }) }))
  const failed = writeReports(reporters, { json: () => `${JSON.stringify(merged, null, 1)}\n`, junit: () => campaignJUnit(merged) })
  return outputsExitCode(failed, mergeExitCode(merged))
}
