/**
 * The comparison a user makes: a fast-check property written by hand around `fc.scheduler()` and
 * the factory (`bench/fc-property.ts`) against `dsh-kit fuzz` on the same factory, on this machine
 * in the same run.
 *
 * - **Throughput** on the reference factory, each side in its own child process, alternating: the
 *   property under `fc.check` (one thread), `dsh-kit fuzz --workers 1` and `--workers 2` (the built
 *   CLI). Runs/s (wall), CPU per run, and the violations each reports on the reference (must be 0).
 * - **Runs to the first detection** of every gallery mutant, from a cold start: the property under
 *   `fc.check` with seeds 1..S (no shrinking, `endOnFailure`), and the campaign `dsh-kit fuzz` runs
 *   (`runCampaign`: random programs, portfolio schedules, every checker, no shrinking) from seeds
 *   spread far apart; at most `cap` runs each. Median over the seeds (`>cap` when more than half
 *   never detected), and the CPU time that median costs at each side's measured CPU per run.
 *
 * Run alone: `npm run build --silent && node dist/bench/e2e.js [--seeds 10] [--cap 300] [--jobs 2]`
 * @module
 */
import fc from 'fast-check'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../conformance/adapters/adapter.js'
import { MUTANTS } from '../conformance/mutants/index.js'
import { runCampaign } from '../scenarios/campaign/campaign.js'
import { arg, benchModule, fmt, isMain, median, quietAbortListeners, table } from './common.js'
import { userPropertyOf } from './fc-property.js'
import { fuzzChild, measuredChild } from './fuzz-child.js'

/** One throughput measurement. */
export interface Throughput {
  readonly side: 'property' | 'fuzz --workers 1' | 'fuzz --workers 2'
  readonly runs: number
  readonly wallMs: number
  readonly cpuMs: number
  /** Runs the side reported as failing on the reference factory. */
  readonly failures: number
}

/** One mutant's runs to the first detection, per seed (`null`: not within the cap). */
export interface E2EDetectRow {
  readonly catalog: string
  readonly file: string
  readonly property: readonly (number | null)[]
  readonly fuzz: readonly (number | null)[]
  /** The clause of fuzz's first detection, if any. */
  readonly clause?: string
  /** The property's first failure message, if any. */
  readonly propertyFinding?: string
}

/** Everything the comparison measured. */
export interface E2EResult {
  readonly throughput: readonly Throughput[]
  readonly rows: readonly E2EDetectRow[]
  readonly seeds: number
  readonly cap: number
}

/** Options of {@link benchE2E}. */
export interface E2EOptions {
  readonly seeds?: number
  readonly cap?: number
  /** Child processes for the detection part. */
  readonly jobs?: number
  /** Alternating throughput rounds. */
  readonly reps?: number
  /** Runs of each throughput measurement (property, fuzz). */
  readonly propertyRuns?: number
  readonly fuzzRuns?: number
  /** Only these mutants (catalog ids). */
  readonly only?: readonly string[]
  readonly log?: (message: string) => void
}

/** Seeds of the campaign side are this far apart, so their runs never overlap. */
const FUZZ_SEED_STRIDE = 1_000_003

const propertyInstall = (file?: string) => normalizeAdapter(file === undefined ? REFERENCE_ADAPTER : MUTANTS.find((m) => m.file === file)!.adapter).installFactory

/** Child: `runs` runs of the property on the reference factory. */
async function propertyThroughputChild(runs: number): Promise<{ runs: number; failures: number }> {
  quietAbortListeners()
  const details = await fc.check(userPropertyOf(propertyInstall()), { numRuns: runs, seed: 1, endOnFailure: true })
  return { runs: details.numRuns, failures: details.failed ? 1 : 0 }
}

