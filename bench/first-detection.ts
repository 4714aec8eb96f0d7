/**
 * Bug finding from a cold start: for every mutant of the gallery (conformance/mutants), how many
 * runs and how much time a campaign of random programs takes to its **first detection**, with no
 * hand-picked program (no named scenario, no regression program, no corpus carried over):
 *
 * - **kit guided**: `runCampaign` (the code `dsh-kit fuzz` runs) with state-coverage guidance,
 *   portfolio schedules, scenario mix off;
 * - **kit unguided**: the same with `guidance: false` (each run seed draws its own program);
 * - **fc baseline**: fast-check's own loop, `fc.check(fc.asyncProperty(programArbitrary(),
 *   fc.scheduler(), …), { endOnFailure: true })`: programs from the kit's arbitrary sampled by
 *   fast-check with no corpus, each run driving the same world through `runProgramWith` and
 *   `bench/fc-driver.ts` (fast-check's scheduler behind the world's port, virtual clock on).
 *
 * The oracle is the same everywhere: `checkRun` (every checker) on the run's trace. Each seed's
 * search stops at the first violating run or at `cap` runs; reported per configuration: the median
 * runs to the first detection over the seeds (`>cap` when more than half never detected), the
 * seeds that detected, and the median wall and CPU seconds of the searches that detected (a search
 * runs in this process, in one thread: its CPU time is this process's user+system time). Campaign
 * seeds are `k × 1,000,003` for k = 1..seeds, so the seeds' run-seed ranges never overlap.
 *
 * Run alone: `npm run build --silent && node dist/bench/first-detection.js [--quick] [--seeds 5] [--cap 2000] [--jobs 2] [--only m31,a5] [--write]`
 * (`--quick`: 3 seeds, cap 300; `--write` replaces this section of bench/RESULTS.md, between its markers,
 * and saves the measurements to bench/first-detection.json; `--from <json> --write` rewrites the
 * section from saved measurements without running anything).
 * @module
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { normalizeAdapter } from '../conformance/adapters/adapter.js'
import { checkRun } from '../conformance/checkers/index.js'
import { MUTANTS } from '../conformance/mutants/index.js'
import type { MutantEntry } from '../conformance/mutants/index.js'
import { programArbitrary } from '../scenarios/arbitraries/index.js'
import { runCampaign } from '../scenarios/campaign/campaign.js'
import { GUIDANCE_LAG } from '../scenarios/guidance/guided-draw.js'
import { runProgramWith } from '../sim/run.js'
import { arg, benchModule, fmt, isMain, median, node, quietAbortListeners, table } from './common.js'
import { FastCheckDriver } from './fc-driver.js'

/** The configurations compared, the baseline last. */
export const FIRST_DETECTION_CONFIGS = ['kit guided', 'kit unguided', 'fc baseline'] as const
export type FirstDetectionConfig = (typeof FIRST_DETECTION_CONFIGS)[number]

/** Options of {@link benchFirstDetection}. */
export interface FirstDetectionOptions {
  readonly seeds?: number
  /** Runs per seed at most. */
  readonly cap?: number
  /** Only mutants whose file starts with, or whose catalog id is, one of these. */
  readonly only?: readonly string[]
  /** Worker `i` of `n`: only mutants with index `% n === i`. */
  readonly shard?: { readonly index: number; readonly count: number }
}

/** One search: runs to the first detection (null: none within the cap), and its cost. */
export interface Search {
  readonly seed: number
  readonly runs: number | null
  /** Runs executed (the detection's, or the cap). */
  readonly executed: number
  readonly wallMs: number
  readonly cpuMs: number
  readonly clause?: string
}

/** One configuration on one mutant. */
export interface ConfigResult {
  readonly config: FirstDetectionConfig
  readonly searches: readonly Search[]
}

/** One mutant's row. */
export interface FirstDetectionRow {
  readonly mutant: string
  readonly catalog: string
  readonly results: readonly ConfigResult[]
}

