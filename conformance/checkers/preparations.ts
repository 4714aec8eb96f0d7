/**
 * AGENT-CREATE-RESUME 50 (§1.4, §3.1 R3): every persistence preparation that reached the factory is
 * released — after its publication or rollback, and a late one (arriving after the caller gave up)
 * at once. Judged in programs with `env.preparations`, on a process that honours the `prepared` and
 * `afterLoad` hooks (capability `preparations`): the world marks each preparation handed out, when
 * it arrived, and when it was released. Only a run that ended (no deadlock) is judged, not a process
 * that crashed (a dead process releases nothing), and not an id with a resume that never settled
 * (its setup may hang by the program's choice, holding its preparation).
 * @module
 */
import { PREPARATION_MARK } from '../../sim/world/surface-marks.js'
import type { RunOutcome } from '../../sim/engine/index.js'
import type { Analysis } from './analysis.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import { windowsOf } from './windows.js'
import { R } from './declines.js'

const MARK = new RegExp(`^${PREPARATION_MARK}(.+)#(\\d+) (arrived|released)$`)

/** Check that every preparation that arrived was released by the end of the run. */
export function checkPreparations(a: Analysis, outcome: RunOutcome): Violation[] {
  if (outcome.kind !== 'ok' || a.program.env?.preparations === undefined) return []
  const crashed = new Set<number>()
  const arrived = new Map<string, { i: number; d: number; id: string; n: string }>()
  const released = new Set<string>()
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    if (e.k === 'outcome' && e.status === 'ok' && /^crash( |$)/.test(e.what)) crashed.add(e.world)
    if (e.k !== 'mark') continue
    const m = MARK.exec(e.label)
    if (!m) continue
    const key = `${e.world}/${m[1]}#${m[2]}`
    if (m[3] === 'arrived') arrived.set(key, { i: e.i, d: e.d, id: m[1]!, n: m[2]! })
    else released.add(key)
  }
  // A resume of the id that never settled may still hold its preparation (a setup that hangs by
  // the program's choice, inside an operation no actor waits on).
  const unsettled = new Set(windowsOf(a).filter((w) => w.spec.op === 'resume' && w.outcome === undefined).map((w) => `${w.world}/${'session' in w.spec ? w.spec.session : ''}`))
  const out: Violation[] = []
  for (const [key, at] of arrived) {
    const world = Number(key.slice(0, key.indexOf('/')))
    if (crashed.has(world)) { a.declines.declined(50, R.preparationCrashed); continue }
    if (!released.has(key) && unsettled.has(`${world}/${at.id}`)) { a.declines.declined(50, R.preparationHeld); continue }
    a.declines.judged(50)
    if (released.has(key)) continue
    out.push(violation('AGENT-CREATE-RESUME', 50, `"${at.id}": persistence preparation #${at.n} reached the factory and was never released (it must be disposed after publication or rollback, and at once when it arrives after the caller gave up)`, at))
  }
  return out
}
