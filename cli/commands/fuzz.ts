/**
 * `dsh-kit fuzz`: a campaign of random programs (or one named scenario) under many schedules.
 * @module
 */
import { join } from 'node:path'
import { REFERENCE_ADAPTER } from '../../conformance/adapters/adapter.js'
import { CAMPAIGN_STRATEGIES, CampaignError, DEFAULT_GUIDANCE, runCampaign } from '../../scenarios/campaign/campaign.js'
import type { CampaignCheckpoint, CampaignProgress, CampaignReport, CampaignStrategy } from '../../scenarios/campaign/campaign.js'
import { formatCampaign } from '../../report/campaign-text.js'
import { findScenario } from '../../scenarios/catalog/catalog.js'
import { describeAdapter } from '../../conformance/adapters/watched-adapter.js'
import { UsageError } from '../errors.js'
import { EXIT } from '../exit-codes.js'
import { kitVersion } from '../kit-version.js'
import { exitCodeOf, interrupted } from '../interrupt.js'
import { intOption, outputsExitCode, parseDuration, parseOptions, workersOption, writableDir } from '../options.js'
import { reporterOptions, writeReports } from '../reporters/index.js'
import { plannedSeedsPerWorker } from '../interrupt-budget.js'
import { tuneForCampaign } from '../v8-tuning.js'
import type { checkpointWriter } from '../checkpoint.js'
import type { KnownEntry } from '../../conformance/certify/report.js'