/** The campaign seed of the `k`-th search (1-based): far apart, so no two searches share a run seed. */
export function searchSeed(k: number): number {
  return k * 1_000_003
}

async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage()
  const start = performance.now()
  const value = await fn()
  const used = process.cpuUsage(cpu)
  return { value, wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 }
}

/** The kit's campaign from a cold start, stopped at its first failure. */
async function kitSearch(mutant: MutantEntry, k: number, cap: number, guidance: boolean): Promise<Search> {
  const seed = searchSeed(k)
  const { value: report, wallMs, cpuMs } = await measured(() => runCampaign({
    adapter: mutant.adapter, seed, runs: cap, guidance, mixScenarios: false, shrink: false, baseline: false, keepGoing: false,
  }))
  const f = report.failures[0]
  return f ? { seed, runs: f.run + 1, executed: f.run + 1, wallMs, cpuMs, clause: f.key } : { seed, runs: null, executed: report.runs, wallMs, cpuMs }
}

/** fast-check's own loop: programs from the kit's arbitrary and `fc.scheduler()`, until the first violating run. */
async function fcSearch(mutant: MutantEntry, k: number, cap: number): Promise<Search> {
  const install = normalizeAdapter(mutant.adapter, mutant.file).installFactory
  let clause: string | undefined
  const property = fc.asyncProperty(programArbitrary(), fc.scheduler(), async (program, s) => {
    const result = await runProgramWith(program, new FastCheckDriver(s, { clock: true }), { install })
    const violations = checkRun(program, result.trace, result.outcome)
    if (violations.length > 0) clause ??= violations[0]!.key
    return violations.length === 0
  })
  const { value: details, wallMs, cpuMs } = await measured(() => fc.check(property, { seed: k, numRuns: cap, endOnFailure: true }))
  if (!details.failed) return { seed: k, runs: null, executed: details.numRuns, wallMs, cpuMs }
  return { seed: k, runs: details.numRuns, executed: details.numRuns, wallMs, cpuMs, ...(clause ? { clause } : {}) }
}

/** Measure one mutant under every configuration. */
export async function firstDetectionRow(mutant: MutantEntry, options: { readonly seeds: number; readonly cap: number }): Promise<FirstDetectionRow> {
  const results: ConfigResult[] = []
  for (const config of FIRST_DETECTION_CONFIGS) {
    const searches: Search[] = []
    for (let k = 1; k <= options.seeds; k++) {
      searches.push(config === 'fc baseline' ? await fcSearch(mutant, k, options.cap)
        : await kitSearch(mutant, k, options.cap, config === 'kit guided'))
    }
    results.push({ config, searches })
  }
  return { mutant: mutant.file.replace(/\.ts$/, ''), catalog: mutant.catalog, results }
}

/** The mutants selected by `only` and `shard`. */
function selected(options: FirstDetectionOptions): MutantEntry[] {
  return MUTANTS.filter((m, i) =>
    (!options.only || options.only.some((o) => m.file.startsWith(o) || m.catalog.toLowerCase() === o.toLowerCase()))
    && (!options.shard || i % options.shard.count === options.shard.index))
}

/** Seeds and cap of a full run, and of `--quick`. */
export const FIRST_DETECTION_FULL = { seeds: 5, cap: 2000 } as const
export const FIRST_DETECTION_QUICK = { seeds: 3, cap: 300 } as const

/** Run the benchmark in this process. */
export async function benchFirstDetection(options: FirstDetectionOptions = {}): Promise<FirstDetectionRow[]> {
  quietAbortListeners()
  const opts = { seeds: options.seeds ?? FIRST_DETECTION_FULL.seeds, cap: options.cap ?? FIRST_DETECTION_FULL.cap }
  const rows: FirstDetectionRow[] = []
  for (const m of selected(options)) {
    const started = performance.now()
    rows.push(await firstDetectionRow(m, opts))
    const row = rows.at(-1)!
    process.stderr.write(`first-detection: ${m.catalog} ${row.results.map((r) => `${r.config} ${r.searches.map((s) => s.runs ?? `>${opts.cap}`).join('/')}`).join(', ')} (${Math.round(performance.now() - started)} ms)\n`)
  }
  return rows
}

