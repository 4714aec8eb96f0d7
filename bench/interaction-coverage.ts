/**
 * How fast each kind of campaign covers the interaction scope (`conformance/interaction/`): the
 * interaction mode alone (`fuzz --interaction`), the default campaign (guided, named scenarios and the
 * interaction suite mixed in), and guided and unguided campaigns of random programs without the
 * interaction suite (`--no-interaction-mix`), each through the built CLI as a child process, one
 * after another, on the same adapter and seed. The growth curves come from each report's
 * `interactionGrowth` (covered 2- and 3-way combinations after each seed that added one).
 *
 *     npm run build && node dist/bench/interaction-coverage.js [--adapter <module>] [--time 10m]
 *         [--interaction-time 60m] [--seed 1] [--workers 2] [--modes interaction,default,guided,unguided]
 *         [--from <mode>=<fuzz.json>]... [--certify] [--json <file>] [--record --commit <sha>] [--note <text>] [--write]
 *
 * Prints one table of coverage by runs (a column per mode) and one line per mode: its runs, wall
 * time, final coverage, and the runs and (interpolated) seconds at which it covered every 2-way and
 * every 3-way combination, if it did. The interaction mode runs until it has explored its stream
 * (at most `--interaction-time`); the others for `--time` each. `--from mode=file` takes a mode's
 * `fuzz --json` report measured before instead of running it; `--certify` also runs `certify
 * --profile thorough` and records its coverage and wall time. `--record` keeps the measurement in
 * `bench/interaction-coverage.json` (with the commit and the machine's load), and `--write` (alone or
 * with `--record`) rewrites RESULTS.md's section from it; `npm run bench` prints the same section.
 * @module
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
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

interface FuzzJson {
  runs: number; stoppedBy: string; durationMs?: number; interactionCoverage: { t: number; covered: number; total: number }[]; interactionGrowth: [number, number, number][]
}

/** A mode's result from its `fuzz --json` report (`seconds`: the child's wall time, else the report's). */
export function fromReport(mode: string, report: FuzzJson, exit: number, seconds?: number): ModeResult {
  const level = (t: number): { covered: number; total: number } => report.interactionCoverage.find((l) => l.t === t)!
  return {
    mode, exit, runs: report.runs, seconds: seconds ?? (report.durationMs ?? 0) / 1000, stoppedBy: report.stoppedBy,
    totals: [level(2).total, level(3).total], covered: [level(2).covered, level(3).covered], growth: report.interactionGrowth,
  }
}

async function measure(mode: string, o: { adapter?: string; time: string; interactionTime: string; seed: string; workers: string; out: string }): Promise<ModeResult> {
  const json = join(o.out, `${mode}.json`)
  const run = await cli([
    'fuzz', ...(o.adapter ? ['--adapter', o.adapter] : []), ...MODES[mode]!, '--time', mode === 'interaction' ? o.interactionTime : o.time, '--seed', o.seed, '--workers', o.workers,
    '--keep-going', '--no-timelines', '--out', join(o.out, mode), '--json', json,
  ])
  return fromReport(mode, JSON.parse(readFileSync(json, 'utf8')) as FuzzJson, run.exit, run.seconds)
}

/** What `certify --profile thorough` covered, and how long it took. */
export interface CertifyCoverage {
  readonly exit: number
  readonly seconds: number
  readonly runs: number
  readonly levels: readonly { readonly t: number; readonly covered: number; readonly total: number }[]
}

async function certifyCoverage(o: { adapter?: string; workers: string; out: string }): Promise<CertifyCoverage> {
  const json = join(o.out, 'certify.json')
  const run = await cli(['certify', ...(o.adapter ? ['--adapter', o.adapter] : []), '--profile', 'thorough', '--workers', o.workers, '--out', join(o.out, 'certify'), '--json', json])
  const report = JSON.parse(readFileSync(json, 'utf8')) as { runs: number; interactionCoverage: { t: number; covered: number; total: number }[] }
  return { exit: run.exit, seconds: run.seconds, runs: report.runs, levels: report.interactionCoverage }
}

