/**
 * Every core: `dsh-kit fuzz --runs N --workers 1` against `--workers 2`, through the built CLI in
 * child processes, alternating (1, 2, 1, 2, …) so drifting machine load hits both alike. On the
 * reference factory and, when its dependencies are installed, on the upstream adapter
 * `adapters/dsh-agent-loop` (under the Node 22 its setup installs). N is sized by two discarded
 * warm-up campaigns so one `--workers 1` campaign takes about `seconds` of CPU time once started.
 *
 * A shared machine's load changes what wall time can show (Linux shares the CPU between sessions,
 * not threads, when `sched_autogroup` is on), so the CPU time of each thread is recorded too, and
 * {@link idleEstimate} bounds the speed-up an idle machine would give from where that CPU goes.
 *
 * Every pair is run twice, with N and with 2N runs. The whole campaign (start-up, the JIT warm-up of
 * each worker's isolate, the corpus filling) is what a short CI campaign sees; the difference
 * between the two, runs N+1 … 2N, is the **steady state** a campaign of hours runs in, where each
 * isolate has compiled its code once.
 *
 * The upstream adapter violates clauses, so its campaigns run with `--keep-going --no-shrink`:
 * every run is counted and no time goes to shrinking (each clause's first failure is still replayed
 * and reported, in both worker counts alike).
 *
 * Run alone: `npm run build --silent && node dist/bench/workers.js [--reps 3] [--seconds 15] [--only <target name part>]`
 * @module
 */
import { arg, fmt, isMain, median, table } from './common.js'
import { fuzzChild, sizeCampaign, UPSTREAM, upstreamMissing } from './fuzz-child.js'
import type { FuzzChildResult } from './fuzz-child.js'

/** A campaign target. */
export interface WorkersTarget {
  readonly name: string
  readonly node?: string
  /** fuzz options besides `--runs` and `--workers`. */
  readonly args: readonly string[]
  /** Runs of the larger warm-up campaign that sizes N (the smaller has a quarter). */
  readonly warmupRuns: number
}

/** One target's measurements. */
export interface WorkersRow {
  readonly target: string
  readonly args: readonly string[]
  /** Runs per campaign. */
  readonly runs: number
  readonly one: readonly FuzzChildResult[]
  readonly two: readonly FuzzChildResult[]
  /** The same campaigns with 2N runs, alternating with the others. */
  readonly oneLong: readonly FuzzChildResult[]
  readonly twoLong: readonly FuzzChildResult[]
  /** Median over the alternating pairs of (runs/s with 2 workers) / (runs/s with 1). */
  readonly speedup: number
  /** The same over runs N+1 … 2N only (2N-run campaign minus N-run campaign, each worker count). */
  readonly steadySpeedup: number
  /** Why the row was not measured. */
  readonly skipped?: string
}

/** Options of {@link benchWorkers}. */
export interface WorkersOptions {
  /** Alternating pairs per target. */
  readonly reps?: number
  /** Target wall time of one `--workers 1` campaign. */
  readonly seconds?: number
  /** Upper bound of N (a smoke run keeps it small). */
  readonly maxRuns?: number
  readonly log?: (message: string) => void
  /** Only the targets whose name contains this text (all by default). */
  readonly only?: string
}

/**
 * The targets: the reference; a CPU-heavy factory (`heavy-factory.ts`: the from-scratch example
 * computing about 3 ms per create), whose cost is the code under test's as a real loop's would be,
 * so that how a campaign scales with its workers does not hinge on one worker's V8 background
 * threads; then the upstream adapter.
 */
export const WORKERS_TARGETS: readonly WorkersTarget[] = [
  { name: 'reference factory', args: [], warmupRuns: 800 },
  { name: 'CPU-heavy factory (bench/heavy-factory.ts)', args: ['--adapter', 'dist/bench/heavy-factory.js'], warmupRuns: 200 },
  { name: `upstream adapter (${UPSTREAM.adapter}, Node 22)`, node: UPSTREAM.node, args: ['--adapter', UPSTREAM.adapter, '--keep-going', '--no-shrink'], warmupRuns: 120 },
]

