/**
 * A preload (`node --import <this file>`) that writes the process's CPU time (every thread: main and
 * workers, user + system), wall time since start and peak RSS to the file named by the environment
 * variable `DSH_BENCH_CPU_REPORT` when the process exits. The benchmarks run the built CLI as users
 * do, as a child process, and Node does not report a child's CPU time to its parent.
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { statTicks, USER_HZ } from './proc-stat.js'

const file = process.env.DSH_BENCH_CPU_REPORT
// Captured now: a run in this thread may install a virtual clock that fakes `performance`.
const now = performance.now.bind(performance)

/** What the preload writes. */
export interface CpuReport {
  readonly cpuMs: number
  /** Since the process started (includes Node's own start-up). */
  readonly wallMs: number
  readonly maxRssMB: number
  /**
   * The main thread's own CPU time (Linux: `/proc`, in 10 ms ticks), read at exit: exact where a
   * parent sampling `/proc` every 100 ms loses the last interval, which is a large share of a
   * thread that spends half a second in a campaign (the thread feeding the workers).
   */
  readonly mainThreadMs?: number
}

/** The main thread's utime + stime in ms, or undefined off Linux. */
function mainThreadMs(): number | undefined {
  try {
    return (statTicks(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')) * 1000) / USER_HZ
  } catch {
    return undefined
  }
}

if (file) {
  process.on('exit', () => {
    const cpu = process.cpuUsage()
    const main = mainThreadMs()
    const report: CpuReport = { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: now(), maxRssMB: process.resourceUsage().maxRSS / 1024, ...(main === undefined ? {} : { mainThreadMs: main }) }
    writeFileSync(file, JSON.stringify(report))
  })
}
