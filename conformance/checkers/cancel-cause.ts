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
import { abortsCreation, publicationBrokenOff } from './analysis.js'
import { dedupe } from './atomic.js'
import { R } from './declines.js'
import type { DeclineReason } from './declines.js'
import type { AbortFact } from './facts.js'
import { factInSpan, rollbackBegan } from './facts.js'
import type { Life } from './analysis.js'
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
 * came after that abort. A send that did nothing (an `info` outcome: a kept handle that held no
 * agent) woke nothing.
 */
function wokenWithin(a: Analysis, world: number, id: string, request: OpWindow, to: number): boolean {
  const from = request.invoke.i
  const returned = request.outcome?.i ?? Number.POSITIVE_INFINITY
  return windowsOf(a).some((w) => w.world === world && (w.spec.op === 'followup' || w.spec.op === 'steer') && w.spec.session === id && w.invoke.i > from && w.invoke.i < to &&
    w.outcome !== undefined && w.outcome.status === 'ok' && w.outcome.i < returned && !fromAbortObserver(a, w.invoke.i) &&
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

/** The cause kinds a cancel may carry (§1.5): an abort with another reason is not a cause the turn could record. */
const CAUSE_KINDS: ReadonlySet<string> = new Set(['user', 'parent', 'hook', 'disposed'])

/**
 * The first abort of the activity signal of a turn of `life` opened at entry `from` and ended at
 * `to`: a signal of its model requests, `pre-step` or `turn-stopping` payloads, aborted while the
 * turn was open, with a cause's reason. Undefined without facts, when the world was never handed
 * the turn's signal (a turn aborted before its first step), or when it had aborted before the world
 * saw it.
 */
function firstAbort(a: Analysis, life: Life, from: number, to: number): AbortFact | undefined {
  for (const f of a.facts.aborts) {
    if (f.at > to) break
    if (f.world !== life.world || f.id !== life.id || f.at <= from || f.source === 'maintenance') continue
    return f.before || !CAUSE_KINDS.has(f.kind) ? undefined : f
  }
  return undefined
}

/** The innermost cancel of `life`'s id whose synchronous part the fact at `index` was recorded in. */
function innermostCancel(a: Analysis, life: Life, index: number): { cause: string; what: string } | undefined {
  let found: { cause: string; what: string; start: number } | undefined
  for (const w of windowsOf(a)) {
    if (w.world !== life.world || w.spec.op !== 'cancel' || w.spec.session !== life.id) continue
    const span = a.facts.spans.get(w.invoke.i)
    if (!factInSpan(span, index) || (found && span!.factStart < found.start)) continue
    found = { cause: w.spec.cause ?? 'user', what: `${w.invoke.actor} ${w.invoke.what}`, start: span!.factStart }
  }
  // (a request nested inside it that tears the agent down aborts with its own cause)
  if (found && a.facts.spanList.some((s) => s.factStart > found!.start && factInSpan(s, index) && isTeardown(a, s.invoke))) return undefined
  return found
}

function isTeardown(a: Analysis, invoke: number): boolean {
  const e = a.entries[invoke]
  return e?.k === 'invoke' && ['dispose', 'unloadOwner', 'unloadFactory', 'shutdown', 'restart', 'abortSignal', 'crash'].includes(e.spec.op)
}

/** Whether the parent `life` was created through was rolled back (its creation failed after publishing, or its publication was broken off). */
function parentRolledBack(a: Analysis, life: Life, depth = 0): boolean {
  const owner = life.tx?.owner
  if (depth > 8 || !owner?.startsWith('agent:')) return false
  const parent = a.lives.find((p) => p.world === life.world && p.id === owner.slice('agent:'.length) && p.sessionCreated.i < life.sessionCreated.i && (!p.sessionDisposed || p.sessionDisposed.i > life.sessionCreated.i))
  if (!parent) return false
  return publicationBrokenOff(parent) || parent.tx?.outcome?.status === 'fail' || parentRolledBack(a, parent, depth + 1)
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
      const recorded = data.reason.reason?.kind
      // With facts: the first abort of the turn's activity signal says which cause came first.
      const abort = firstAbort(a, life, opened.i, e.i)
      if (abort !== undefined) {
        d.judged(156)
        if (recorded !== abort.kind) {
          out.push(violation('X-CANCEL', 156, `"${life.id}": turn ${String(data.turn)} ended aborted with cause ${JSON.stringify(recorded)}, but its activity was first aborted with cause ${JSON.stringify(abort.kind)}; the first cause wins`, e))
          continue
        }
        // ... and an abort made by a cancel's own synchronous part carries that cancel's cause.
        const by = innermostCancel(a, life, abort.index)
        if (by !== undefined && by.cause !== abort.kind) {
          out.push(violation('X-CANCEL', 156, `"${life.id}": turn ${String(data.turn)} was aborted with cause ${JSON.stringify(abort.kind)} by ${by.what}, which asked for ${JSON.stringify(by.cause)}`, e))
        }
        continue
      }
      // Without: every cause that may have come first, and why each is only possible.
      const possible = new Map<string, DeclineReason | undefined>()
      const maybe = (cause: string, why: DeclineReason): void => { if (!possible.has(cause)) possible.set(cause, why) }
      const first = requests[0]
      const torn = teardownRequest(a, life, e.i)
      const creation = life.tx?.outcome
      const rollback = publicationBrokenOff(life) || creation?.status === 'fail' || parentRolledBack(a, life)
      if (first && !first.teardown && !first.failed) {
        possible.set(first.cause, undefined)
        // A cancel clears the inbox before it aborts (§7.3): one made from inside that clear's
        // dispatches (a discard, a splice observer) may abort first. Only those made from an
        // observer of the abort itself certainly come after it.
        const until = first.window.outcome?.i ?? e.i
        for (const r of requests) if (r !== first && r.window.invoke.i < until && !fromAbortObserver(a, r.window.invoke.i)) maybe(r.cause, R.requestSpan)
        // A teardown requested before it (even before the turn opened) may reach the agent later.
        if (torn && torn.invoke.i < first.window.invoke.i) maybe('disposed', R.teardownReach)
        // A creation that fails after publication rolls the agent back (§3.5), aborting it as
        // disposed from a point the trace does not mark (a throwing creation listener, a failing
        // commit): a cancel made before the creation's failure may come second; likewise a
        // publication broken off before agent/session-start, whether or not its creation settled.
        // (with facts, a rollback that an injected throw began after the cancel came second)
        const began = rollbackBegan(a.facts, life)
        const rolled = (creation?.status === 'fail' && first.window.invoke.i < creation.i) || publicationBrokenOff(life)
        const abortedBefore = life.tx !== undefined && windowsOf(a).some((w) => w.invoke.i < first.window.invoke.i && w.invoke.i > life.tx!.invoke.i && abortsCreation(w.invoke, life.tx!))
        if ((rolled && (began === undefined || began < first.window.invoke.i || abortedBefore)) || parentRolledBack(a, life)) maybe('disposed', R.rollbackStart)
      } else if (first?.failed) {
        // A cancel that threw may or may not have aborted (§7.3 orders the clear first, and says
        // nothing of a cancel that throws): it, or whatever came next.
        for (const r of requests) maybe(r.cause, R.cancelThrew)
        if (torn || rollback || life.agentDisposed) maybe('disposed', R.cancelThrew)
      } else {
        // A teardown first, or no request: its disposed abort may reach the agent after a later cancel.
        if (first || torn || rollback || life.agentDisposed) maybe('disposed', rollback && !first && !torn ? R.rollbackStart : R.teardownReach)
        for (const r of requests) if (!r.teardown) maybe(r.cause, R.teardownReach)
      }
      if (possible.size === 0) {
        // (nothing the trace shows could have aborted it)
        d.declined(156, R.teardownReach)
        continue
      }
      if (typeof recorded !== 'string' || !possible.has(recorded)) {
        d.judged(156)
        const which = [...possible.keys()].map((c) => JSON.stringify(c)).join(' or ')
        out.push(violation('X-CANCEL', 156, first && !first.teardown && !first.failed && possible.size === 1
          ? `"${life.id}": turn ${String(data.turn)} ended aborted with cause ${JSON.stringify(recorded)}, but the first request to abort it was cancel(${first.cause}) (${first.window.invoke.actor} ${first.window.invoke.what}); the first cause wins`
          : `"${life.id}": turn ${String(data.turn)} ended aborted with cause ${JSON.stringify(recorded)}, but no request that may have aborted it first asked for it (the first cause was ${which})`, e))
        continue
      }
      if (possible.size === 1) {
        d.judged(156)
        continue
      }
      // (the recorded cause is one of several that may have come first)
      const reasons = [...possible.values()].filter((r): r is DeclineReason => r !== undefined)
      d.declined(156, reasons.find((r) => !r.key.startsWith('§')) ?? reasons[0]!)
    }
  }
  return dedupe(out)
}
