#!/usr/bin/env node
/**
 * `dsh-kit`: the only place that reads argv/env, the wall clock of a time budget, or calls
 * process.exit. Commands: certify, fuzz, replay, explain, list. Exit codes: 0 pass, 1 a clause
 * failed or a violation was found, 3 a replay did not reproduce its recorded run, 64 usage error,
 * 78 adapter error.
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { AdapterError, normalizeAdapter, REFERENCE_ADAPTER } from '../conformance/adapter.js'
import type { Adapter } from '../conformance/adapter.js'
import { checkRun } from '../conformance/checkers/index.js'
import { CLAUSES, GROUPS } from '../conformance/clauses.js'
import { formatReport } from '../conformance/format-report.js'
import { MUTANTS } from '../conformance/mutants/index.js'
import { certify } from '../conformance/suite.js'
import type { Progress } from '../conformance/suite.js'
import { CAMPAIGN_STRATEGIES, CampaignError, runCampaign } from '../scenarios/campaign.js'
import type { CampaignProgress, CampaignStrategy } from '../scenarios/campaign.js'
import { formatCampaign } from '../scenarios/campaign-report.js'
import { findScenario, SCENARIOS } from '../scenarios/index.js'
import { buildTimeline, renderHtml, renderLanes } from '../scenarios/timeline/index.js'
import { readRunFile, RunFileError } from '../sim/run-file.js'
import { runProgram } from '../sim/run.js'
import type { RunResult } from '../sim/run.js'
import { guidedReplay, replay as replayStrategy, ReplayDivergenceError } from '../sim/strategies/index.js'
import { renderTrace } from '../sim/trace.js'
import { loadAdapter } from './adapter-loader.js'

const EXIT = { ok: 0, violation: 1, diverged: 3, usage: 64, adapter: 78 } as const

const USAGE = `usage: dsh-kit <command> [options]

commands:
  certify [--adapter <module>] [--profile quick|thorough] [--json <file>] [--seed N] [--out <dir>] [--timelines] [--only "<GROUP> <n>"]...
      certify an AgentFactory adapter (the built-in reference factory by default) clause by clause
  fuzz [--adapter <module>] [--runs N | --time 60s] [--seed S] [--strategy random|pct|dfs|portfolio]
       [--scenario NAME] [--shard i/n] [--out <dir>] [--json <file>] [--keep-going] [--no-shrink]
       [--differential] [--no-baseline] [--no-timelines]
      run random programs (or one named scenario) under many schedules with every checker on
      (default --runs 100, or 500 for a scenario); a failure is shrunk, saved as a run file and printed with its replay command; each failure
      is cross-checked on the reference factory, and --differential does not count violations
      the reference shows too
  replay <run-file> [--adapter <module>] [--timeline]
      replay a saved run from its decision log and check it again
  explain <run-file> [--adapter <module>] [--html <out.html>] [--flat] [--no-marks]
      print the run's timeline, one line per event with a column per actor; --html writes a
      self-contained swim-lane page
  list
      print the clause groups and clauses, the named scenarios and the mutants
`

class UsageError extends Error {}

async function adapterFrom(spec: string | undefined): Promise<Adapter> {
  return spec === undefined ? REFERENCE_ADAPTER : loadAdapter(spec)
}

function progressPrinter(): (p: Progress) => void {
  let phase = ''
  let last = 0
  return (p) => {
    if (!process.stderr.isTTY && p.kind === 'tick' && p.done !== p.total) return
    if (p.kind === 'phase') {
      phase = p.phase
      return
    }
    const now = performance.now()
    if (p.done !== p.total && now - last < 100) return
    last = now
    const line = `  ${phase.padEnd(18)} ${String(p.done).padStart(5)}/${p.total}  failing clauses: ${p.failures}`
    process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`)
    if (p.done === p.total && process.stderr.isTTY) process.stderr.write('\n')
  }
}

async function certifyCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: {
    adapter: { type: 'string' }, profile: { type: 'string', default: 'quick' }, json: { type: 'string' },
    seed: { type: 'string' }, out: { type: 'string' }, timelines: { type: 'boolean', default: false }, only: { type: 'string', multiple: true },
  } })
  if (values.profile !== 'quick' && values.profile !== 'thorough') throw new UsageError(`--profile must be quick or thorough, got "${values.profile}"`)
  const seed = values.seed === undefined ? undefined : Number(values.seed)
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new UsageError(`--seed must be an integer, got "${values.seed}"`)
  const adapter = await adapterFrom(values.adapter)
  process.stderr.write(`certifying ${adapter.name}@${adapter.version} (${values.profile})\n`)
  const report = await certify(adapter, {
    profile: values.profile,
    onProgress: progressPrinter(),
    ...(values.adapter ? { adapterModule: values.adapter } : {}),
    ...(seed === undefined ? {} : { seed }),
    ...(values.out ? { outDir: values.out } : {}),
    ...(values.only ? { only: values.only } : {}),
  })
  console.log(formatReport(report, { timelines: values.timelines }))
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 1)}\n`)
  return report.passed ? EXIT.ok : EXIT.violation
}

async function replayCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { adapter: { type: 'string' }, timeline: { type: 'boolean', default: false } } })
  const path = positionals[0]
  if (!path) throw new UsageError('replay needs a run file')
  const file = readRunFile(path)
  const adapterSpec = values.adapter ?? file.adapter
  const adapter = await adapterFrom(adapterSpec)
  const strategy = replayStrategy(file.decisions)
  strategy.beginRun()
  const result = await runProgram(file.program, strategy, { install: normalizeAdapter(adapter, adapterSpec ?? 'reference').installFactory })
  const timeline = renderTrace(result.trace, result.decisions.decisions)
  const violations = checkRun(file.program, result.trace, result.outcome)
  if (values.timeline) console.log(timeline)
  console.log(`replayed ${path} against ${adapter.name}: ${result.decisions.decisions.length} decisions, trace ${result.hash} (recorded ${file.hash})`)
  for (const v of violations) console.log(`  ${v.key} violated at entry #${v.entry} (decision ${v.decision}): ${v.message}`)
  const recorded = new Set((file.violations ?? []).map((v) => v.clause))
  const found = new Set(violations.map((v) => v.key))
  const reproduced = [...recorded].every((k) => found.has(k))
  if (result.hash !== file.hash) {
    console.log(`replay produced a different trace (${result.hash} ≠ ${file.hash}): the code under test changed or is nondeterministic`)
    return recorded.size > 0 && reproduced ? EXIT.violation : EXIT.diverged
  }
  if (recorded.size > 0) console.log(reproduced ? `reproduced: ${[...recorded].join(', ')}` : `NOT reproduced: ${[...recorded].filter((k) => !found.has(k)).join(', ')}`)
  return violations.length > 0 ? EXIT.violation : EXIT.ok
}

async function explainCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: {
    adapter: { type: 'string' }, html: { type: 'string' }, flat: { type: 'boolean', default: false }, 'no-marks': { type: 'boolean', default: false },
  } })
  const path = positionals[0]
  if (!path) throw new UsageError('explain needs a run file')
  const file = readRunFile(path)
  const adapterSpec = values.adapter ?? file.adapter
  const adapter = await adapterFrom(adapterSpec)
  const install = normalizeAdapter(adapter, adapterSpec ?? 'reference').installFactory
  let result: RunResult
  let note: string | undefined
  try {
    const strict = replayStrategy(file.decisions)
    strict.beginRun()
    result = await runProgram(file.program, strict, { install })
  } catch (error) {
    if (!(error instanceof ReplayDivergenceError)) throw error
    // A log recorded against another factory (a mutant's, say) rarely fits this one to the end:
    // explain the run that follows it as far as it fits.
    note = `the log no longer fits ${adapter.name} (${error.message}); showing a guided replay that follows it where it fits`
    const guided = guidedReplay(file.decisions)
    guided.beginRun()
    result = await runProgram(file.program, guided, { install })
  }
  // Run files carry the violations' clauses, not their entries: recompute them on the replay.
  const violations = checkRun(file.program, result.trace, result.outcome)
  if (note) console.error(`dsh-kit explain: ${note}`)
  const timeline = buildTimeline(file.program, result.trace, result.decisions.decisions, violations)
  if (values.html) {
    const meta = [
      `adapter: ${adapter.name}@${adapter.version}${adapterSpec ? ` (${adapterSpec})` : ''}`,
      `outcome: ${file.outcome.detail}`,
      `decisions: ${result.decisions.decisions.length}, trace ${result.hash} (recorded ${file.hash})`,
      `recorded violations: ${(file.violations ?? []).map((v) => v.clause).join(', ') || 'none'}`,
      ...(note ? [note] : []),
      `replay: npx dsh-kit replay ${path}`,
    ]
    mkdirSync(dirname(values.html), { recursive: true })
    writeFileSync(values.html, renderHtml(timeline, { title: `dsh-kit explain ${basename(path)}`, lines: meta }))
    console.error(`wrote ${values.html}`)
  }
  if (values.flat) console.log(renderTrace(result.trace, result.decisions.decisions))
  else if (!values.html) console.log(renderLanes(timeline, { hideMarks: values['no-marks'] }))
  if (!values.html || values.flat) for (const v of violations) console.log(`${v.key} violated at entry #${v.entry} (decision ${v.decision}): ${v.message}`)
  return EXIT.ok
}

/** `60s`, `2m`, `1h`, `500ms` or a bare number of seconds, in milliseconds. */
function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim())
  if (!m) throw new UsageError(`--time must be a duration like 60s, 2m or 500ms, got "${text}"`)
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h']
  return Number(m[1]) * unit
}

