/**
 * How fast each kind of campaign covers the interaction scope (`conformance/interaction/`): the
 * interaction mode alone (`fuzz --interaction`), the default campaign (guided, named scenarios and the
 * interaction suite mixed in), and guided and unguided campaigns of random programs without the
 * interaction suite (`--no-interaction-mix`), each through the built CLI as a child process, one
 * after another, on the same adapter and seed. The growth curves come from each report's
 * `interactionGrowth` (covered 2- and 3-way combinations after each seed that added one).
 *
 *     npm run build && node dist/bench/interaction-coverage.js [--adapter <module>] [--time 10m]
 *         [--seed 1] [--workers 2] [--modes interaction,default,guided,unguided] [--json <file>]
 *
 * Prints one table of coverage by runs (a column per mode) and one line per mode: its runs, wall
 * time, final coverage, and the runs and (interpolated) seconds at which it covered every 2-way and
 * every 3-way combination, if it did.
 * @module
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isMain, table } from './common.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CLI = join(ROOT, 'dist', 'cli', 'main.js')

/** The campaigns compared, as `dsh-kit fuzz` arguments. */
const MODES: Readonly<Record<string, readonly string[]>> = {
  interaction: ['--interaction'],
  default: [],
  guided: ['--guidance', 'on', '--no-interaction-mix'],
  unguided: ['--guidance', 'off', '--no-interaction-mix'],
}

/** What one campaign measured. */
export interface ModeResult {
  readonly mode: string
  readonly exit: number
  readonly runs: number
  readonly seconds: number
  readonly stoppedBy: string
  readonly totals: readonly [number, number]
  readonly covered: readonly [number, number]
  readonly growth: readonly (readonly [number, number, number])[]
}

function cli(args: readonly string[]): Promise<{ exit: number; seconds: number }> {
  const start = performance.now()
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }, (error) => {
      resolve({ exit: error ? (typeof error.code === 'number' ? error.code : -1) : 0, seconds: (performance.now() - start) / 1000 })
    })
  })
}

async function measure(mode: string, o: { adapter?: string; time: string; seed: string; workers: string; out: string }): Promise<ModeResult> {
  const json = join(o.out, `${mode}.json`)
  const run = await cli([
    'fuzz', ...(o.adapter ? ['--adapter', o.adapter] : []), ...MODES[mode]!, '--time', o.time, '--seed', o.seed, '--workers', o.workers,
    '--keep-going', '--no-timelines', '--out', join(o.out, mode), '--json', json,
  ])
  const report = JSON.parse(readFileSync(json, 'utf8')) as {
    runs: number; stoppedBy: string; interactionCoverage: { t: number; covered: number; total: number }[]; interactionGrowth: [number, number, number][]
  }
  const level = (t: number): { covered: number; total: number } => report.interactionCoverage.find((l) => l.t === t)!
  return {
    mode, exit: run.exit, runs: report.runs, seconds: run.seconds, stoppedBy: report.stoppedBy,
    totals: [level(2).total, level(3).total], covered: [level(2).covered, level(3).covered], growth: report.interactionGrowth,
  }
}

/** Covered 2- and 3-way combinations after `runs` runs (the last growth point at or before it). */
export function coveredAt(growth: readonly (readonly [number, number, number])[], runs: number): readonly [number, number] {
  let at: readonly [number, number] = [0, 0]
  for (const [r, c2, c3] of growth) {
    if (r > runs) break
    at = [c2, c3]
  }
  return at
}

/** The runs at which strength `t` (index 0: 2-way, 1: 3-way) reached `total`, if it did. */
export function runsToFull(growth: readonly (readonly [number, number, number])[], index: 0 | 1, total: number): number | undefined {
  return growth.find((g) => g[index + 1] === total)?.[0]
}

const pct = (covered: number, total: number): string => `${(Math.floor((covered / total) * 1000) / 10).toFixed(1)}%`

/** The markdown of the comparison. */
export function coverageTables(results: readonly ModeResult[]): string {
  const maxRuns = Math.max(...results.map((r) => r.runs))
  const marks = [100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000].filter((m) => m <= maxRuns)
  const growthTable = table(['runs', ...results.map((r) => `${r.mode}: 2-way / 3-way`)], marks.map((m) => [
    m.toLocaleString('en-US'),
    ...results.map((r) => { if (m > r.runs) return '—'; const [c2, c3] = coveredAt(r.growth, m); return `${pct(c2, r.totals[0])} / ${pct(c3, r.totals[1])}` }),
  ]))
  const full = (r: ModeResult, index: 0 | 1): string => {
    const runs = runsToFull(r.growth, index, r.totals[index])
    return runs === undefined ? `not reached (${pct(r.covered[index], r.totals[index])})` : `run ${runs.toLocaleString('en-US')} (~${Math.round((runs / r.runs) * r.seconds)} s)`
  }
  const summary = table(['mode', 'runs', 'wall time', 'stopped by', '2-way', '3-way', 'every 2-way at', 'every 3-way at'], results.map((r) => [
    r.mode, r.runs.toLocaleString('en-US'), `${r.seconds.toFixed(0)} s`, r.stoppedBy, `${r.covered[0]}/${r.totals[0]}`, `${r.covered[1]}/${r.totals[1]}`, full(r, 0), full(r, 1),
  ]))
  return `${growthTable}\n\n${summary}`
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  if (i < 0) return undefined
  const value = process.argv[i + 1]
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`)
  return value
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`)
  const modes = (option('modes') ?? 'interaction,default,guided,unguided').split(',')
  for (const m of modes) if (MODES[m] === undefined) throw new Error(`--modes: unknown mode "${m}" (${Object.keys(MODES).join(', ')})`)
  const out = mkdtempSync(join(tmpdir(), 'dsh-interaction-coverage-'))
  const adapter = option('adapter')
  const o = { ...(adapter ? { adapter } : {}), time: option('time') ?? '10m', seed: option('seed') ?? '1', workers: option('workers') ?? '2', out }
  const results: ModeResult[] = []
  for (const mode of modes) {
    const r = await measure(mode, o)
    results.push(r)
    console.error(`${mode}: ${r.runs} runs in ${r.seconds.toFixed(0)} s (${r.stoppedBy}), 2-way ${r.covered[0]}/${r.totals[0]}, 3-way ${r.covered[1]}/${r.totals[1]}`)
  }
  const jsonOut = option('json')
  if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ options: o, results }, null, 1)}\n`)
  console.log(coverageTables(results))
}

if (isMain(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 64
  })
}
