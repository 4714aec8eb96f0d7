/**
 * A finding whose run cannot be shown (it never finished, or it does not replay): what is known of
 * it, so it is reported instead of lost.
 * @module
 */
import { DECISION_LOG_VERSION } from '../../sim/trace/decision-log.js'
import type { Program } from '../../sim/program/program.js'
import type { CampaignFailure } from './types.js'

/**
 * A failure whose run never finished (its worker was stopped by the watchdog): no log, so no
 * shrink and no replay; the rerun command reproduces it from the seed.
 */
export function lostFailure(key: string, message: string, program: Program, r: number, run: number, strategy: string, rerun: string): CampaignFailure {
  const none = { actors: 0, operations: 0, behaviours: 0, decisions: 0, preemptions: 0 }
  return {
    key, message, runSeed: r, run, strategy, alsoViolated: [], program, decisions: { v: DECISION_LOG_VERSION, strategy, decisions: [] },
    violations: [], hash: '', outcome: 'livelock', before: none, after: none, replayVerified: false, originalProgram: program,
    rerun, timeline: '(the run never finished: no timeline; rerun it with the command above)',
  }
}