function intOption(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined
  const n = Number(text)
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got "${text}"`)
  return n
}

function fuzzProgress(started: number): (p: CampaignProgress) => void {
  let last = 0
  const tty = process.stderr.isTTY === true
  return (p) => {
    const now = performance.now()
    if (now - last < (tty ? 100 : 5000) && p.phase === 'running') return
    last = now
    const rate = p.runs / Math.max((now - started) / 1000, 1e-3)
    const goals = p.unreachedGoals === undefined ? '' : `  unreached goals: ${p.unreachedGoals}`
    const what = p.phase === 'shrinking' ? `  shrinking ${p.key}` : ''
    const line = `  fuzz ${String(p.runs).padStart(7)} runs  ${rate.toFixed(1).padStart(7)} runs/s  failures: ${p.failures} (violating runs: ${p.violatingRuns})${goals}${what}`
    process.stderr.write(tty ? `\r${line.padEnd(100)}` : `${line}\n`)
  }
}

async function fuzzCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: {
    adapter: { type: 'string' }, runs: { type: 'string' }, time: { type: 'string' }, seed: { type: 'string' },
    strategy: { type: 'string', default: 'portfolio' }, scenario: { type: 'string' }, shard: { type: 'string' },
    out: { type: 'string' }, json: { type: 'string' }, 'keep-going': { type: 'boolean', default: false },
    'no-shrink': { type: 'boolean', default: false }, 'no-timelines': { type: 'boolean', default: false },
    differential: { type: 'boolean', default: false }, 'no-baseline': { type: 'boolean', default: false },
  } })
  if (!(CAMPAIGN_STRATEGIES as readonly string[]).includes(values.strategy)) throw new UsageError(`--strategy must be one of ${CAMPAIGN_STRATEGIES.join(', ')}, got "${values.strategy}"`)
  const runs = intOption('runs', values.runs, 0)
  const seed = intOption('seed', values.seed ?? process.env.DSH_KIT_SEED, 0) ?? 0
  const timeMs = values.time === undefined ? undefined : parseDuration(values.time)
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
  const adapter = await adapterFrom(values.adapter)
  const started = performance.now()
  const deadline = timeMs === undefined ? undefined : started + timeMs
  process.stderr.write(`fuzzing ${adapter.name}@${adapter.version}: ${scenario ? `scenario ${scenario.name}` : 'random programs'}, strategy ${values.strategy}, seed ${seed}${shard ? `, shard ${shard.index}/${shard.count}` : ''}${timeMs === undefined ? '' : `, time ${values.time}`}${runs === undefined ? '' : `, runs ${runs}`}\n`)
  let report
  try {
    report = await runCampaign({
      adapter, strategy: values.strategy as CampaignStrategy, seed, outDir: values.out ?? join('.dsh-kit', 'fuzz'),
      keepGoing: values['keep-going'], shrink: !values['no-shrink'], onProgress: fuzzProgress(started),
      differential: values.differential, ...(values['no-baseline'] ? { baseline: false as const } : {}),
      ...(values.adapter ? { adapterModule: values.adapter } : {}),
      ...(scenario ? { scenario } : {}),
      ...(shard ? { shard } : {}),
      ...(runs === undefined ? {} : { runs }),
      ...(deadline === undefined ? {} : { shouldStop: () => performance.now() >= deadline }),
    })
  } catch (error) {
    if (error instanceof CampaignError) throw new UsageError(error.message)
    throw error
  }
  const durationMs = Math.round(performance.now() - started)
  if (process.stderr.isTTY) process.stderr.write('\n')
  console.log(formatCampaign(report, { durationMs, timelines: !values['no-timelines'] }))
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ ...report, durationMs }, null, 1)}\n`)
  return report.passed ? EXIT.ok : EXIT.violation
}