/** Run the benchmark in `jobs` child processes, merged in gallery order. */
export async function benchFirstDetectionParallel(options: FirstDetectionOptions & { readonly jobs?: number } = {}): Promise<FirstDetectionRow[]> {
  const jobs = options.jobs ?? 2
  const flags = [
    ...(options.seeds !== undefined ? ['--seeds', String(options.seeds)] : []),
    ...(options.cap !== undefined ? ['--cap', String(options.cap)] : []),
    ...(options.only ? ['--only', options.only.join(',')] : []),
  ]
  const outputs = await Promise.all(Array.from({ length: jobs }, (_, i) => node([benchModule('first-detection'), '--shard', `${i}/${jobs}`, '--json', ...flags])))
  const order = new Map(MUTANTS.map((m, i) => [m.file.replace(/\.ts$/, ''), i]))
  return outputs.flatMap((o) => JSON.parse(o) as FirstDetectionRow[]).sort((a, b) => order.get(a.mutant)! - order.get(b.mutant)!)
}

/** Median runs to the first detection (`Infinity` when more than half the seeds never detected). */
export function medianRuns(r: ConfigResult): number {
  return median(r.searches.map((s) => s.runs ?? Number.POSITIVE_INFINITY))
}

function medianCost(r: ConfigResult, pick: (s: Search) => number): number {
  const found = r.searches.filter((s) => s.runs !== null)
  return found.length === 0 ? Number.NaN : median(found.map(pick))
}

function runsCell(n: number, cap: number): string {
  return Number.isFinite(n) ? fmt(n, Number.isInteger(n) ? 0 : 1) : `>${fmt(cap)}`
}

/** `baseline ÷ guided` of the medians, as text and value (a lower bound when the baseline's median is past the cap). */
export function ratio(row: FirstDetectionRow, cap: number, of: FirstDetectionConfig = 'kit guided'): { text: string; value: number; bound: boolean } {
  const guided = medianRuns(row.results.find((r) => r.config === of)!)
  const base = medianRuns(row.results.find((r) => r.config === 'fc baseline')!)
  if (!Number.isFinite(guided)) return Number.isFinite(base) ? { text: `≤ ${fmt(base / cap, 2)}×`, value: base / cap, bound: true } : { text: 'n/a (neither)', value: Number.NaN, bound: true }
  if (!Number.isFinite(base)) return { text: `≥ ${fmt(cap / guided, cap / guided < 10 ? 1 : 0)}×`, value: cap / guided, bound: true }
  const v = base / guided
  return { text: `${fmt(v, v < 10 ? 2 : 0)}×`, value: v, bound: false }
}

/** The table as markdown: per mutant and configuration, median runs · detected seeds · median seconds wall / CPU. */
export function firstDetectionTable(rows: readonly FirstDetectionRow[], cap: number): string {
  const cell = (r: ConfigResult): string => {
    const found = r.searches.filter((s) => s.runs !== null).length
    const wall = medianCost(r, (s) => s.wallMs) / 1000
    const cpu = medianCost(r, (s) => s.cpuMs) / 1000
    const time = Number.isNaN(wall) ? '—' : `${fmt(wall, wall < 10 ? 2 : 1)} s / ${fmt(cpu, cpu < 10 ? 2 : 1)} s`
    return `${runsCell(medianRuns(r), cap)} · ${found}/${r.searches.length} · ${time}`
  }
  const header = ['mutant', ...FIRST_DETECTION_CONFIGS.map((c) => `${c}: runs · found · wall / CPU`), 'fc ÷ guided', 'unguided ÷ guided']
  const body = rows.map((row) => {
    const g = medianRuns(row.results.find((r) => r.config === 'kit guided')!)
    const u = medianRuns(row.results.find((r) => r.config === 'kit unguided')!)
    const ug = Number.isFinite(g) && Number.isFinite(u) ? `${fmt(u / g, 2)}×` : Number.isFinite(g) ? `≥ ${fmt(cap / g, 1)}×` : 'n/a'
    return [`${row.catalog}`, ...row.results.map(cell), ratio(row, cap).text, ug]
  })
  return table(header, body)
}

