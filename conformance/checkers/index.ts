/**
 * Checkers: pure functions from a trace to violations, one module per clause group
 * (design.md concept 5). `checkRun` runs them all.
 * @module
 */
import type { RunOutcome } from '../../sim/engine/index.js'
import type { Program } from '../../sim/program/program.js'
import type { Trace } from '../../sim/trace/trace.js'
import { analyse } from './analysis.js'
import { checkAtomic } from './atomic.js'
import { checkCancelCause } from './cancel-cause.js'
import { checkCompletedTurn } from './completed-turn.js'
import { checkCreation } from './creation.js'
import { checkFlush } from './flush.js'
import { checkContainedEmits } from './contained-emits.js'
import { checkIdlePending } from './idle-pending.js'
import { checkInbox } from './inbox.js'
import { checkKitLevel } from './kit-level.js'
import { checkLedger } from './ledger.js'
import { checkLiveness } from './liveness.js'
import { checkPreparations } from './preparations.js'
import { checkRegistry } from './registry.js'
import { checkRuntime } from './runtime.js'
import { checkSplices } from './splices.js'
import { checkStatusActivity } from './status-activity.js'
import { checkStoredLog } from './stored-log.js'
import { checkTeardown } from './teardown.js'
import { checkTeardownCompletes } from './teardown-completes.js'
import { checkTriggers } from './triggers.js'
import { checkTurnsClosed } from './turns-closed.js'
import type { Violation } from './violation.js'
import { checkWake } from './wake.js'
import type { Declines } from './declines.js'
import { NO_DECLINES } from './declines.js'

export type { Violation } from './violation.js'
export { CHECKED_CLAUSES } from './violation.js'
export { analyse } from './analysis.js'
export { DeclineCounts, DeclineTally, NO_DECLINES, REASONS, contractReason, describeDeclines, unjudged } from './declines.js'
export type { ClauseDeclines, ClauseTally, DeclineReason, Declines } from './declines.js'
export { clauseTallies } from './declines.js'

/**
 * Run every checker over one run; violations in trace order. `declines` hears what each checker
 * judged and declined (`declines.ts`); nothing is counted by default.
 */
export function checkRun(program: Program, trace: Trace, outcome: RunOutcome, declines: Declines = NO_DECLINES): Violation[] {
  const a = analyse(trace, program, declines)
  const all = [
    ...checkCreation(a), ...checkAtomic(a), ...checkRegistry(a), ...checkTeardown(a), ...checkInbox(a), ...checkRuntime(a),
    ...checkLedger(a), ...checkSplices(a), ...checkWake(a), ...checkTriggers(a), ...checkKitLevel(a), ...checkLiveness(a, outcome),
    ...checkTurnsClosed(a), ...checkIdlePending(a), ...checkCancelCause(a), ...checkCompletedTurn(a),
    ...checkStatusActivity(a), ...checkStoredLog(a), ...checkTeardownCompletes(a), ...checkPreparations(a, outcome), ...checkFlush(a),
    ...checkContainedEmits(a),
  ]
  return all.sort((x, y) => (x.entry < 0 ? Number.MAX_SAFE_INTEGER : x.entry) - (y.entry < 0 ? Number.MAX_SAFE_INTEGER : y.entry))
}

