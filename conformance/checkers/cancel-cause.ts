/**
 * X-CANCEL 156, the first cause wins (§7.3, §9 109/156): a turn that ends `aborted` records the
 * cause of the first request that aborted it, whatever window that request landed in and whatever
 * cancels followed (from a listener, from an observer of the abort itself, or a later teardown).
 * Checked where the first request is a `cancel` of the agent made while the turn was open; when a
 * teardown came first the disposal may reach the agent later (through a parent's scope), so the
 * turn is not judged.
 * @module
 */
import type { Analysis } from './analysis.js'
import { dedupe } from './atomic.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import { abortRequests } from './windows.js'

/** Check that an aborted turn records the first requested cause. */
export function checkCancelCause(a: Analysis): Violation[] {
  const out: Violation[] = []
  for (const life of a.lives) {
    let start: (typeof life.appends)[number] | undefined
    for (const e of life.appends) {
      if (e.type === 'turn/start') start = e
      if (e.type !== 'turn/end' || !start) continue
      const data = e.data as { turn?: unknown; reason?: { kind?: unknown; reason?: { kind?: unknown } | null } | null } | null
      const opened = start
      start = undefined
      if (data?.reason?.kind !== 'aborted') continue
      // A cancel that threw may or may not have aborted: the turn is not judged past one.
      const first = abortRequests(a, life, opened.i, e.i)[0]
      if (!first || first.teardown || first.failed) continue
      const recorded = data.reason.reason?.kind
      if (recorded === first.cause) continue
      out.push(violation('X-CANCEL', 156, `"${life.id}": turn ${String(data.turn)} ended aborted with cause ${JSON.stringify(recorded)}, but the first request to abort it was cancel(${first.cause}) (${first.window.invoke.actor} ${first.window.invoke.what}); the first cause wins`, e))
    }
  }
  return dedupe(out)
}
