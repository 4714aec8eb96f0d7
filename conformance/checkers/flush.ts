/**
 * AGENT-REGISTRY-TEST 87, `sessions.flush` (§1.3): awaited `session/flush` listeners, in parallel;
 * every listener settles before it settles, and the first failure is what it rejects with. Judged
 * for a program's `flush` operations from the listener marks of its dispatch (the world observes
 * each `session/flush` dispatch first, so the marks after that event, in the same step, are its
 * listeners'): a flush that resolved although a listener threw or rejected, one that settled while
 * a listener still waited on a gate not yet opened, one that rejected though no listener failed.
 * @module
 */
import { GATE_MARK } from '../../sim/world/surface-marks.js'
import type { Analysis } from './analysis.js'
import { entriesOf } from './analysis.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import { windowsOf } from './windows.js'
import { R } from './declines.js'

const FAILED = / listener:session\/flush (throw|reject)$/
const SLOW = / listener:session\/flush slow$/
const WAITS = new RegExp(`^${GATE_MARK}(.*?) wait listener:session/flush$`)

/** Check every flush the program made against the listeners its dispatch ran. */
export function checkFlush(a: Analysis): Violation[] {
  const out: Violation[] = []
  const opened = new Map<string, number>()
  for (const e of entriesOf(a, 'mark')) {
    if (e.label.startsWith(GATE_MARK) && e.label.endsWith(' open')) {
      const gate = e.label.slice(GATE_MARK.length, -' open'.length)
      if (!opened.has(gate)) opened.set(gate, e.i)
    }
  }
  for (const w of windowsOf(a)) {
    if (w.spec.op !== 'flush' || !w.outcome || (w.outcome.status !== 'ok' && w.outcome.status !== 'fail')) continue
    const { invoke, outcome } = w
    const id = w.spec.session
    const dispatch = a.entries.find((e) => e.k === 'event' && e.name === 'session/flush' && e.id === id && e.world === w.world && e.i > invoke.i && e.i < outcome.i && e.d === invoke.d)
    // (another flush of the id open at the same time, nested in it or around it: a listener's marks
    // do not say which of the two dispatches called it, since both carry the same session)
    const overlapping = windowsOf(a).some((o) => o !== w && o.spec.op === 'flush' && o.spec.session === id && o.world === w.world && o.invoke.i < outcome.i && (o.outcome?.i ?? Number.POSITIVE_INFINITY) > invoke.i)
    if (!dispatch || overlapping) { a.declines.declined(87, R.flushDispatch); continue }
    let failed = 0
    let slow = false
    const waits: string[] = []
    for (let i = dispatch.i + 1; i < outcome.i; i++) {
      const e = a.entries[i]!
      if (e.d !== dispatch.d || (e.k === 'event' && e.name === 'session/flush')) break
      if (e.k !== 'mark') continue
      if (FAILED.test(e.label)) failed++
      if (SLOW.test(e.label)) slow = true
      const wait = WAITS.exec(e.label)
      if (wait) waits.push(wait[1]!)
    }
    // A slow tail: with facts, every tail of this dispatch ends before the flush settles (F10);
    // without them, whether the flush waited for it is not judged.
    if (slow && !a.facts.present) a.declines.declined(87, R.flushTail)
    else if (slow) {
      const tails = a.facts.tails.filter((t) => t.world === w.world && t.dispatch === dispatch.i && t.note === 'listener:session/flush')
      const ended = tails.filter((t) => !t.began && t.at <= outcome.i).length
      const began = tails.filter((t) => t.began).length
      if (ended < began) out.push(violation('AGENT-REGISTRY-TEST', 87, `"${id}": flush ${outcome.status === 'ok' ? 'resolved' : 'rejected'} while ${began - ended} of its session/flush listeners' asynchronous tails still ran (every listener settles first)`, outcome))
    }
    a.declines.judged(87)
    if (failed > 0 && outcome.status === 'ok') {
      out.push(violation('AGENT-REGISTRY-TEST', 87, `"${id}": flush resolved although ${failed} of its session/flush listeners failed (the first failure must reject it)`, outcome))
    }
    if (failed === 0 && outcome.status === 'fail') {
      out.push(violation('AGENT-REGISTRY-TEST', 87, `"${id}": flush of a live session rejected ("${outcome.detail}") though none of its session/flush listeners failed`, outcome))
    }
    for (const gate of waits) {
      const at = opened.get(gate)
      if (at === undefined || at > outcome.i) {
        out.push(violation('AGENT-REGISTRY-TEST', 87, `"${id}": flush ${outcome.status === 'ok' ? 'resolved' : 'rejected'} while a session/flush listener still waited on gate "${gate}" (every listener settles first)`, outcome))
      }
    }
  }
  return out
}
