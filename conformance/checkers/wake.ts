/**
 * Who may wake an agent, and when it is idle:
 * - an idle agent starts running only for a waking send (followup, steer) — never for quiet
 *   input (inject, queue; §7.2 step 5, §9 123) — or for a latched wake replayed at an activity's
 *   convergence while work is still pending (§7.2 "Latch replay"; §9 32, 147), which needs a waking
 *   send accepted during that activity: without one, work left by a driver-ending turn stays parked
 *   (§7.4; §9 147 after an aborted turn, 163 otherwise);
 * - `whenIdle()` does not resolve while a maintenance task it was called during still runs (§7.5; §9 31).
 * @module
 */
import { maintenanceMark } from '../../sim/operations/operations.js'
import type { TraceEntry } from '../../sim/trace/trace.js'
import type { Analysis } from './analysis.js'
import { entriesOf } from './analysis.js'
import { dedupe } from './atomic.js'
import { R } from './declines.js'
import { walkProjections } from './projection.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import { openOn, sessionOf, windowsOf } from './windows.js'

/** Whether a waking send of `id` was accepted during its last activity before entry `i` (after its last turn/start): a latch may be set. */
function latchedSince(a: Analysis, world: number, id: string, i: number): boolean {
  const turns = entriesOf(a, 'append').filter((x) => x.world === world && x.id === id && x.type === 'turn/start' && x.i < i)
  const since = turns.at(-1)?.i ?? -1
  return windowsOf(a).some((w) => w.world === world && (w.spec.op === 'followup' || w.spec.op === 'steer') && 'session' in w.spec && w.spec.session === id && w.invoke.i > since && w.invoke.i < i && w.outcome?.status === 'ok')
}

/** The reason kind of the agent's last `turn/end` before entry `i`, if any. */
function lastTurnEnd(a: Analysis, world: number, id: string, i: number): string | undefined {
  const end = entriesOf(a, 'append').filter((x) => x.world === world && x.id === id && x.type === 'turn/end' && x.i < i).at(-1)
  if (!end) return undefined
  const kind = (end.data as { reason?: { kind?: unknown } | null } | null)?.reason?.kind
  return typeof kind === 'string' ? kind : undefined
}

/** Check wake legality and whenIdle against maintenance. */
export function checkWake(a: Analysis): Violation[] {
  const out: Violation[] = []
  // Messages of waking sends (a latched one may be replayed while a quiet send is still open).
  const waking = new Set<string>()
  for (const w of windowsOf(a)) {
    if ((w.spec.op === 'followup' || w.spec.op === 'steer') && w.outcome?.status === 'ok' && w.outcome.detail) waking.add(`${w.world}/${w.spec.session}/${w.outcome.detail}`)
  }
  const lastStatus = new Map<string, Extract<TraceEntry, { k: 'event' }>>()
  walkProjections(a, (e, projections) => {
    if (e.k !== 'event' || e.name !== 'agent/status' || e.stale) return
    const previous = lastStatus.get(`${e.world}/${e.id}`)
    lastStatus.set(`${e.world}/${e.id}`, e)
    if (e.detail !== 'running') return
    if (openOn(a, e.world, e.id, e.i, ['followup', 'steer']).length > 0) return
    const quiet = openOn(a, e.world, e.id, e.i, ['inject', 'queue'])
    // A latch replayed at a driver's convergence (idle, then running again in the same step) with
    // latched waking input still pending: a quiet send from an idle listener did not wake it.
    // (also when the latched message itself was removed meanwhile: the latch stays set and replays
    // on whatever is pending, a quiet send included)
    const pending = projections.pending(e.world, e.id)
    const replay = previous?.detail === 'idle' && previous.d === e.d && (pending.some((id) => waking.has(`${e.world}/${e.id}/${id}`)) || (pending.length > 0 && latchedSince(a, e.world, e.id, e.i)))
    if (quiet.length > 0) {
      // (a latch replayed at a convergence, or the quiet send's own wake: which one emitted it is not known)
      if (replay) a.declines.declined(123, R.wakeSpan)
      else a.declines.judged(123)
    }
    if (quiet.length > 0 && !replay) {
      out.push(violation('X-INPUT', 123, `"${e.id}": ${quiet[0]!.spec.op} (quiet input) woke the agent: status running with no waking send`, e))
      return
    }
    if (projections.pending(e.world, e.id).length === 0) {
      const maintenance = openOn(a, e.world, e.id, e.i, ['runMaintenance']).length > 0
      out.push(violation('X-INPUT', maintenance ? 32 : 147, `"${e.id}": status running with nothing pending and no waking send (a latched wake replayed after its message was removed)`, e))
      return
    }
    // Work is pending and no send is open: only a latch replayed at a convergence starts a driver
    // now, and a latch is set only by a waking send accepted during the activity that converges (one
    // after the last turn/start: an aborted turn's, or a maintenance's). Without one, the driver the
    // last turn ended left the work parked (§7.4: an aborted, failed, blocked or empty turn ends the
    // driver; remaining work parks unless latched).
    if (quiet.length === 0) {
      const ended = lastTurnEnd(a, e.world, e.id, e.i)
      const clause = ended === 'aborted' ? 147 : 163
      a.declines.judged(clause)
      if (!latchedSince(a, e.world, e.id, e.i)) {
        out.push(violation(ended === 'aborted' ? 'X-CANCEL' : 'X-INPUT', clause, `"${e.id}": status running with no waking send since the last turn began${ended ? ` (it ended ${ended})` : ''}: the pending work should have stayed parked until a wake (§7.4)`, e))
      }
    }
  })
  const marks = entriesOf(a, 'mark').filter((e) => e.label.includes('@maintenance:'))
  const windows = windowsOf(a)
  for (const idle of windows) {
    if (idle.spec.op !== 'whenIdle' || idle.outcome?.status !== 'ok') continue
    const session = idle.spec.session
    for (const m of windows) {
      if (m.spec.op !== 'runMaintenance' || m.world !== idle.world || sessionOf(m.spec) !== session || m.invoke.i > idle.invoke.i) continue
      const start = marks.find((x) => x.i > m.invoke.i && x.label === maintenanceMark(m.invoke.actor, m.invoke.what, 'start'))
      if (!start || start.i > idle.invoke.i) continue
      const end = marks.find((x) => x.i > start.i && x.label === maintenanceMark(m.invoke.actor, m.invoke.what, 'end'))
      if (end && end.i < idle.outcome.i) {
        a.declines.judged(31)
        continue
      }
      // The agent that ran the maintenance is gone when whenIdle() is called (rolled back or torn
      // down; the id may now name a stub or a new agent): that whenIdle() is another agent's.
      const ran = a.lives.find((l) => l.world === m.world && l.id === session && l.sessionCreated.i < start.i && (!l.sessionDisposed || l.sessionDisposed.i > start.i))
      if (ran?.sessionDisposed && ran.sessionDisposed.i < idle.invoke.i) {
        a.declines.declined(31, R.calledAgent)
        continue
      }
      a.declines.judged(31)
      out.push(violation('X-INPUT', 31, `"${session}": whenIdle() resolved while the maintenance task it was called during was still running`, idle.outcome))
    }
  }
  return dedupe(out)
}
