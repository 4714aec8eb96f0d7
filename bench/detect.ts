/**
 * Bug-finding power: for every mutant of the gallery (conformance/mutants) and each strategy
 * (random, pct d=1..3, portfolio) plus fast-check's `fc.scheduler()` as the baseline, how many runs
 * it takes to detect the bug on one fixed program, with `checkRun` as the oracle.
 *
 * Per mutant:
 * 1. The program. A saved regression trace for the mutant in `scenarios/regressions/` when there is
 *    one; else the candidate (directed programs of conformance/programs/directed-programs.ts, the named scenarios, then
 *    seeded random programs) with the most detections in a small screening (a few runs each of the
 *    kit's `random` strategy and of `fc.scheduler()`, seeds disjoint from the measurement), among
 *    candidates on which the reference factory shows no violation under the same screening. A mutant
 *    with neither is listed as caught by directed cases only (or not caught). When detection on that
 *    program does not depend on the schedule (every run of every strategy detects: no strategy can
 *    do better), the candidate with the most screening detections among those where only some
 *    runs detect is measured as well: that is where strategies differ.
 * 2. The measurement. For each strategy and each of `seeds` seeds, runs until the first detection,
 *    at most `cap` runs. Reported: the detection rate (detections / runs executed: the maximum
 *    likelihood estimate of the per-run probability under a capped geometric law) and the median
 *    runs-to-first-detection over the seeds (`>cap` when more than half never detected).
 *
 * Run alone: `npm run build --silent && node dist/bench/detect.js [--seeds 20] [--cap 200] [--jobs 2]`
 * @module
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import type { InstallFactory } from '../core/process.js'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../conformance/adapters/adapter.js'
import { checkRun } from '../conformance/checkers/index.js'
import { MUTANTS } from '../conformance/mutants/index.js'
import type { MutantEntry } from '../conformance/mutants/index.js'
import { DIRECTED_PROGRAMS } from '../conformance/programs/directed-programs.js'
import { randomProgram } from '../conformance/programs/random-programs.js'
import type { Program } from '../sim/program/program.js'
import { runProgram, runProgramWith } from '../sim/run.js'
import type { RunResult } from '../sim/run.js'
import { validateRunFile } from '../sim/trace/run-file.js'
import { pct, portfolio, random } from '../sim/strategies/index.js'
import type { Strategy } from '../sim/strategies/index.js'
import { SCENARIOS } from '../scenarios/index.js'
import { arg, benchModule, fmt, isMain, median, node, quietAbortListeners, table } from './common.js'
import { FastCheckDriver } from './fc-driver.js'

/** The strategies compared, the baseline last. */
export const DETECT_STRATEGIES = ['random', 'pct d=1', 'pct d=2', 'pct d=3', 'portfolio', 'fc.scheduler()'] as const
export type StrategyName = (typeof DETECT_STRATEGIES)[number]
const KIT_STRATEGIES = DETECT_STRATEGIES.filter((s) => s !== 'fc.scheduler()')

/** A program the bench may run, and whether a deadlock is expected of it. */
export interface Candidate {
  readonly name: string
  readonly program: Program
  readonly allowDeadlock: boolean
}

/** Options of {@link benchDetect}. */
export interface DetectOptions {
  readonly seeds?: number
  readonly cap?: number
  /** Random programs among the candidates. */
  readonly randomCandidates?: number
  /** Screening runs per candidate and screening scheduler (kit random, fast-check). */
  readonly screenRuns?: number
  /** Only mutants whose file or catalog id is listed. */
  readonly only?: readonly string[]
  /** Worker `i` of `n`: only mutants with index `% n === i`. */
  readonly shard?: { readonly index: number; readonly count: number }
}

/** How one strategy did on one mutant. */
export interface StrategyResult {
  readonly strategy: StrategyName
  /** Runs to first detection per seed; `null` when not detected within the cap. */
  readonly firstDetection: readonly (number | null)[]
  readonly runs: number
  readonly detections: number
  /** detections / runs executed. */
  readonly rate: number
  /** Median runs-to-first-detection; `Infinity` when more than half the seeds never detected. */
  readonly median: number
}