/** Child: runs to the first detection of each mutant of `files`, both sides. */
async function detectChild(files: readonly string[], seeds: number, cap: number): Promise<E2EDetectRow[]> {
  quietAbortListeners()
  const rows: E2EDetectRow[] = []
  for (const file of files) {
    const mutant = MUTANTS.find((m) => m.file === file)!
    const property: (number | null)[] = []
    const fuzz: (number | null)[] = []
    let clause: string | undefined
    let propertyFinding: string | undefined
    for (let i = 0; i < seeds; i++) {
      const details = await fc.check(userPropertyOf(propertyInstall(file)), { numRuns: cap, seed: i + 1, endOnFailure: true })
      property.push(details.failed ? details.numRuns : null)
      if (details.failed) propertyFinding ??= 'errorInstance' in details && details.errorInstance instanceof Error ? details.errorInstance.message : 'failed'
      const report = await runCampaign({ adapter: mutant.adapter, runs: cap, seed: i * FUZZ_SEED_STRIDE, shrink: false, baseline: false })
      const first = report.failures[0]
      fuzz.push(first ? first.run + 1 : null)
      clause ??= first?.key
    }
    rows.push({ catalog: mutant.catalog, file, property, fuzz, ...(clause ? { clause } : {}), ...(propertyFinding ? { propertyFinding } : {}) })
  }
  return rows
}

/** Run the whole comparison. */
export async function benchE2E(options: E2EOptions = {}): Promise<E2EResult> {
  const seeds = options.seeds ?? 10
  const cap = options.cap ?? 300
  const jobs = options.jobs ?? 2
  const reps = options.reps ?? 2
  const throughput: Throughput[] = []
  for (let i = 0; i < reps; i++) {
    const p = await measuredChild({ argv: [benchModule('e2e'), '--child', 'property', '--runs', String(options.propertyRuns ?? 5_000)] })
    if (p.code !== 0) throw new Error(`the property child failed (${String(p.code)}):\n${p.stderr}`)
    const pr = JSON.parse(p.stdout) as { runs: number; failures: number }
    throughput.push({ side: 'property', runs: pr.runs, wallMs: p.wallMs, cpuMs: p.cpuMs, failures: pr.failures })
    for (const workers of [1, 2] as const) {
      const f = await fuzzChild({ args: ['--runs', String(options.fuzzRuns ?? 3_000), '--workers', String(workers)] })
      throughput.push({ side: `fuzz --workers ${workers}`, runs: f.runs, wallMs: f.wallMs, cpuMs: f.cpuMs, failures: f.code === 0 ? 0 : 1 })
    }
    options.log?.(`e2e: throughput round ${i + 1}/${reps} done`)
  }
  const files = MUTANTS.filter((m) => !options.only || options.only.includes(m.catalog)).map((m) => m.file)
  const shards = Array.from({ length: Math.min(jobs, files.length) }, (_, j) => files.filter((_, i) => i % jobs === j))
  options.log?.(`e2e: runs to the first detection of ${files.length} mutants, ${seeds} seeds, cap ${cap}, ${shards.length} child processes`)
  const parts = await Promise.all(shards.map(async (shard) => {
    const child = await measuredChild({ argv: [benchModule('e2e'), '--child', 'detect', '--files', shard.join(','), '--seeds', String(seeds), '--cap', String(cap)] })
    if (child.code !== 0) throw new Error(`the detection child failed (${String(child.code)}):\n${child.stderr}`)
    return JSON.parse(child.stdout) as E2EDetectRow[]
  }))
  const byFile = new Map(parts.flat().map((r) => [r.file, r]))
  return { throughput, rows: files.map((f) => byFile.get(f)!), seeds, cap }
}

const rateOf = (t: Throughput): number => t.runs / (t.wallMs / 1000)

/** Median CPU per run of one side. */
export function cpuPerRun(result: E2EResult, side: Throughput['side']): number {
  return median(result.throughput.filter((t) => t.side === side).map((t) => t.cpuMs / t.runs))
}

/** Median runs to the first detection (`Infinity` when more than half the seeds never detected). */
export function medianRuns(values: readonly (number | null)[]): number {
  return median(values.map((v) => v ?? Number.POSITIVE_INFINITY))
}

