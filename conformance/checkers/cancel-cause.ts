/**
 * X-CANCEL 156, the first cause wins (§7.3, §9 109/156): a turn that ends `aborted` records the
 * cause of the first request that aborted it, whatever window that request landed in and whatever
 * cancels followed (from a listener, from an observer of the abort itself, or a later teardown).
 * Checked where the first request is a `cancel` of the agent made while the turn was open; when a
 * teardown came first the disposal may reach the agent later (through a parent's scope) or its
 * creation was rolled back after publication (the rollback aborts as disposed), and when
 * another request was made from inside the first one's inbox clear it may have aborted first, so
 * such turns are not judged.
 * @module
 */
import type { Analysis } from './analysis.js'
import { publicationBrokenOff } from './analysis.js'
import { dedupe } from './atomic.js'
import { R } from './declines.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import type { OpWindow } from './windows.js'
import { abortRequests, teardownRequest, windowsOf } from './windows.js'

/** Whether the operation invoked at entry `i` was performed by an abort observer (its mark says `abort:`). */
function fromAbortObserver(a: Analysis, i: number): boolean {
  const mark = a.entries[i - 1]
  return mark?.k === 'mark' && / abort:\S+ op$/.test(mark.label)
}

/**
 * Whether a followup or steer of `id` ran inside `request` (between its invocation and its return)
 * after its inbox clear emitted something, and started the activity that opened the turn at `to`:
 * the agent did not go idle in between (an activity ends only after an await, so one that ended
 * was not the request's: the turn was opened by a later one, a latch replayed at that end, after
 * the request returned). Inside means invoked after the request and settled before it: inline
 * operations are synchronous, and their outcomes are recorded in the order they returned. A wake
 * from an observer of an abort does not count: it ran in the request's abort step (the request
 * aborted the activity of the time, a maintenance its clear started, say), so the turn it opened
 * came after that abort.
 */
function wokenWithin(a: Analysis, world: number, id: string, request: OpWindow, to: number): boolean {
  const from = request.invoke.i
  const returned = request.outcome?.i ?? Number.POSITIVE_INFINITY
  return windowsOf(a).some((w) => w.world === world && (w.spec.op === 'followup' || w.spec.op === 'steer') && w.spec.session === id && w.invoke.i > from && w.invoke.i < to &&
    w.outcome !== undefined && w.outcome.status !== 'fail' && w.outcome.i < returned && !fromAbortObserver(a, w.invoke.i) &&
    clearedBefore(a, world, id, from, w.invoke.i) && !wentIdle(a, world, id, w.invoke.i, to))
}

/**
 * Whether the inbox of `id` was cleared between entries `from` and `to` (a discard, or its durable
 * splice): a clear that removed nothing emits nothing, so no listener can have run inside it.
 */
function clearedBefore(a: Analysis, world: number, id: string, from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) {
    const e = a.entries[i]
    if (e?.world !== world) continue
    if (e.k === 'event' && e.name === 'agent/inbox/discarded' && e.id === id) return true
    if (e.k === 'append' && e.id === id && e.type === 'agent/inbox/spliced' && (e.data as { outcome?: unknown } | null)?.outcome === 'canceled') return true
  }
  return false
}

function wentIdle(a: Analysis, world: number, id: string, from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) {
    const e = a.entries[i]
    if (e?.k === 'event' && e.name === 'agent/status' && e.world === world && e.id === id && !e.stale && e.detail === 'idle') return true
  }
  return false
}

/** Check that an aborted turn records the first requested cause. */
export function checkCancelCause(a: Analysis): Violation[] {
  const out: Violation[] = []
  const d = a.declines
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
      // A request still running when the turn opened (a cancel whose inbox clear woke the agent,
      // through a listener of what the clear emits, however deep) aborts it after the clear: it
      // came first. Without a wake inside it, the request returned before the turn opened (its
      // outcome may still be recorded after the turn/start when it was made from inside a
      // dispatch), and it aborted nothing of this turn.
      const pending = abortRequests(a, life, life.sessionCreated.i, opened.i).filter((r) =>
        (r.window.outcome === undefined || r.window.outcome.i > opened.i) && wokenWithin(a, life.world, life.id, r.window, opened.i))
      const requests = [...pending, ...abortRequests(a, life, opened.i, e.i)]
      const first = requests[0]
      if (!first || first.teardown) {
        d.declined(156, R.teardownReach)
        continue
      }
      if (first.failed) {
        d.declined(156, R.cancelThrew)
        continue
      }
      // A cancel clears the inbox before it aborts (§7.3): one made from inside that clear's
      // dispatches (a discard, a splice observer) may abort first. Only those made from an
      // observer of the abort itself certainly come after it.
      const until = first.window.outcome?.i ?? e.i
      if (requests.some((r) => r !== first && r.window.invoke.i < until && !fromAbortObserver(a, r.window.invoke.i))) {
        d.declined(156, R.requestSpan)
        continue
      }
      // A teardown requested before it (even before the turn opened) may reach the agent later.
      const torn = teardownRequest(a, life, e.i)
      if (torn && torn.invoke.i < first.window.invoke.i) {
        d.declined(156, R.teardownReach)
        continue
      }
      // A creation that fails after publication rolls the agent back (§3.5), aborting it as
      // disposed from a point the trace does not mark (a throwing creation listener, a failing
      // commit): a cancel made before the creation's failure may come second.
      const creation = life.tx?.outcome
      if (creation?.status === 'fail' && first.window.invoke.i < creation.i) {
        d.declined(156, R.rollbackStart)
        continue
      }
      // Likewise a publication broken off before agent/session-start, whether or not its creation settled.
      if (publicationBrokenOff(life)) {
        d.declined(156, R.rollbackStart)
        continue
      }
      d.judged(156)
      const recorded = data.reason.reason?.kind
      if (recorded === first.cause) continue
      out.push(violation('X-CANCEL', 156, `"${life.id}": turn ${String(data.turn)} ended aborted with cause ${JSON.stringify(recorded)}, but the first request to abort it was cancel(${first.cause}) (${first.window.invoke.actor} ${first.window.invoke.what}); the first cause wins`, e))
    }
  }
  return dedupe(out)
}