const rate = (r: FuzzChildResult): number => r.runs / (r.wallMs / 1000)

/** Measure every target. */
export async function benchWorkers(options: WorkersOptions = {}): Promise<WorkersRow[]> {
  const reps = options.reps ?? 3
  const seconds = options.seconds ?? 15
  const rows: WorkersRow[] = []
  for (const target of WORKERS_TARGETS) {
    if (options.only !== undefined && !target.name.includes(options.only)) continue
    const missing = target.node === UPSTREAM.node ? upstreamMissing() : undefined
    if (missing) {
      rows.push({ target: target.name, args: target.args, runs: 0, one: [], two: [], oneLong: [], twoLong: [], speedup: Number.NaN, steadySpeedup: Number.NaN, skipped: missing })
      continue
    }
    const run = (runs: number, workers: number): Promise<FuzzChildResult> =>
      fuzzChild({ args: [...target.args, '--runs', String(runs), '--workers', String(workers)], ...(target.node ? { node: target.node } : {}) })
    const sized = await sizeCampaign((n) => run(n, 1), seconds, Math.round(target.warmupRuns / 4), target.warmupRuns)
    const runs = Math.min(sized.runs, options.maxRuns ?? Number.POSITIVE_INFINITY)
    options.log?.(`workers: ${target.name}, ${fmt(runs)} runs per campaign (warm-up: ${fmt(sized.cpuMsPerRun, 2)} CPU ms per run once started), ${reps} alternating pairs`)
    const one: FuzzChildResult[] = []
    const two: FuzzChildResult[] = []
    const oneLong: FuzzChildResult[] = []
    const twoLong: FuzzChildResult[] = []
    for (let i = 0; i < reps; i++) {
      one.push(await run(runs, 1))
      two.push(await run(runs, 2))
      oneLong.push(await run(2 * runs, 1))
      twoLong.push(await run(2 * runs, 2))
    }
    const steady = one.map((o, i) => steadyPart(o, oneLong[i]!))
    const steadyTwo = two.map((o, i) => steadyPart(o, twoLong[i]!))
    rows.push({
      target: target.name, args: target.args, runs, one, two, oneLong, twoLong,
      speedup: median(one.map((o, i) => rate(two[i]!) / rate(o))),
      steadySpeedup: median(steady.map((o, i) => rate(steadyTwo[i]!) / rate(o))),
    })
  }
  return rows
}

/**
 * The speed-up an idle machine with `cores` cores would give, from the CPU per run of each thread
 * (medians over the campaigns): a campaign's wall time per run is at least its busiest worker
 * thread's CPU per run (a worker runs its seeds one after another) and at least the CPU per run of
 * all its threads (main, workers, V8's GC and compiler threads) over the cores. `NaN` without
 * per-thread figures (not Linux).
 */
export function idleEstimate(row: Pick<WorkersRow, 'one' | 'two'>, cores = 2): number {
  const bound = (xs: readonly FuzzChildResult[]): number => median(xs.map((x) => {
    if (!x.threads) return Number.NaN
    const workers = x.threads.workersMs.reduce((a, b) => a + b, 0)
    return Math.max(Math.max(...x.threads.workersMs), (x.threads.mainMs + workers + x.threads.otherMs) / cores) / x.runs
  }))
  return bound(row.one) / bound(row.two)
}

/**
 * Runs N+1 … 2N of a campaign: the 2N-run campaign minus the N-run one (wall, CPU, CPU per thread).
 * Both start alike and draw the same first N seeds, so what is left is what those runs cost.
 */
