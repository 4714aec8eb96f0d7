/**
 * §1.9 contained emits: every listener of `session/event`, `session/disposed`, `agent/disposed`,
 * `agent/status`, `agent/inbox/*` and `agent/error` is invoked, and a sync throw or async rejection
 * is logged, **never propagated**. Only the veto edges (`session/created`, `agent/created`) may
 * turn a listener's throw into its publisher's failure; `session/flush` (parallel) rejects with it.
 * Judged on every operation outcome: an operation that failed with the fault a listener of a
 * contained emit threw or rejected with carried a notification's fault into the code that caused it
 * (a cancel that throws before it aborts, a followup that throws after committing, a dispose that
 * rejects). The world's injected faults name their listener (`listener:<event> (<origin>) threw`),
 * so the text decides; nothing is declined. Reported under the §9 clause that states the
 * containment for the event (23, 112, 125, 168, 172). `agent/session-start` listeners that fail a
 * creation are judged by `liveness.ts` with the creation rejections.
 * @module
 */
import type { Analysis } from './analysis.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import { windowsOf } from './windows.js'

/** The contained emits and the §9 clause that states each one's containment. */
const CONTAINED: ReadonlyMap<string, number> = new Map([
  ['agent/status', 23],
  ['agent/disposed', 112],
  ['session/disposed', 112],
  ['agent/inbox/inserted', 125],
  ['agent/inbox/discarded', 125],
  ['agent/inbox/claimed', 125],
  ['agent/error', 168],
  ['session/event', 172],
])

const LISTENER_FAULT = /listener:([a-z/-]+) \([^)]*\) (threw|rejected)/

/** Check that no operation failed with a contained emit's listener fault. */
export function checkContainedEmits(a: Analysis): Violation[] {
  const out: Violation[] = []
  for (const w of windowsOf(a)) {
    if (w.outcome?.status !== 'fail') continue
    const m = LISTENER_FAULT.exec(w.outcome.detail)
    const clause = m ? CONTAINED.get(m[1]!) : undefined
    if (clause === undefined) continue
    out.push(violation('X-EMIT', clause, `${w.spec.op}${'session' in w.spec ? ` "${w.spec.session}"` : ''} failed with the fault its ${m![1]} listener threw (${w.outcome.detail}): ${m![1]} is a contained emit, whose listener faults are logged and never propagate to the code that caused it (§1.9)`, w.outcome))
  }
  return out
}