/** One program's measurement: every strategy on it. */
export interface Measurement {
  readonly program: string
  readonly programSource: 'regression' | 'directed' | 'scenario' | 'random'
  /** The clause of the first violation seen (screening, or the regression file). */
  readonly clause?: string
  readonly results: readonly StrategyResult[]
}

/** One mutant's row. */
export interface DetectRow {
  readonly mutant: string
  readonly catalog: string
  readonly caughtByDirected: boolean
  /** The mutant's fixed program (its regression program, else the screening's best); absent when nothing detected it. */
  readonly main?: Measurement
  /**
   * When detection on `main` does not depend on the schedule: the candidate program with the most
   * screening detections among those where only some runs detect, if any.
   */
  readonly sensitive?: Measurement
  readonly screening: { readonly candidates: number; readonly runs: number }
}

function allowed(candidate: Candidate, result: RunResult, program: Program): string | undefined {
  const violations = checkRun(program, result.trace, result.outcome).filter((v) => !(candidate.allowDeadlock && v.message.startsWith('deadlock')))
  return violations[0]?.key
}

/** One run of `candidate` under the kit: the first violated clause, if any. */
async function kitRun(candidate: Candidate, strategy: Strategy, install: InstallFactory): Promise<string | undefined> {
  strategy.beginRun()
  const result = await runProgram(candidate.program, strategy, { install })
  return allowed(candidate, result, candidate.program)
}

/** One run of `candidate` under one `fc.scheduler()` instance: the first violated clause, if any. */
async function fcRun(candidate: Candidate, s: fc.Scheduler, install: InstallFactory): Promise<string | undefined> {
  const result = await runProgramWith(candidate.program, new FastCheckDriver(s, { clock: true }), { install })
  return allowed(candidate, result, candidate.program)
}

function kitStrategy(name: StrategyName, seed: string): Strategy {
  switch (name) {
    case 'random': return random({ seed })
    case 'pct d=1': return pct({ seed, depth: 1 })
    case 'pct d=2': return pct({ seed, depth: 2 })
    case 'pct d=3': return pct({ seed, depth: 3 })
    case 'portfolio': return portfolio({ seed })
    default: throw new Error(`not a kit strategy: ${name}`)
  }
}

/** fast-check schedulers for seed `seed`, generated as `fc.assert` would for runs 1..n. */
function fcSchedulers(seed: number, n: number): fc.Scheduler[] {
  return fc.sample(fc.scheduler(), { seed, numRuns: n })
}

/** Runs to the first detection (1-based), or null within `cap` runs. */
async function firstDetection(name: StrategyName, seed: number, candidate: Candidate, install: InstallFactory, cap: number): Promise<number | null> {
  if (name === 'fc.scheduler()') {
    const schedulers = fcSchedulers(seed, cap)
    for (let r = 0; r < cap; r++) if ((await fcRun(candidate, schedulers[r]!, install)) !== undefined) return r + 1
    return null
  }
  const strategy = kitStrategy(name, `detect-${seed}`)
  for (let r = 0; r < cap; r++) if ((await kitRun(candidate, strategy, install)) !== undefined) return r + 1
  return null
}

/** A mutant's saved regression program, if `scenarios/regressions/` has one. */
export function regressionFor(mutant: MutantEntry, dir = join(process.cwd(), 'scenarios', 'regressions')): (Candidate & { clause?: string }) | undefined {
  if (!existsSync(dir)) return undefined
  const stem = mutant.file.replace(/\.ts$/, '')
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    let value: any
    try {
      value = JSON.parse(readFileSync(join(dir, file), 'utf8'))
    } catch {
      continue
    }
    const names = [file, String(value?.adapter ?? ''), String(value?.mutant ?? '')]
    if (!names.some((n) => n.includes(stem) || n.includes(mutant.adapter.name))) continue
    try {
      const run = validateRunFile(value, file)
      const clause = run.violations?.[0]?.clause
      return { name: `regression ${file}`, program: run.program, allowDeadlock: false, ...(clause ? { clause } : {}) }
    } catch {
      continue
    }
  }
  return undefined
}

