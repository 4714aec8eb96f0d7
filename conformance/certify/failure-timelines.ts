/**
 * The timelines of a certificate's failures, for its page: each simulated failure's run file
 * replayed (strictly; guided where the log no longer fits, as `explain` does) against the adapter,
 * its violations recomputed, and its swim-lane model built. The replays run where the adapter's
 * code runs (the CLI's watched worker, `adapters/watched-adapter.ts`), given here as `replay`. A
 * replay that cannot run or never settles leaves that failure without a timeline, saying why; it
 * never fails the page.
 * @module
 */
import type { Report } from './report.js'
import type { ReplayedRun, ReplayRequest } from '../adapters/replay-run.js'
import type { Timeline } from '../../sim/trace/timeline.js'
import { stringText } from '../../sim/trace/bounded-text.js'

/** A failure's timeline for the certificate page, or a note saying why there is none. */
export interface FailureTimeline {
  readonly timeline?: Timeline
  /** Said above the timeline (e.g. the log no longer fits and a guided replay is shown), or instead of it. */
  readonly note?: string
}

/** Replay each failing clause's run file through `replay` and build its timeline, by clause key. */
export async function failureTimelines(report: Report, replay: (request: ReplayRequest) => Promise<ReplayedRun>): Promise<Map<string, FailureTimeline>> {
  const out = new Map<string, FailureTimeline>()
  for (const c of report.clauses) {
    const path = c.failure?.runFile
    if (c.status !== 'fail' || path === undefined) continue
    let replayed: ReplayedRun
    try {
      replayed = await replay({ path, guided: true, timeline: true })
    } catch (error) {
      out.set(c.key, { note: `no timeline: the replay failed: ${stringText(error)}` })
      continue
    }
    if (replayed.hung !== undefined || replayed.timeline === undefined) {
      out.set(c.key, { note: `no timeline: ${replayed.hung ?? 'the replay produced none'}` })
      continue
    }
    const note = replayed.note === undefined ? undefined : `the log no longer fits the adapter (${replayed.note}); showing a guided replay that follows it where it fits`
    out.set(c.key, { timeline: replayed.timeline, ...(note ? { note } : {}) })
  }
  return out
}
