/**
 * Running the built CLI as users do: a fresh child process, its exit code, output, wall time and
 * peak memory. Shared by the CLI's tests (not shipped).
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KIT_ROOT } from './adapter-loader.js'

/** The built CLI. */
export const CLI = join(KIT_ROOT, 'dist', 'cli', 'main.js')

/** What one CLI invocation did. */
export interface CliRun {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
  /** Peak resident memory of the child, in MB (the CLI prints it when asked). */
  readonly peakMb: number | undefined
}

/** Options of {@link dshKit}. */
export interface CliOptions {
  readonly cwd?: string
  /** Kill the child after this long (a hang is then a test failure, not a stuck test run). */
  readonly timeoutMs?: number
  /** Send this signal `afterMs` after the start (or after stderr first matches `afterStderr`). */
  readonly signal?: { readonly name: NodeJS.Signals; readonly afterMs: number; readonly afterStderr?: RegExp }
  readonly env?: Record<string, string>
}

/** Run `dsh-kit args…` in a child process. */
export function dshKit(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? KIT_ROOT,
      env: { ...process.env, DSH_KIT_REPORT_PEAK_RSS: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d })
    const kill = options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs)
    let signal: NodeJS.Timeout | undefined
    const arm = (): void => { signal ??= setTimeout(() => child.kill(options.signal!.name), options.signal!.afterMs) }
    if (options.signal !== undefined && options.signal.afterStderr === undefined) arm()
    child.stderr.on('data', (d: Buffer) => {
      stderr += d
      if (options.signal?.afterStderr?.test(stderr)) arm()
    })
    child.on('error', reject)
    child.on('close', (code, sig) => {
      clearTimeout(kill)
      clearTimeout(signal)
      const peak = /dsh-kit: peak rss (\d+) MB/.exec(stderr)?.[1]
      resolve({ code, signal: sig, stdout, stderr, ms: Math.round(performance.now() - started), peakMb: peak === undefined ? undefined : Number(peak) })
    })
  })
}

/** A folder outside the repo whose node_modules holds this package, as `npm install` would. */
export function outsideProject(prefix = 'dsh-adapter-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(KIT_ROOT, join(dir, 'node_modules', 'dsh-lifecycle-kit'), 'dir')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'my-loop', type: 'module', private: true }))
  return dir
}