export function steadyPart(short: FuzzChildResult, long: FuzzChildResult): FuzzChildResult {
  const threads = short.threads && long.threads
    ? {
        mainMs: long.threads.mainMs - short.threads.mainMs,
        workersMs: long.threads.workersMs.map((w, i) => w - (short.threads!.workersMs[i] ?? 0)),
        otherMs: long.threads.otherMs - short.threads.otherMs,
      }
    : undefined
  return {
    code: long.code, runs: long.runs - short.runs, wallMs: long.wallMs - short.wallMs, cpuMs: long.cpuMs - short.cpuMs, maxRssMB: long.maxRssMB,
    ...(threads ? { threads } : {}),
  }
}

/** Each pair's runs N+1 … 2N, 1 worker then 2 workers. */
export function steadyRuns(row: WorkersRow): { one: FuzzChildResult[]; two: FuzzChildResult[] } {
  return { one: row.one.map((o, i) => steadyPart(o, row.oneLong[i]!)), two: row.two.map((o, i) => steadyPart(o, row.twoLong[i]!)) }
}

/** The workers table as markdown. */
export function workersTable(rows: readonly WorkersRow[], part: 'whole' | 'steady' = 'whole'): string {
  return table(
    ['target', part === 'whole' ? 'runs per campaign' : 'runs measured (N+1 … 2N)', 'pairs', '1 worker: runs/s (wall)', '1 worker: CPU s', '1 worker: CPU ms/run', '2 workers: runs/s (wall)', '2 workers: CPU s', '2 workers: CPU ms/run', 'speed-up (2 ÷ 1, wall)', 'CPU used ÷ wall (1 / 2 workers)', 'idle 2-core bound from CPU per thread'],
    rows.map((row) => {
      if (row.skipped) return [row.target, 'not measured', '', '', '', '', '', '', '', '', '', `skipped: ${row.skipped}`]
      const r = part === 'whole' ? row : { ...row, ...steadyRuns(row), speedup: row.steadySpeedup }
      const side = (xs: readonly FuzzChildResult[]): string[] => [
        fmt(median(xs.map(rate)), 0), fmt(median(xs.map((x) => x.cpuMs)) / 1000, 1), fmt(median(xs.map((x) => x.cpuMs / x.runs)), 2),
      ]
      const util = (xs: readonly FuzzChildResult[]): string => fmt(median(xs.map((x) => x.cpuMs / x.wallMs)), 2)
      const estimate = idleEstimate(r)
      return [r.target, fmt(r.runs), r.one.length, ...side(r.one), ...side(r.two), `${fmt(r.speedup, 2)}×`, `${util(r.one)} / ${util(r.two)}`, Number.isFinite(estimate) ? `${fmt(estimate, 2)}×` : 'n/a']
    }),
  )
}

/** The feeding thread's CPU over the workers' (median over campaigns with thread figures; NaN without). */
export function feedingShare(xs: readonly FuzzChildResult[]): number {
  const t = xs.map((x) => x.threads).filter((x) => x !== undefined)
  return t.length === 0 ? Number.NaN : median(t.map((x) => x.mainMs / Math.max(1e-9, x.workersMs.reduce((a, b) => a + b, 0))))
}

if (isMain(import.meta.url)) {
  const only = arg('only')
  const rows = await benchWorkers({ reps: Number(arg('reps') ?? 3), seconds: Number(arg('seconds') ?? 15), log: (m) => process.stderr.write(`${m}\n`), ...(only !== undefined ? { only } : {}) })
  console.log(`${workersTable(rows)}\n\nSteady state (runs N+1 … 2N):\n\n${workersTable(rows, 'steady')}`)
  const share = (x: number): string => (Number.isFinite(x) ? `1/${fmt(1 / x, 1)}` : 'n/a')
  for (const r of rows.filter((x) => !x.skipped)) console.log(`\n${r.target}: the feeding thread's CPU ÷ the worker's, 1 worker: ${share(feedingShare(r.one))} whole campaign, ${share(feedingShare(steadyRuns(r).one))} runs N+1 … 2N (goal: at most 1/32)`)
}
