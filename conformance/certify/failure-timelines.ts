/**
 * The timelines of a certificate's failures, for its page: each simulated failure's run file
 * replayed (strictly; guided where the log no longer fits, as `explain` does) against the adapter,
 * its violations recomputed, and its swim-lane model built. A replay that cannot run or never
 * settles leaves that failure without a timeline, saying why; it never fails the page.
 * @module
 */
import { checkRun } from '../checkers/index.js'
import type { Report } from './report.js'
import type { ProcessFactory } from '../../core/process.js'
import { describeHang, settleOrHang } from '../../sim/pool/settle-or-hang.js'
import { readRunFile } from '../../sim/trace/run-file.js'
import { runProgram } from '../../sim/run.js'
import type { RunResult } from '../../sim/run.js'
import { guidedReplay, replay, ReplayDivergenceError } from '../../sim/strategies/index.js'
import { buildTimeline } from '../../sim/trace/timeline.js'
import { stringText } from '../../sim/trace/bounded-text.js'
import type { Timeline } from '../../sim/trace/timeline.js'

/** A failure's timeline for the certificate page, or a note saying why there is none. */
export interface FailureTimeline {
  readonly timeline?: Timeline
  /** Said above the timeline (e.g. the log no longer fits and a guided replay is shown), or instead of it. */
  readonly note?: string
}

/** Wall-clock bound of one replay (a hang guard: the run finished once already). */
const REPLAY_TIMEOUT_MS = 10_000

/** Replay each failing clause's run file against `process` and build its timeline, by clause key. */
export async function failureTimelines(report: Report, process: ProcessFactory): Promise<Map<string, FailureTimeline>> {
  const out = new Map<string, FailureTimeline>()
  for (const c of report.clauses) {
    const path = c.failure?.runFile
    if (c.status !== 'fail' || path === undefined) continue
    let file
    try {
      file = readRunFile(path)
    } catch (error) {
      out.set(c.key, { note: `no timeline: ${(error as Error).message}` })
      continue
    }
    let note: string | undefined
    const run = async (): Promise<RunResult> => {
      try {
        const strict = replay(file.decisions)
        strict.beginRun()
        return await runProgram(file.program, strict, { process })
      } catch (error) {
        if (!(error instanceof ReplayDivergenceError)) throw error
        note = `the log no longer fits the adapter (${error.message}); showing a guided replay that follows it where it fits`
        const guided = guidedReplay(file.decisions)
        guided.beginRun()
        return runProgram(file.program, guided, { process })
      }
    }
    const settled = await settleOrHang(run, { timeoutMs: REPLAY_TIMEOUT_MS })
    if (settled.kind !== 'fulfilled') {
      const why = settled.kind === 'hang' ? `the replay ${describeHang(settled)}` : `the replay failed: ${stringText(settled.error)}`
      out.set(c.key, { note: `no timeline: ${why}` })
      continue
    }
    const result = settled.value
    const violations = checkRun(file.program, result.trace, result.outcome)
    out.set(c.key, { timeline: buildTimeline(file.program, result.trace, result.decisions.decisions, violations), ...(note ? { note } : {}) })
  }
  return out
}
