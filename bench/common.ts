/**
 * Shared helpers of the benchmarks: timing, medians, table formatting, child processes.
 * @module
 */
import { execFile } from 'node:child_process'
import { setMaxListeners } from 'node:events'
import { fileURLToPath } from 'node:url'

/**
 * The reference factory adds one abort listener to its factory signal per pending or live agent,
 * so a program with more than 10 concurrent creates makes Node print a "possible EventTarget
 * memory leak" warning per run. Printing it (a stack trace each time) would be measured as
 * scheduler time; raise the default limit for the benchmark processes.
 */
export function quietAbortListeners(): void {
  setMaxListeners(256)
}

/** Wall and CPU time of one measured batch. */
export interface Timing {
  readonly wallMs: number
  readonly cpuMs: number
}

/** Time `fn` (wall clock and this process's user+system CPU). */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T } & Timing> {
  const cpu = process.cpuUsage()
  const start = performance.now()
  const value = await fn()
  const wallMs = performance.now() - start
  const used = process.cpuUsage(cpu)
  return { value, wallMs, cpuMs: (used.user + used.system) / 1000 }
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** A markdown table. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]): string => `| ${cells.map(String).join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

/** `n` with a thousands separator and `digits` decimals (no Intl: its first use loads ICU data inside the measurement). */
export function fmt(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return String(n)
  const [int, frac] = Math.abs(n).toFixed(digits).split('.')
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${n < 0 && Number(n.toFixed(digits)) !== 0 ? '-' : ''}${grouped}${frac ? `.${frac}` : ''}`
}

/** The compiled path of a bench module (this file lives in dist/bench/ once built). */
export function benchModule(name: string): string {
  return fileURLToPath(new URL(`./${name}.js`, import.meta.url))
}

/** Run `node <args>` and return stdout; rejects with stderr on a non-zero exit. */
export function node(args: readonly string[], options: { readonly timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: options.timeoutMs ?? 0 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`node ${args.join(' ')} failed: ${error.message}\n${stderr}`))
      else resolve(stdout)
    })
  })
}

/** Whether this module is the process's entry point. */
export function isMain(url: string): boolean {
  return process.argv[1] !== undefined && fileURLToPath(url) === process.argv[1]
}

/** The value after `--name` on the command line, if any. */
export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}