/** The candidate programs, in screening order. */
export function candidates(randomCount: number): (Candidate & { source: 'directed' | 'scenario' | 'random' })[] {
  return [
    ...DIRECTED_PROGRAMS.map((p) => ({ name: p.name, program: p.program, allowDeadlock: p.hangs === true, source: 'directed' as const })),
    ...SCENARIOS.map((s) => ({ name: `scenario ${s.name}`, program: s.program, allowDeadlock: s.expectDeadlock === true, source: 'scenario' as const })),
    ...Array.from({ length: randomCount }, (_, k) => ({ name: `random ${k}`, program: randomProgram(k), allowDeadlock: false, source: 'random' as const })),
  ]
}

/** Screening: detections of `candidate` in `runs` kit-random runs plus `runs` fast-check runs. */
async function screen(candidate: Candidate, install: InstallFactory, runs: number): Promise<{ detections: number; clause?: string }> {
  let detections = 0
  let clause: string | undefined
  const strategy = random({ seed: 'screen' })
  for (let r = 0; r < runs; r++) {
    const c = await kitRun(candidate, strategy, install)
    if (c !== undefined) { detections++; clause ??= c }
  }
  const schedulers = fcSchedulers(-1, runs)
  for (let r = 0; r < runs; r++) {
    const c = await fcRun(candidate, schedulers[r]!, install)
    if (c !== undefined) { detections++; clause ??= c }
  }
  return clause === undefined ? { detections } : { detections, clause }
}

/** Candidates on which the reference factory shows no violation in the screening runs. */
export async function cleanCandidates(randomCount: number, screenRuns: number): Promise<ReturnType<typeof candidates>> {
  const install = normalizeAdapter(REFERENCE_ADAPTER).installFactory
  const clean: ReturnType<typeof candidates> = []
  for (const c of candidates(randomCount)) {
    if ((await screen(c, install, screenRuns)).detections === 0) clean.push(c)
  }
  return clean
}

async function measure(candidate: Candidate, install: InstallFactory, options: { readonly seeds: number; readonly cap: number }): Promise<StrategyResult[]> {
  const results: StrategyResult[] = []
  for (const name of DETECT_STRATEGIES) {
    const first: (number | null)[] = []
    for (let seed = 1; seed <= options.seeds; seed++) first.push(await firstDetection(name, seed, candidate, install, options.cap))
    const runs = first.reduce<number>((sum, f) => sum + (f ?? options.cap), 0)
    const detections = first.filter((f) => f !== null).length
    results.push({ strategy: name, firstDetection: first, runs, detections, rate: detections / runs, median: median(first.map((f) => f ?? Number.POSITIVE_INFINITY)) })
  }
  return results
}

/** Whether some strategy missed some run: detection depends on the schedule. */
export function scheduleDependent(m: Measurement): boolean {
  return m.results.some((r) => r.rate < 1)
}

/** Measure one mutant. */
export async function detectMutant(mutant: MutantEntry, pool: ReturnType<typeof candidates>, options: Required<Pick<DetectOptions, 'seeds' | 'cap' | 'screenRuns'>>): Promise<DetectRow> {
  const install = normalizeAdapter(mutant.adapter, mutant.file).installFactory
  const base = { mutant: mutant.file.replace(/\.ts$/, ''), catalog: mutant.catalog, caughtByDirected: mutant.caughtByDirected !== false }
  // Screen every candidate: the best one, and the best one whose detection depends on the schedule.
  const full = 2 * options.screenRuns
  type Screened = { c: (typeof pool)[number]; detections: number; clause?: string }
  let best: Screened | undefined
  let sensitive: Screened | undefined
  for (const c of pool) {
    const s = await screen(c, install, options.screenRuns)
    if (s.detections > (best?.detections ?? 0)) best = { c, ...s }
    if (s.detections > 0 && s.detections < full && s.detections > (sensitive?.detections ?? 0)) sensitive = { c, ...s }
  }
  const screening = { candidates: pool.length, runs: pool.length * full }
  const regression = regressionFor(mutant)
  const mainCandidate = regression ? { ...regression, source: 'regression' as const } : best ? { ...best.c, ...(best.clause ? { clause: best.clause } : {}) } : undefined
  if (!mainCandidate) return { ...base, screening }
  const main: Measurement = {
    program: mainCandidate.name, programSource: mainCandidate.source, ...(mainCandidate.clause ? { clause: mainCandidate.clause } : {}),
    results: await measure(mainCandidate, install, options),
  }
  if (scheduleDependent(main) || !sensitive || sensitive.c.name === main.program) return { ...base, main, screening }
  const second: Measurement = {
    program: sensitive.c.name, programSource: sensitive.c.source, ...(sensitive.clause ? { clause: sensitive.clause } : {}),
    results: await measure(sensitive.c, install, options),
  }
  return { ...base, main, sensitive: second, screening }
}