function listCommand(): number {
  for (const group of GROUPS) {
    const clauses = CLAUSES.filter((c) => c.group === group)
    console.log(`${group} (${clauses.length})`)
    for (const c of clauses) console.log(`  ${String(c.clause).padStart(3)}  ${c.title}`)
  }
  console.log('')
  console.log(`scenarios (${SCENARIOS.length}): dsh-kit fuzz --scenario <name>`)
  const width = Math.max(...SCENARIOS.map((sc) => sc.name.length))
  for (const sc of SCENARIOS) {
    console.log(`  ${sc.name.padEnd(width)}  ${sc.title}`)
    console.log(`  ${''.padEnd(width)}  aims at ${sc.groups.join(', ')}; goals: ${sc.goals.map((g) => g.name).join(', ')}${sc.expectDeadlock ? ' (deadlocks expected)' : ''}`)
  }
  console.log('')
  console.log(`mutants (${MUTANTS.length}): dsh-kit fuzz --adapter conformance/mutants/<file>`)
  const fileWidth = Math.max(...MUTANTS.map((m) => m.file.length))
  for (const m of MUTANTS) console.log(`  ${m.file.padEnd(fileWidth)}  ${m.adapter.reproduces ?? m.catalog}`)
  return EXIT.ok
}

/** Run the CLI; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case 'certify': return await certifyCommand(rest)
      case 'fuzz': return await fuzzCommand(rest)
      case 'replay': return await replayCommand(rest)
      case 'explain': return await explainCommand(rest)
      case 'list': return listCommand()
      case undefined: case '-h': case '--help': case 'help':
        console.log(USAGE)
        return command === undefined ? EXIT.usage : EXIT.ok
      default:
        throw new UsageError(`unknown command "${command}"`)
    }
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && /parseArgs|Unknown option|argument/i.test(error.message))) {
      console.error(`dsh-kit: ${error.message}\n\n${USAGE}`)
      return EXIT.usage
    }
    if (error instanceof AdapterError || error instanceof RunFileError) {
      console.error(`dsh-kit: ${error.message}`)
      return EXIT.adapter
    }
    throw error
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code }, (error) => {
  console.error(error)
  process.exitCode = 70
})