/** The comparison's two tables as markdown: throughput, then detection. */
export function e2eTables(result: E2EResult): string {
  const sides: Throughput['side'][] = ['property', 'fuzz --workers 1', 'fuzz --workers 2']
  const name = (side: Throughput['side']): string => (side === 'property' ? 'hand-written `fc.asyncProperty(fc.scheduler(), …)`, 1 thread' : `\`dsh-kit fuzz ${side.slice(5)}\``)
  const speed = table(['runner (reference factory)', 'measurements', 'runs each', 'runs/s (wall, median)', 'CPU ms/run (median)', 'runs flagged on the reference'], sides.map((side) => {
    const xs = result.throughput.filter((t) => t.side === side)
    return [name(side), xs.length, fmt(median(xs.map((x) => x.runs))), fmt(median(xs.map(rateOf)), 0), fmt(median(xs.map((x) => x.cpuMs / x.runs)), 2), fmt(xs.reduce((a, x) => a + x.failures, 0))]
  }))
  const pCpu = cpuPerRun(result, 'property')
  const fCpu = cpuPerRun(result, 'fuzz --workers 1')
  const cell = (values: readonly (number | null)[]): string => {
    const m = medianRuns(values)
    return `${values.filter((v) => v !== null).length}/${values.length} · ${Number.isFinite(m) ? fmt(m, 1) : `>${result.cap}`}`
  }
  const cpuCell = (values: readonly (number | null)[], perRun: number): string => {
    const m = medianRuns(values)
    return Number.isFinite(m) ? fmt(m * perRun, 0) : `>${fmt(result.cap * perRun, 0)}`
  }
  const detect = table(
    ['mutant', 'fuzz finds (clause)', 'property: seeds detecting · median runs', 'fuzz: seeds detecting · median runs', 'CPU ms to detect (median): property', 'CPU ms to detect (median): fuzz', 'the property says'],
    result.rows.map((r) => [
      `${r.catalog} ${r.file.replace(/\.ts$/, '')}`, r.clause ?? '—', cell(r.property), cell(r.fuzz), cpuCell(r.property, pCpu), cpuCell(r.fuzz, fCpu),
      r.propertyFinding ? r.propertyFinding.slice(0, 90) : '(never failed)',
    ]),
  )
  return `${speed}\n\n${detect}`
}

/** Mutants each side detects on at least half the seeds, and those where each side's median is lower. */
export function e2eSummary(result: E2EResult): { property: number; fuzz: number; fuzzFewer: number; propertyFewer: number; total: number } {
  const found = (v: readonly (number | null)[]): boolean => Number.isFinite(medianRuns(v))
  let fuzzFewer = 0
  let propertyFewer = 0
  for (const r of result.rows) {
    const p = medianRuns(r.property)
    const f = medianRuns(r.fuzz)
    if (f < p) fuzzFewer++
    if (p < f) propertyFewer++
  }
  return { property: result.rows.filter((r) => found(r.property)).length, fuzz: result.rows.filter((r) => found(r.fuzz)).length, fuzzFewer, propertyFewer, total: result.rows.length }
}

if (isMain(import.meta.url)) {
  const child = arg('child')
  if (child === 'property') {
    console.log(JSON.stringify(await propertyThroughputChild(Number(arg('runs') ?? 5_000))))
  } else if (child === 'detect') {
    console.log(JSON.stringify(await detectChild((arg('files') ?? '').split(',').filter(Boolean), Number(arg('seeds') ?? 10), Number(arg('cap') ?? 300))))
  } else {
    const only = arg('only')?.split(',')
    const result = await benchE2E({
      seeds: Number(arg('seeds') ?? 10), cap: Number(arg('cap') ?? 300), jobs: Number(arg('jobs') ?? 2), reps: Number(arg('reps') ?? 2),
      ...(only ? { only } : {}), log: (m) => process.stderr.write(`${m}\n`),
    })
    console.log(e2eTables(result))
  }
}