/** Run the detection benchmark in this process. */
export async function benchDetect(options: DetectOptions = {}): Promise<DetectRow[]> {
  quietAbortListeners()
  const opts = { seeds: options.seeds ?? 20, cap: options.cap ?? 200, screenRuns: options.screenRuns ?? 4 }
  const pool = await cleanCandidates(options.randomCandidates ?? 12, opts.screenRuns)
  const mutants = MUTANTS.filter((m, i) =>
    (!options.only || options.only.some((o) => m.file.startsWith(o) || m.catalog === o)) && (!options.shard || i % options.shard.count === options.shard.index))
  if (options.shard === undefined || options.shard.index === 0) process.stderr.write(`detect: ${pool.length} candidate programs clean on the reference\n`)
  const rows: DetectRow[] = []
  for (const m of mutants) {
    const started = performance.now()
    rows.push(await detectMutant(m, pool, opts))
    process.stderr.write(`detect: ${m.file} ${rows.at(-1)!.main?.program ?? '(not detected)'} ${Math.round(performance.now() - started)} ms\n`)
  }
  return rows
}

/** Run the benchmark in `jobs` child processes (one scheduler per process), merged in gallery order. */
export async function benchDetectParallel(options: DetectOptions & { readonly jobs?: number } = {}): Promise<DetectRow[]> {
  const jobs = options.jobs ?? 2
  const flags = [
    ...(options.seeds !== undefined ? ['--seeds', String(options.seeds)] : []),
    ...(options.cap !== undefined ? ['--cap', String(options.cap)] : []),
    ...(options.randomCandidates !== undefined ? ['--random-candidates', String(options.randomCandidates)] : []),
    ...(options.screenRuns !== undefined ? ['--screen-runs', String(options.screenRuns)] : []),
    ...(options.only ? ['--only', options.only.join(',')] : []),
  ]
  const outputs = await Promise.all(Array.from({ length: jobs }, (_, i) => node([benchModule('detect'), '--shard', `${i}/${jobs}`, '--json', ...flags])))
  // JSON has no Infinity: a median past the cap travels as null.
  const revive = (m: Measurement | undefined): Measurement | undefined => m && { ...m, results: m.results.map((r) => ({ ...r, median: r.median ?? Number.POSITIVE_INFINITY })) }
  const rows = outputs.flatMap((o) => JSON.parse(o) as DetectRow[]).map((row) => {
    const main = revive(row.main)
    const sensitive = revive(row.sensitive)
    return { ...row, ...(main ? { main } : {}), ...(sensitive ? { sensitive } : {}) }
  })
  const order = new Map(MUTANTS.map((m, i) => [m.file.replace(/\.ts$/, ''), i]))
  return rows.sort((a, b) => order.get(a.mutant)! - order.get(b.mutant)!)
}

function med(n: number, cap: number): string {
  return Number.isFinite(n) ? fmt(n, Number.isInteger(n) ? 0 : 1) : `>${cap}`
}

/** The best kit strategy of a measurement: highest detection rate (ties: lowest median, then table order). */
export function bestKit(m: Measurement): StrategyResult | undefined {
  const kit = m.results.filter((r) => r.strategy !== 'fc.scheduler()')
  return [...kit].sort((a, b) => b.rate - a.rate || a.median - b.median)[0]
}

