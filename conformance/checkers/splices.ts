/**
 * The order and cause of the inbox's own splices:
 * - `clear()` cancels next-step before next-turn (§6.4; §9 121);
 * - a claim drains next-step before it takes the next-turn item (§6.4; §9 126);
 * - a `canceled` splice has a cause: a cancel or `inbox.remove` on that agent, its teardown, or
 *   the rollback of its creation; a pre-step rejection drops only the claimed batch (§9 163, 165).
 * @module
 */
import type { TraceEntry } from '../../sim/trace/trace.js'
import type { Analysis, Life } from './analysis.js'
import { keyOf } from './analysis.js'
import { dedupe } from './atomic.js'
import { R } from './declines.js'
import { rollbackBegan } from './facts.js'
import type { SplicePayload } from './projection.js'
import { isCanceled, isClaim, walkProjections } from './projection.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import { openAt, openOn, teardownRequest, windowsOf } from './windows.js'
import type { OpWindow } from './windows.js'

type Append = Extract<TraceEntry, { k: 'append' }>

/** Operations whose effects may legitimately cancel another agent's pending items (teardown triggers). */
const TEARDOWN_OPS = new Set(['dispose', 'unloadOwner', 'unloadFactory', 'shutdown', 'restart', 'abortSignal'])

/** The lifecycle of `id` in `world` live at entry `i`. */
function lifeAt(a: Analysis, world: number, id: string, i: number): Life | undefined {
  return a.lives.find((l) => l.world === world && l.id === id && l.sessionCreated.i < i && (!l.sessionDisposed || l.sessionDisposed.i > i))
}

/** Whether a teardown-kind operation is aimed at `life`'s agent: its id, its owner, its creation signal, or the whole process. */
function aimedAt(w: OpWindow, life: Life): boolean {
  const s = w.spec
  const spec = life.tx?.spec
  return (s.op === 'dispose' && s.session === life.id) || (s.op === 'unloadOwner' && s.owner === life.tx?.owner) ||
    (s.op === 'abortSignal' && spec !== undefined && 'signal' in spec && spec.signal === s.signal) ||
    s.op === 'unloadFactory' || s.op === 'shutdown' || s.op === 'restart'
}

