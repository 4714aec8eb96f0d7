/**
 * A preload (`node --import <this file>`) that writes the process's CPU time (every thread: main and
 * workers, user + system), wall time since start and peak RSS to the file named by the environment
 * variable `DSH_BENCH_CPU_REPORT` when the process exits. The benchmarks run the built CLI as users
 * do, as a child process, and Node does not report a child's CPU time to its parent.
 * @module
 */
import { writeFileSync } from 'node:fs'

const file = process.env.DSH_BENCH_CPU_REPORT
// Captured now: a run in this thread may install a virtual clock that fakes `performance`.
const now = performance.now.bind(performance)

/** What the preload writes. */
export interface CpuReport {
  readonly cpuMs: number
  /** Since the process started (includes Node's own start-up). */
  readonly wallMs: number
  readonly maxRssMB: number
}

if (file) {
  process.on('exit', () => {
    const cpu = process.cpuUsage()
    const report: CpuReport = { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: now(), maxRssMB: process.resourceUsage().maxRSS / 1024 }
    writeFileSync(file, JSON.stringify(report))
  })
}