/**
 * How many times fewer runs our best strategy needs than the baseline, from detection rates (the
 * expected runs to detect are 1/rate).
 */
export function speedup(m: Measurement): number {
  const best = bestKit(m)
  const fcr = m.results.find((r) => r.strategy === 'fc.scheduler()')
  if (!best || !fcr) return Number.NaN
  if (best.rate === 0) return fcr.rate === 0 ? Number.NaN : 0
  if (fcr.rate === 0) return Number.POSITIVE_INFINITY
  return best.rate / fcr.rate
}

/** The measurements whose detection depends on the schedule: the ordering mutants' evidence. */
export function orderingMeasurements(rows: readonly DetectRow[]): { readonly row: DetectRow; readonly m: Measurement }[] {
  return rows.flatMap((row) => {
    if (row.main && scheduleDependent(row.main)) return [{ row, m: row.main }]
    if (row.sensitive) return [{ row, m: row.sensitive }]
    return []
  })
}

function measurementTable(items: readonly { readonly row: DetectRow; readonly m: Measurement }[], cap: number): string {
  const cell = (m: Measurement, s: StrategyName): string => {
    const r = m.results.find((x) => x.strategy === s)!
    return `${fmt(r.rate * 100, r.rate >= 0.1 ? 0 : 1)}% / ${med(r.median, cap)}`
  }
  const header = ['mutant', 'program', 'clause', ...DETECT_STRATEGIES.map((s) => `${s} rate / median`), 'best kit', 'best ÷ fc (rate)']
  const body = items.map(({ row, m }) => {
    const x = speedup(m)
    return [
      `${row.catalog} ${row.mutant}`, m.program, m.clause ?? '', ...DETECT_STRATEGIES.map((s) => cell(m, s)), bestKit(m)!.strategy,
      Number.isFinite(x) ? `${fmt(x, x < 10 ? 2 : 0)}×` : x === Number.POSITIVE_INFINITY ? '∞ (fc none)' : 'n/a',
    ]
  })
  return table(header, body)
}

/** The detection tables as markdown: fixed programs, schedule-sensitive programs, and the mutants no simulated run detected. */
export function detectTable(rows: readonly DetectRow[], cap: number): string {
  const main = measurementTable(rows.filter((r) => r.main).map((row) => ({ row, m: row.main! })), cap)
  const sensitive = rows.filter((r) => r.sensitive)
  const second = sensitive.length === 0 ? '' : `\n\nSchedule-sensitive programs: for the mutants above whose detection on their fixed program does not depend on the schedule, the candidate program with the most screening detections among those where only some runs detect:\n\n${measurementTable(sensitive.map((row) => ({ row, m: row.sensitive! })), cap)}`
  const missed = rows.filter((r) => !r.main)
  const list = missed.length === 0 ? '' : `\n\nNot detected by any screening run (${missed[0]!.screening.candidates} candidate programs × ${missed[0]!.screening.runs / Math.max(1, missed[0]!.screening.candidates)} runs) and without a regression program:\n\n${missed.map((r) => `- ${r.catalog} ${r.mutant}: ${r.caughtByDirected ? 'caught by directed cases only' : 'caught by neither (kept with \`caughtByDirected: false\`)'}`).join('\n')}`
  return main + second + list
}

if (isMain(import.meta.url)) {
  const shard = arg('shard')
  const only = arg('only')
  const opts: DetectOptions = {
    seeds: Number(arg('seeds') ?? 20),
    cap: Number(arg('cap') ?? 200),
    randomCandidates: Number(arg('random-candidates') ?? 12),
    screenRuns: Number(arg('screen-runs') ?? 4),
    ...(only ? { only: only.split(',') } : {}),
    ...(shard ? { shard: { index: Number(shard.split('/')[0]), count: Number(shard.split('/')[1]) } } : {}),
  }
  const jobs = arg('jobs')
  const rows = jobs && !shard ? await benchDetectParallel({ ...opts, jobs: Number(jobs) }) : await benchDetect(opts)
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows))
  else console.log(detectTable(rows, opts.cap!))
}