/** Check splice order and causes. */
export function checkSplices(a: Analysis): Violation[] {
  const out: Violation[] = []
  const d = a.declines
  const previous = new Map<string, { entry: Append; splice: SplicePayload; whole: boolean }>()
  // (the same, across invokes: a pair an invoke split would have been judged as one clear)
  const across = new Map<string, { entry: Append; splice: SplicePayload; whole: boolean }>()
  const windows = windowsOf(a)
  walkProjections(a, (e, projections) => {
    if (e.k === 'invoke') {
      // An operation between two splices makes them two causes, not one clear() or one claim.
      previous.clear()
      return
    }
    if (e.k !== 'append') return
    const key = keyOf(e.world, e.id)
    if (e.type !== 'agent/inbox/spliced') {
      previous.delete(key)
      across.delete(key)
      return
    }
    const s = e.data as SplicePayload
    const list = projections.get(e.world, e.id)[s?.target] ?? []
    const whole = s?.start === 0 && s.removedCount === list.length
    const before = previous.get(key)
    const split = across.get(key)
    previous.set(key, { entry: e, splice: s, whole })
    across.set(key, { entry: e, splice: s, whole })
    const reversed = (x: { entry: Append; splice: SplicePayload; whole: boolean } | undefined): boolean =>
      x !== undefined && x.entry.d === e.d && x.splice.target === 'next-turn' && s?.target === 'next-step' && isCanceled(x.splice) && isCanceled(s) && x.whole && whole
    if (s && isCanceled(s) && whole) {
      if (!before && reversed(split)) d.declined(121, R.spliceCause)
      else if (!reversed(before)) d.judged(121)
    }
    if (before && before.entry.d === e.d && before.splice.target === 'next-turn' && s?.target === 'next-step') {
      // (a remove is one splice of its own: a next-turn removal then a clear's next-step one are two operations)
      const removing = (x: Append): boolean => openOn(a, x.world, x.id, x.i, ['remove']).length > 0
      // Two clears in flight (a teardown requested from a discard listener of a cancel's clear) each
      // keep the order, but the second one's next-step splice may follow the first one's next-turn.
      // (open at either splice: a cancel's outcome may be recorded between them)
      const clearers = (i: number): OpWindow[] => [...openOn(a, e.world, e.id, i, ['cancel']), ...windows.filter((w) => w.world === e.world && openAt(w, i) && TEARDOWN_OPS.has(w.spec.op) && (w.spec.op !== 'dispose' || w.spec.session === e.id))]
      // (a creation that fails after publication rolls back, clearing the inbox too: a clearer the
      // trace marks only by the creation's failure after it)
      const creation = lifeAt(a, e.world, e.id, e.i)?.tx?.outcome
      const rollingBack = creation?.status === 'fail' && creation.i > e.i ? 1 : 0
      const clearing = new Set([...clearers(before.entry.i), ...clearers(e.i)]).size + rollingBack
      if (reversed(before)) {
        if (removing(before.entry) || removing(e)) d.declined(121, R.spliceCause)
        else if (clearing >= 2) d.declined(121, rollingBack ? R.rollbackStart : R.spliceCause)
        else d.judged(121)
      }
      if (isCanceled(before.splice) && isCanceled(s) && before.whole && whole && !removing(before.entry) && !removing(e) && clearing < 2) {
        out.push(violation('AGENT-INBOX-TEST', 121, `"${e.id}" seq ${e.seq}: clear() canceled next-turn before next-step (next-step comes first)`, e))
      }
      if (isClaim(before.splice) && isClaim(s)) {
        out.push(violation('AGENT-INBOX-TEST', 126, `"${e.id}" seq ${e.seq}: a claim took the next-turn item before draining next-step`, e))
      }
    }
    if (!s || !isCanceled(s)) return
    const life = lifeAt(a, e.world, e.id, e.i)
    if (!life) return
    const end = life.appends.find((x) => x.i > e.i && x.type === 'turn/end')
    const blocked = (end?.data as { reason?: { kind?: string } } | undefined)?.reason?.kind === 'blocked'
    const clause = blocked ? 165 : 163
    const causes = openOn(a, e.world, e.id, e.i, ['cancel', 'remove'])
    if (causes.length > 0) {
      // (a keepInbox cancel clears nothing: with only those open, which operation appended it is not known)
      if (causes.every((w) => w.spec.op === 'cancel' && w.spec.keepInbox === true)) d.declined(clause, R.spliceCause)
      else d.judged(clause)
      return
    }
    const tearing = windows.filter((w) => w.world === e.world && w.invoke.i > life.sessionCreated.i && w.invoke.i < e.i && TEARDOWN_OPS.has(w.spec.op))
    // (a teardown aimed at this agent is its cause)
    if (tearing.some((w) => aimedAt(w, life))) {
      d.judged(clause)
      return
    }
    // (a creation that failed, or never settled because its process crashed or the run ended, may
    // have been rolling back: a rollback's clear is its own cause, from the injected throw that
    // began it on, if the facts show one)
    if (life.tx?.outcome?.status === 'fail' || (life.tx && !life.tx.outcome)) {
      const began = rollbackBegan(a.facts, life)
      if (began !== undefined && began <= e.i) d.judged(clause)
      else d.declined(clause, a.facts.present ? R.rollbackStart : R.noFacts)
      return
    }
    // (a teardown aimed elsewhere reaches this agent only through a parent: judged below)
    // A child agent (created through a parent's ctx) is torn down with its parent, even by a request
    // made before the child existed (§5.1: the parent's teardown disposes its scope and children).
    if (life.tx?.owner?.startsWith('agent:') && teardownRequest(a, life, e.i)) {
      d.declined(clause, R.teardownReach)
      return
    }
    // ... or by its parent's rollback (a parent whose creation failed after publication).
    const parent = life.tx?.owner?.startsWith('agent:') ? lifeAt(a, e.world, life.tx.owner.slice('agent:'.length), life.sessionCreated.i) : undefined
    if (parent && (parent.tx?.outcome?.status === 'fail' || (parent.tx && !parent.tx.outcome))) {
      d.declined(clause, R.rollbackStart)
      return
    }
    d.judged(clause)
    out.push(violation('X-INPUT', blocked ? 165 : 163, `"${e.id}" seq ${e.seq}: ${s.target} items canceled with no cancel, remove or teardown asking for it${blocked ? ' (a pre-step rejection drops only the claimed batch)' : ''}`, e))
  })
  return dedupe(out)
}