/** The gallery-wide summary: medians over the mutants of each configuration's median, and the median ratio. */
export function firstDetectionSummary(rows: readonly FirstDetectionRow[], cap: number): {
  readonly medians: Record<FirstDetectionConfig, number>
  readonly found: Record<FirstDetectionConfig, number>
  readonly medianRatio: number
  readonly text: string
} {
  const medians = {} as Record<FirstDetectionConfig, number>
  const found = {} as Record<FirstDetectionConfig, number>
  for (const c of FIRST_DETECTION_CONFIGS) {
    const per = rows.map((row) => medianRuns(row.results.find((r) => r.config === c)!))
    medians[c] = median(per)
    found[c] = per.filter((n) => Number.isFinite(n)).length
  }
  const ratios = rows.map((row) => ratio(row, cap).value).filter((v) => !Number.isNaN(v))
  const medianRatio = median(ratios)
  const text = `median over the ${rows.length} mutants of the median runs to the first detection: guided ${runsCell(medians['kit guided'], cap)}, unguided ${runsCell(medians['kit unguided'], cap)}, fc baseline ${runsCell(medians['fc baseline'], cap)}; ` +
    `mutants whose median search detected within ${fmt(cap)} runs: guided ${found['kit guided']}, unguided ${found['kit unguided']}, fc baseline ${found['fc baseline']}; ` +
    `median over the mutants of (fc baseline ÷ guided) ${fmt(medianRatio, 2)}× (a mutant past the cap counts at the cap)`
  return { medians, found, medianRatio, text }
}

/** Where mutants fall: fc's median (fast, within 100 runs, beyond). */
function hardness(rows: readonly FirstDetectionRow[]): { readonly easy: FirstDetectionRow[]; readonly hard: FirstDetectionRow[] } {
  const fcMedian = (row: FirstDetectionRow): number => medianRuns(row.results.find((r) => r.config === 'fc baseline')!)
  return { easy: rows.filter((r) => fcMedian(r) <= 100), hard: rows.filter((r) => !(fcMedian(r) <= 100)) }
}

/** Markers of the section in bench/RESULTS.md. */
export const SECTION_START = '<!-- first-detection:start -->'
export const SECTION_END = '<!-- first-detection:end -->'