/** A recorded measurement (`bench/interaction-coverage.json`). */
export interface InteractionRecord {
  readonly commit: string
  readonly date: string
  readonly options: { readonly adapter?: string; readonly time: string; readonly interactionTime: string; readonly seed: string; readonly workers: string }
  readonly load: { readonly start: string; readonly end: string }
  readonly results: readonly ModeResult[]
  readonly certify?: CertifyCoverage
  /** What the reader needs to know about how it was measured (`--note`), e.g. which reports `--from` reused. */
  readonly note?: string
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

const RECORD = fileURLToPath(new URL('../../bench/interaction-coverage.json', import.meta.url))
const RESULTS = fileURLToPath(new URL('../../bench/RESULTS.md', import.meta.url))
/** The section's heading in RESULTS.md. */
export const INTERACTION_HEADING = '## 11. Interaction coverage: the interaction mode vs guided vs unguided (recorded)'

/** The recorded measurement, if any. */
export function readInteractionRecord(file = RECORD): InteractionRecord | undefined {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as InteractionRecord : undefined
}

/** The RESULTS.md section body for the recorded measurement. */
export function interactionSection(record: InteractionRecord | undefined): string {
  if (record === undefined) return 'Not recorded yet: `node dist/bench/interaction-coverage.js --certify --record --commit <sha> --write`.'
  const o = record.options
  const certify = record.certify
  const certifyLine = certify
    ? `\n\n\`certify --profile thorough --workers ${o.workers}\` on the same adapter: ${certify.levels.map((l) => `${l.t}-way ${l.covered}/${l.total}`).join(', ')} in ${certify.seconds.toFixed(0)} s wall (${certify.runs.toLocaleString('en-US')} simulated runs, exit ${certify.exit}).`
    : ''
  return `Measured at ${record.commit} on ${record.date.slice(0, 10)}: \`node dist/bench/interaction-coverage.js${o.adapter ? ` --adapter ${o.adapter}` : ''} --time ${o.time} --interaction-time ${o.interactionTime} --seed ${o.seed} --workers ${o.workers} --certify\`, `
    + `each campaign through the CLI, one after another (load average ${record.load.start} at start, ${record.load.end} at end, on ${o.workers} workers of 2 cores: wall times are pessimistic when the load is above 2). `
    + `Coverage is of the scope stated in scenarios/README.md ("Interaction coverage"), counted from each report's interactionGrowth.${record.note ? ` ${record.note}` : ''}\n\n${coverageTables(record.results)}${certifyLine}`
}

/** The goal rows of RESULTS.md for the recorded measurement. */
export function interactionGoals(record: InteractionRecord | undefined): string[][] {
  const mode = record?.results.find((r) => r.mode === 'interaction')
  const three = mode ? runsToFull(mode.growth, 1, mode.totals[1]) : undefined
  const threeRow = ['3-way interaction coverage (interaction mode)', '100% of the stated scope within 60 min on 2 cores',
    mode ? (three !== undefined ? `100% (${mode.totals[1]}) at run ${three.toLocaleString('en-US')}, ~${Math.round((three / mode.runs) * mode.seconds / 60)} min` : `${mode.covered[1]}/${mode.totals[1]} after ${(mode.seconds / 60).toFixed(0)} min`) : 'not recorded (§11)',
    mode && three !== undefined && (three / mode.runs) * mode.seconds <= 3600 ? 'yes' : 'no']
  const certify = record?.certify?.levels.find((l) => l.t === 2)
  const twoRow = ['2-way interaction coverage (certify thorough)', 'every 2-way combination of the scope', certify ? `${certify.covered}/${certify.total} in ${record!.certify!.seconds.toFixed(0)} s` : 'not recorded (§11)', certify && certify.covered === certify.total ? 'yes' : 'no']
  return [threeRow, twoRow]
}

/** Replace §11's body and its goal rows in RESULTS.md text. */
export function rewriteInteractionResults(text: string, record: InteractionRecord | undefined): string {
  const section = `${INTERACTION_HEADING}\n\n${interactionSection(record)}\n`
  const start = text.indexOf(INTERACTION_HEADING)
  const end = text.indexOf('\n## Goals vs measured', Math.max(start, 0))
  let out = start >= 0 && end > start ? `${text.slice(0, start)}${section}${text.slice(end)}`
    : end >= 0 ? `${text.slice(0, end)}\n${section}${text.slice(end)}` : `${text.trimEnd()}\n\n${section}`
  for (const row of interactionGoals(record)) {
    const line = `| ${row.join(' | ')} |`
    const pattern = new RegExp(`^\\| ${row[0]!.replace(/[()]/g, '\\$&')} \\|.*$`, 'm')
    if (pattern.test(out)) out = out.replace(pattern, line)
    else {
      const tableAt = out.indexOf('| goal | target | measured | met |')
      if (tableAt < 0) continue
      const after = out.indexOf('\n\n', tableAt)
      out = after < 0 ? `${out.trimEnd()}\n${line}\n` : `${out.slice(0, after)}\n${line}${out.slice(after)}`
    }
  }
  return out
}

async function main(): Promise<void> {
  if (process.argv.includes('--write') && !process.argv.includes('--record')) {
    writeFileSync(RESULTS, rewriteInteractionResults(readFileSync(RESULTS, 'utf8'), readInteractionRecord()))
    return
  }
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`)
  const modes = (option('modes') ?? 'interaction,default,guided,unguided').split(',')
  for (const m of modes) if (MODES[m] === undefined) throw new Error(`--modes: unknown mode "${m}" (${Object.keys(MODES).join(', ')})`)
  const reused = new Map(process.argv.flatMap((a, i) => (process.argv[i - 1] === '--from' ? [a.split('=') as [string, string]] : [])))
  const out = mkdtempSync(join(tmpdir(), 'dsh-interaction-coverage-'))
  const adapter = option('adapter')
  const o = { ...(adapter ? { adapter } : {}), time: option('time') ?? '10m', interactionTime: option('interaction-time') ?? '60m', seed: option('seed') ?? '1', workers: option('workers') ?? '2', out }
  const loadStart = loadavg().map((l) => l.toFixed(2)).join(' / ')
  const results: ModeResult[] = []
  for (const mode of modes) {
    const file = reused.get(mode)
    const r = file ? fromReport(mode, JSON.parse(readFileSync(file, 'utf8')) as FuzzJson, 0) : await measure(mode, o)
    results.push(r)
    console.error(`${mode}: ${r.runs} runs in ${r.seconds.toFixed(0)} s (${r.stoppedBy}), 2-way ${r.covered[0]}/${r.totals[0]}, 3-way ${r.covered[1]}/${r.totals[1]}`)
  }
  const certify = process.argv.includes('--certify') ? await certifyCoverage(o) : undefined
  if (certify) console.error(`certify thorough: ${certify.levels.map((l) => `${l.t}-way ${l.covered}/${l.total}`).join(', ')} in ${certify.seconds.toFixed(0)} s`)
  const record: InteractionRecord = {
    commit: option('commit') ?? 'uncommitted', date: new Date().toISOString(),
    options: { ...(adapter ? { adapter } : {}), time: o.time, interactionTime: o.interactionTime, seed: o.seed, workers: o.workers },
    load: { start: loadStart, end: loadavg().map((l) => l.toFixed(2)).join(' / ') }, results, ...(certify ? { certify } : {}),
    ...(option('note') ? { note: option('note')! } : {}),
  }
  const jsonOut = option('json')
  if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(record, null, 1)}\n`)
  if (process.argv.includes('--record')) writeFileSync(RECORD, `${JSON.stringify(record, null, 1)}\n`)
  if (process.argv.includes('--write')) writeFileSync(RESULTS, rewriteInteractionResults(readFileSync(RESULTS, 'utf8'), record))
  console.log(interactionSection(record))
}

if (isMain(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 64
  })
}