/** `1h02m`, `3m05s`, `42s`. */
function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`
}

function fuzzProgress(started: number): (p: CampaignProgress) => void {
  let last = 0
  let firstSeeds: number | undefined
  const tty = process.stderr.isTTY === true
  return (p) => {
    const now = performance.now()
    // Seeds restored from a checkpoint took no time here: the rate counts this session's only.
    firstSeeds ??= p.seeds
    if (now - last < (tty ? 100 : 5000) && p.phase === 'running') return
    last = now
    const elapsed = Math.max((now - started) / 1000, 1e-3)
    const rate = p.runs / elapsed
    const goals = p.unreachedGoals === undefined ? '' : `  unreached goals: ${p.unreachedGoals}`
    const what = p.phase === 'shrinking' ? `  shrinking ${p.key}` : ''
    const done = (p.seeds ?? 0) - (firstSeeds ?? 0)
    const eta = p.plannedSeeds !== undefined && p.seeds !== undefined && done > 0
      ? `  seeds ${p.seeds}/${p.plannedSeeds} (${Math.floor((p.seeds / p.plannedSeeds) * 100)}%), ETA ${duration(((p.plannedSeeds - p.seeds) * elapsed) / done)}` : ''
    const line = `  fuzz ${String(p.runs).padStart(7)} runs  ${rate.toFixed(1).padStart(7)} runs/s  failures: ${p.failures} (violating runs: ${p.violatingRuns})${eta}${goals}${what}`
    process.stderr.write(tty ? `\r${line.padEnd(100)}` : `${line}\n`)
  }
}

/** The exit code of a campaign. */
export function fuzzExitCode(report: CampaignReport): number {
  const signal = interrupted()
  if (signal) return exitCodeOf(signal)
  if (!report.passed) return EXIT.violation
  if (report.runs === 0) return EXIT.incomplete
  return EXIT.ok
}

/** The known violations of a `--baseline` file. */
async function readKnownViolations(file: string): Promise<ReadonlyMap<string, KnownEntry>> {
  const [{ knownViolations }, { readBaselineFile }] = await Promise.all([import('../../conformance/certify/baseline.js'), import('../baseline-file.js')])
  return knownViolations(readBaselineFile(file))
}

/** A `--checkpoint` file: the state to resume from (if any) and its writer. */
async function openCheckpoint(file: string): Promise<{ restore: CampaignCheckpoint | undefined; writer: ReturnType<typeof checkpointWriter> }> {
  const { checkpointWriter, readCheckpoint } = await import('../checkpoint.js')
  return { restore: readCheckpoint(file), writer: checkpointWriter(file) }
}

export async function fuzzCommand(args: string[]): Promise<number> {
  const { values } = parseOptions('fuzz', args, {
    adapter: { type: 'string' }, runs: { type: 'string' }, time: { type: 'string' }, seed: { type: 'string' },
    strategy: { type: 'string', default: 'portfolio' }, scenario: { type: 'string' }, shard: { type: 'string' },
    out: { type: 'string' }, json: { type: 'string' }, 'keep-going': { type: 'boolean', default: false },
    'no-shrink': { type: 'boolean', default: false }, 'no-timelines': { type: 'boolean', default: false },
    differential: { type: 'boolean', default: false }, 'no-baseline': { type: 'boolean', default: false },
    workers: { type: 'string' }, 'recycle-after': { type: 'string' }, reporter: { type: 'string', multiple: true },
    guidance: { type: 'string' }, 'no-scenario-mix': { type: 'boolean', default: false },
    baseline: { type: 'string' },
    interaction: { type: 'boolean', default: false }, 'no-interaction-mix': { type: 'boolean', default: false }, checkpoint: { type: 'string' },
  })
  if (values.interaction && (values.scenario !== undefined || values.guidance !== undefined || values['no-scenario-mix'] || values['no-interaction-mix'])) {
    throw new UsageError('--interaction runs the interaction suite alone: it takes no --scenario, --guidance, --no-scenario-mix or --no-interaction-mix')
  }
  if (values.scenario !== undefined && values['no-interaction-mix']) throw new UsageError('--no-interaction-mix applies to random programs, not to a --scenario')
  if (values.guidance !== undefined && values.guidance !== 'on' && values.guidance !== 'off') throw new UsageError(`--guidance must be on or off, got "${values.guidance}"`)
  if (values.scenario !== undefined && (values.guidance !== undefined || values['no-scenario-mix'])) throw new UsageError('--guidance and --no-scenario-mix apply to random programs, not to a --scenario')
  if (!(CAMPAIGN_STRATEGIES as readonly string[]).includes(values.strategy)) throw new UsageError(`--strategy must be one of ${CAMPAIGN_STRATEGIES.join(', ')}, got "${values.strategy}"`)
  const runs = intOption('runs', values.runs, 1)
  const seed = intOption(values.seed === undefined && process.env.DSH_KIT_SEED !== undefined ? 'seed (from DSH_KIT_SEED)' : 'seed', values.seed ?? process.env.DSH_KIT_SEED, 0) ?? 0
  const timeMs = values.time === undefined ? undefined : parseDuration('time', values.time)
  const workers = workersOption(values.workers)
  const recycleAfter = intOption('recycle-after', values['recycle-after'], 0)
  if (runs !== undefined && timeMs !== undefined) throw new UsageError('give --runs or --time, not both')
  let shard: { index: number; count: number } | undefined
  if (values.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard)
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new UsageError(`--shard must be i/n with 1 <= i <= n, got "${values.shard}"`)
    shard = { index: Number(m[1]), count: Number(m[2]) }
  }
  let scenario
  if (values.scenario !== undefined) {
    try {
      scenario = findScenario(values.scenario)
    } catch (error) {
      throw new UsageError((error as Error).message)
    }
  }
  const outDir = writableDir('--out', values.out ?? join('.dsh-kit', 'fuzz'))
  const reporters = reporterOptions('fuzz', values.reporter, values.json)
  // The baseline, checkpoint and JUnit modules load only when asked for: each module a campaign's
  // thread loads is start-up it pays before its workers have work.
  const known = values.baseline === undefined ? undefined : await readKnownViolations(values.baseline)
  const campaignJUnit = reporters.some((r) => r.kind === 'junit') ? (await import('../../report/junit.js')).campaignJUnit : undefined
  const adapter = values.adapter === undefined ? REFERENCE_ADAPTER : await describeAdapter(values.adapter, { probe: false })
  const started = performance.now()
  const deadline = timeMs === undefined ? undefined : started + timeMs
  const interactions = values.interaction ? 'only' as const : values['no-interaction-mix'] ? 'off' as const : 'mix' as const
  const checkpoint = values.checkpoint === undefined ? undefined : await openCheckpoint(values.checkpoint)
  const what = scenario ? `scenario ${scenario.name}` : interactions === 'only' ? 'the interaction suite'
    : `random programs${(values.guidance === undefined ? DEFAULT_GUIDANCE : values.guidance === 'on') ? ', guided by state coverage' : ''}${values['no-scenario-mix'] ? ', no scenario mix' : ''}${interactions === 'off' ? ', no interaction mix' : ''}`
  const recycling = recycleAfter ?? adapter.recycleAfter ?? 0
  const recycled = recycling === 0 ? '' : ` (each replaced after ${recycling} seeds${recycleAfter === undefined ? ', as the adapter asks' : ''})`
  process.stderr.write(`fuzzing ${adapter.name}@${adapter.version}: ${what}${checkpoint?.restore ? `, resuming from ${values.checkpoint} (${checkpoint.restore.results.length} seeds)` : ''}, strategy ${values.strategy}, seed ${seed}${shard ? `, shard ${shard.index}/${shard.count}` : ''}${timeMs === undefined ? '' : `, time ${values.time}`}${runs === undefined ? '' : `, runs ${runs}`}, ${workers} worker${workers === 1 ? '' : 's'}${recycled}\n`)
  // A long campaign optimizes sooner (v8-tuning.ts, interrupt-budget.ts).
  tuneForCampaign(plannedSeedsPerWorker({ runs, workers, timeMs }))
  let report: CampaignReport
  try {
    report = await runCampaign({
      adapter, strategy: values.strategy as CampaignStrategy, seed, outDir,
      keepGoing: values['keep-going'], shrink: !values['no-shrink'], onProgress: fuzzProgress(started), workers,
      ...(recycleAfter === undefined ? {} : { recycleAfter }),
      differential: values.differential, ...(values['no-baseline'] ? { baseline: false as const } : {}),
      ...(values.guidance === undefined ? {} : { guidance: values.guidance === 'on' }), mixScenarios: !values['no-scenario-mix'], interactions,
      ...(checkpoint ? { checkpoint: { ...(checkpoint.restore ? { restore: checkpoint.restore } : {}), save: checkpoint.writer.save } } : {}),
      ...(values.adapter ? { adapterModule: values.adapter } : {}),
      ...(known ? { known } : {}),
      ...(scenario ? { scenario } : {}),
      ...(shard ? { shard } : {}),
      ...(runs === undefined ? {} : { runs }),
      shouldStop: () => (interrupted() ? 'interrupted' : deadline !== undefined && performance.now() >= deadline ? 'time' : false),
    })
  } catch (error) {
    if (error instanceof CampaignError) throw new UsageError(error.message)
    throw error
  } finally {
    checkpoint?.writer.flush()
  }
  const durationMs = Math.round(performance.now() - started)
  // Recorded in the JSON so that `merge` can check its shards are of one campaign.
  const budget = { ...(runs === undefined ? {} : { runs }), ...(values.time === undefined ? {} : { time: values.time }) }
  if (process.stderr.isTTY) process.stderr.write('\n')
  console.log(formatCampaign(report, { durationMs, timelines: !values['no-timelines'] }))
  const failed = writeReports(reporters, { json: () => `${JSON.stringify({ ...report, durationMs, kitVersion: kitVersion(), budget }, null, 1)}\n`, junit: () => campaignJUnit!({ ...report, durationMs }) })
  return outputsExitCode(failed, fuzzExitCode(report))
}