/** The RESULTS.md section: how it was measured, the table, the summary and what the numbers say. */
export function firstDetectionSection(rows: readonly FirstDetectionRow[], o: { readonly seeds: number; readonly cap: number; readonly jobs: number; readonly minutes: number; readonly quick: boolean; readonly load: string; readonly commit?: string }): string {
  const summary = firstDetectionSummary(rows, o.cap)
  const { easy, hard } = hardness(rows)
  const ratios = (set: readonly FirstDetectionRow[], of: FirstDetectionConfig = 'kit guided'): number[] => set.map((r) => ratio(r, o.cap, of).value).filter((v) => !Number.isNaN(v))
  const easyGuided = easy.map((r) => medianRuns(r.results.find((x) => x.config === 'kit guided')!))
  const easyFc = easy.map((r) => medianRuns(r.results.find((x) => x.config === 'fc baseline')!))
  const slower = rows.filter((r) => {
    const g = medianRuns(r.results.find((x) => x.config === 'kit guided')!)
    const u = medianRuns(r.results.find((x) => x.config === 'kit unguided')!)
    return Number.isFinite(u) && !(g <= 1.5 * u)
  })
  const cpuPerRun = (c: FirstDetectionConfig): number => {
    const searches = rows.flatMap((r) => r.results.find((x) => x.config === c)!.searches)
    return searches.reduce((n, x) => n + x.cpuMs, 0) / Math.max(1, searches.reduce((n, x) => n + x.executed, 0))
  }
  const hardFound = (c: FirstDetectionConfig): number => hard.filter((r) => Number.isFinite(medianRuns(r.results.find((x) => x.config === c)!))).length
  const met = summary.medianRatio >= 10
  const command = `npm run build --silent && node dist/bench/first-detection.js${o.quick ? ' --quick' : ''} --jobs ${o.jobs} --write`
  return `${SECTION_START}
## 5. Bug finding from a cold start: runs and time to the first detection, per mutant

${o.quick ? `**QUICK RUN (${o.seeds} seeds, cap ${o.cap}): for iteration, not representative.**\n\n` : ''}\`${command}\` (${o.commit ? `commit ${o.commit}, ` : ''}${fmt(o.minutes, 1)} min on ${o.jobs} child processes; load average ${o.load}). For every mutant of the gallery, ${o.seeds} searches per configuration from a cold start (random programs only: no named scenario, no regression program, no corpus carried over), each stopped at its first violating run or at ${fmt(o.cap)} runs (the cap). **kit guided**: \`runCampaign\` (what \`dsh-kit fuzz\` runs) with state-coverage guidance on, portfolio schedules, \`mixScenarios: false\`, in one thread; **kit unguided**: the same with \`guidance: false\` (each run seed draws its own program); **fc baseline**: \`fc.check(fc.asyncProperty(programArbitrary(), fc.scheduler(), …), { endOnFailure: true })\`, fast-check generating the kit's programs with no corpus and its scheduler driving the same world through \`runProgramWith\` and \`bench/fc-driver.ts\`. The oracle is \`checkRun\` everywhere. Campaign seeds \`k × 1,000,003\` and fc seeds \`k\`, k = 1..${o.seeds}. Each cell: median runs to the first detection (\`>${fmt(o.cap)}\`: more than half the searches reached the cap) · searches that detected · median wall / CPU seconds of the searches that detected (CPU: this process's user+system time; the machine is shared, so wall time is pessimistic). "fc ÷ guided" is the ratio of the medians (a bound when one is past the cap).

${firstDetectionTable(rows, o.cap)}

${summary.text}.

**Goal** (issue 13): median runs-to-first-detection of the guided campaign at least 10× fewer than the fc baseline over the gallery: **${met ? 'met' : 'not met'}** (median ratio ${fmt(summary.medianRatio, 2)}×).

- **Why the median ratio ${met ? 'holds' : 'cannot reach 10× here'}.** ${easy.length} of the ${rows.length} mutants are found by the fc baseline within 100 runs (median of their fc medians ${fmt(median(easyFc), 0)} runs): a bug that a random program exposes once in a few dozen runs is exposed just as soon by any generator, and a 10× ratio there would need detection within ${fmt(median(easyFc) / 10, 1)} runs, i.e. by one of the first few random programs, which neither a corpus nor a mutation can give before it has seen a run. On those the kit's median is ${fmt(median(easyGuided), 0)} runs (its first ${GUIDANCE_LAG + 1} seeds are the unguided campaign's, fresh full-mix and swarm programs) against fast-check's ${fmt(median(easyFc), 0)}; median fc ÷ guided on them: ${fmt(median(ratios(easy)), 2)}×.
- **Where guidance matters.** The ${hard.length} mutants the fc baseline does not find within 100 runs (median) need a precise shape: a dispose from inside an \`agent/status\` dispatch while a turn opens (M31), a steer from a \`turn-stopping\` listener (M35), a followup latched behind maintenance then removed (M43), a \`whenIdle\` through a latch (M48, M49), an owner unload at scope minting (M19)… Searches that detected within the cap, by median: guided ${hardFound('kit guided')}, unguided ${hardFound('kit unguided')}, fc baseline ${hardFound('fc baseline')} of ${hard.length}; median fc ÷ guided there ${fmt(median(ratios(hard)), 1)}× (lower bounds where fc never detected). The corpus gets there in steps that state coverage rewards: a turn running on a live agent, then an operation inside that agent's dispatch, then the operation that breaks it.
- **What guidance costs.** Past its first ${GUIDANCE_LAG + 1} seeds a guided campaign draws a fresh program for only a quarter of its seeds, so a mutant that fresh programs expose every few dozen runs and corpus mutants rarely do takes longer guided than unguided (median more than 1.5× the unguided one: ${slower.map((r) => r.catalog).join(', ') || 'none'}). Guided runs also cost more: ${fmt(cpuPerRun('kit guided'), 1)} ms of CPU per run against ${fmt(cpuPerRun('kit unguided'), 1)} unguided and ${fmt(cpuPerRun('fc baseline'), 1)} for the fc baseline (all runs of all searches; mutants grow larger programs, and the main thread draws and mutates them).
- **What would close the rest.** Mutants still past the cap for every configuration need a conjunction of features the mutations reach only rarely (${hard.filter((r) => FIRST_DETECTION_CONFIGS.every((c) => !Number.isFinite(medianRuns(r.results.find((x) => x.config === c)!)))).map((r) => r.catalog).join(', ') || 'none'}): abstract states that tell more (a latch pending, a model call hanging across a restart), mutations that edit one actor's sequence around a chosen operation, and longer searches (\`fuzz --time 60s\` runs thousands of seeds, and mixes the named scenarios in by default).
${SECTION_END}`
}

