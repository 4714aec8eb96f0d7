/**
 * X-CANCEL 157, cancellation windows end at the stop check (§10.1, §7.3): a turn whose last step
 * completed and passed its stop check is recorded `completed`; a cancel that comes later only
 * touches later work. The stop check runs right after the `agent/turn-stopping` dispatch: when no
 * listener of that dispatch has an asynchronous tail, it runs in the same scheduling step as the
 * dispatch began. So a turn that reached `agent/turn-stopping` with no further step and ends
 * `aborted` although every request that could abort it came in a later step was aborted after its
 * stop check.
 * @module
 */
import type { Analysis } from './analysis.js'
import { entriesOf } from './analysis.js'
import { isClaim } from './projection.js'
import type { SplicePayload } from './projection.js'
import { dedupe } from './atomic.js'
import { R } from './declines.js'
import { invokedInDispatch, spansOfFact } from './facts.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import { abortRequests, teardownRequest } from './windows.js'

/** A listener of `agent/turn-stopping` whose action left an asynchronous tail (a scheduling point). */
const ASYNC_TAIL = /listener:agent\/turn-stopping (slow|reject|wait)$/

/** Whether the fact at `index` was recorded inside an operation made from the dispatch at entry `dispatch`. */
function madeInDispatch(a: Analysis, dispatch: number, index: number): boolean {
  return spansOfFact(a.facts, index).some((span) => a.facts.from.get(span.invoke)?.ref === dispatch)
}

/** Check that a turn past its stop check is not recorded aborted. */
export function checkCompletedTurn(a: Analysis): Violation[] {
  const out: Violation[] = []
  const stopping = entriesOf(a, 'event').filter((e) => e.name === 'agent/turn-stopping' && !e.stale)
  if (stopping.length === 0) return out
  for (const life of a.lives) {
    let start: (typeof life.appends)[number] | undefined
    for (const e of life.appends) {
      if (e.type === 'turn/start') start = e
      if (e.type !== 'turn/end' || !start) continue
      const opened = start
      start = undefined
      const data = e.data as { turn?: unknown; reason?: { kind?: unknown } | null } | null
      if (data?.reason?.kind !== 'aborted') continue
      const stop = stopping.filter((s) => s.world === life.world && s.id === life.id && s.detail === `turn ${String(data.turn)}` && s.i > opened.i && s.i < e.i).at(-1)
      if (!stop) continue
      // Another step after it (steering sent during the dispatch: its claim, its step/start), or a
      // listener tail the stop check waited for: the turn was still cancellable.
      if (life.appends.some((x) => x.i > stop.i && x.i < e.i && (x.type === 'step/start' || x.type === 'user/message' || (x.type === 'agent/inbox/spliced' && isClaim(x.data as SplicePayload))))) continue
      // A listener tail the stop check waited for: with facts, the check ran after the last tail
      // of its dispatch ended (the cut below); a tail still running at the turn's end means the stop
      // check had not run (the turn was still cancellable).
      let cut: { readonly i: number; readonly d: number } = stop
      if (a.entries.slice(stop.i, e.i).some((x) => x.k === 'mark' && ASYNC_TAIL.test(x.label))) {
        if (!a.facts.present) {
          a.declines.declined(157, R.listenerTail)
          continue
        }
        const tails = a.facts.tails.filter((t) => t.world === life.world && t.dispatch === stop.i && t.note === 'listener:agent/turn-stopping' && t.at <= e.i)
        const ends = tails.filter((t) => !t.began)
        if (ends.length < tails.length - ends.length) {
          a.declines.judged(157)
          continue
        }
        const last = ends.at(-1)
        if (last) cut = { i: last.at, d: last.d }
      }
      // With facts: where the turn's activity signal was first aborted (the world holds the
      // turn-stopping payload's signal): before the dispatch, or inside it (a listener's request),
      // is before the stop check; in a later step, after it; in the same step after the dispatch,
      // the stop check's own place decides, which nothing of the contract marks (§10.1).
      const abort = a.facts.aborts.find((f) => f.world === life.world && f.id === life.id && f.at > opened.i && f.at <= e.i && f.source !== 'maintenance')
      // (a signal already aborted when its turn-stopping dispatch handed it over was aborted before)
      if (abort !== undefined && abort.before && abort.source === 'turn-stopping' && abort.at <= stop.i + 1) {
        a.declines.judged(157)
        continue
      }
      if (abort !== undefined && !abort.before) {
        if (abort.at <= cut.i || abort.d < cut.d || madeInDispatch(a, stop.i, abort.index)) {
          a.declines.judged(157)
          continue
        }
        if (abort.d === cut.d) {
          a.declines.declined(157, R.stopCheck)
          continue
        }
        a.declines.judged(157)
        out.push(violation('X-CANCEL', 157, `"${life.id}": turn ${String(data.turn)} passed its stop check (agent/turn-stopping at decision ${stop.d}, its stop check at decision ${cut.d}, no further step) yet ended aborted: its activity was aborted (${abort.kind}) at decision ${abort.d}`, e))
        continue
      }
      const requests = abortRequests(a, life, opened.i, e.i)
      // (no request: a teardown nobody asked for, or a parent's, reached it at a point not known)
      if (requests.length === 0) {
        a.declines.declined(157, R.teardownReach)
        continue
      }
      const head = requests[0]!.window.invoke
      if (head.d < cut.d || (a.facts.present && (head.i < cut.i || invokedInDispatch(a.facts, stop.i, head.i)))) {
        a.declines.judged(157)
        continue
      }
      // (in the stop's own step: before or after the stop check, which the trace does not mark)
      if (head.d === cut.d) {
        a.declines.declined(157, a.facts.present ? R.stopCheck : R.requestSpan)
        continue
      }
      // A teardown requested earlier (even before the turn opened) may have reached it before the stop check.
      const torn = teardownRequest(a, life, e.i)
      if (torn && torn.invoke.d <= cut.d) {
        if (torn.invoke.d === cut.d) a.declines.declined(157, R.teardownReach)
        else a.declines.judged(157)
        continue
      }
      a.declines.judged(157)
      const first = requests[0]!
      out.push(violation('X-CANCEL', 157, `"${life.id}": turn ${String(data.turn)} passed its stop check (agent/turn-stopping at decision ${stop.d}, its stop check at decision ${cut.d}, no further step) yet ended aborted by ${first.window.invoke.what} requested at decision ${first.window.invoke.d}`, e))
    }
  }
  return dedupe(out)
}
