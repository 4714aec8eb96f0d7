/**
 * A saved run replayed against an adapter, where the adapter's code runs (a watched worker): the
 * strict replay of its log, or, where the log no longer fits, a guided replay that follows it as
 * far as it fits (as `explain` and the certificate page show it). What crosses back to the main
 * thread is data: the hash, the violations, the printed trace and the timeline model.
 * @module
 */
import type { ProcessFactory } from '../../core/process.js'
import { runProgram } from '../../sim/run.js'
import type { RunResult } from '../../sim/run.js'
import { guidedReplay, replay, ReplayDivergenceError } from '../../sim/strategies/index.js'
import { buildTimeline } from '../../sim/trace/timeline.js'
import type { Timeline } from '../../sim/trace/timeline.js'
import { readRunFile } from '../../sim/trace/run-file.js'
import { renderTrace } from '../../sim/trace/trace.js'
import { checkRun } from '../checkers/index.js'
import type { Violation } from '../checkers/index.js'

/** What to replay and what to bring back. */
export interface ReplayRequest {
  readonly path: string
  /** Fall back to a guided replay when the strict one diverges (else report the divergence). */
  readonly guided: boolean
  readonly trace?: boolean
  readonly timeline?: boolean
}

/** A replayed run, as data. */
export interface ReplayedRun {
  /** The strict replay diverged (and no guided replay was asked for): why. */
  readonly diverged?: string
  /** The replay never settled (the run finished once when recorded): how it was seen. */
  readonly hung?: string
  /** The strict replay diverged and a guided one is shown: why. */
  readonly note?: string
  readonly hash?: string
  readonly decisions?: number
  readonly violations?: readonly Violation[]
  readonly trace?: string
  readonly timeline?: Timeline
}

/** Replay `request.path` against `process`. */
export async function replayRun(request: ReplayRequest, process: ProcessFactory): Promise<ReplayedRun> {
  const file = readRunFile(request.path)
  let note: string | undefined
  let result: RunResult
  try {
    const strict = replay(file.decisions)
    strict.beginRun()
    result = await runProgram(file.program, strict, { process })
  } catch (error) {
    if (!(error instanceof ReplayDivergenceError)) throw error
    if (!request.guided) return { diverged: error.message }
    note = error.message
    const guided = guidedReplay(file.decisions)
    guided.beginRun()
    result = await runProgram(file.program, guided, { process })
  }
  // Run files carry the violations' clauses, not their entries: recompute them on the replay.
  const violations = checkRun(file.program, result.trace, result.outcome)
  return {
    ...(note === undefined ? {} : { note }), hash: result.hash, decisions: result.decisions.decisions.length, violations,
    ...(request.trace ? { trace: renderTrace(result.trace, result.decisions.decisions) } : {}),
    ...(request.timeline ? { timeline: buildTimeline(file.program, result.trace, result.decisions.decisions, violations) } : {}),
  }
}