/** Replace (or append) the section in a RESULTS.md text. */
export function withSection(results: string, section: string): string {
  const start = results.indexOf(SECTION_START)
  const end = results.indexOf(SECTION_END)
  if (start >= 0 && end > start) return results.slice(0, start) + section + results.slice(end + SECTION_END.length)
  const goals = results.indexOf('\n## Goals vs measured')
  return goals >= 0 ? `${results.slice(0, goals)}\n${section}\n${results.slice(goals)}` : `${results.trimEnd()}\n\n${section}\n`
}

if (isMain(import.meta.url)) {
  const quick = process.argv.includes('--quick')
  const from = arg('from')
  const shard = arg('shard')
  const only = arg('only')
  const base = quick ? FIRST_DETECTION_QUICK : FIRST_DETECTION_FULL
  const opts: FirstDetectionOptions = {
    seeds: Number(arg('seeds') ?? base.seeds),
    cap: Number(arg('cap') ?? base.cap),
    ...(only ? { only: only.split(',') } : {}),
    ...(shard ? { shard: { index: Number(shard.split('/')[0]), count: Number(shard.split('/')[1]) } } : {}),
  }
  const jobs = arg('jobs')
  const started = performance.now()
  const load = loadavg().map((x) => x.toFixed(2)).join(' / ')
  type Saved = { readonly rows: FirstDetectionRow[]; readonly seeds: number; readonly cap: number; readonly jobs: number; readonly minutes: number; readonly quick: boolean; readonly load: string; readonly commit?: string }
  let commit: string | undefined
  try { commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim() } catch { commit = undefined }
  const saved: Saved = from
    ? JSON.parse(readFileSync(from, 'utf8')) as Saved
    : {
        rows: jobs && !shard ? await benchFirstDetectionParallel({ ...opts, jobs: Number(jobs) }) : await benchFirstDetection(opts),
        seeds: opts.seeds!, cap: opts.cap!, jobs: Number(jobs ?? 1), minutes: (performance.now() - started) / 60_000, quick, load: `${load} at start (${cpus().length} CPUs)`,
        ...(commit ? { commit } : {}),
      }
  const { rows } = saved
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows))
  else if (process.argv.includes('--write')) {
    const file = fileURLToPath(new URL('../../bench/RESULTS.md', import.meta.url))
    writeFileSync(file, withSection(readFileSync(file, 'utf8'), firstDetectionSection(rows, saved)))
    if (!from) writeFileSync(fileURLToPath(new URL('../../bench/first-detection.json', import.meta.url)), `${JSON.stringify(saved)}\n`)
    process.stderr.write(`wrote the first-detection section of ${file}\n`)
  } else console.log(`${firstDetectionTable(rows, saved.cap)}\n\n${firstDetectionSummary(rows, saved.cap).text}`)
}
