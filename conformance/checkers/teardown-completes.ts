/**
 * Teardown completes once requested, and rollback unwinds the scope (§5.1 steps 5–6, §3.5 rows E–O,
 * §12 Q4): looked at once the run has settled,
 * - every effect a setup registered through `agentCtx` has been disposed by the end of the run when
 *   its creation was rolled back (the creation rejected) or its agent was torn down (a disposal edge
 *   of its lifecycle): the scope unwound (AGENT-RUNTIME-SCOPE 16: agent-scoped registrations are
 *   gone after disposal). The order against the registry edges is `teardown.ts`'s (§9 97);
 * - a `handle.dispose()` resolves: a teardown that was requested never rejects, from whatever
 *   dispatch it was requested (AGENT-TEARDOWN-TEST 112, §12 Q4).
 * @module
 */
import type { TraceEntry } from '../../sim/trace/trace.js'
import type { Analysis } from './analysis.js'
import { entriesOf } from './analysis.js'
import { dedupe } from './atomic.js'
import { R } from './declines.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import { windowsOf } from './windows.js'

type Mark = Extract<TraceEntry, { k: 'mark' }>

/** Check scope unwinding after rollback and teardown, and that dispose() resolves. */
export function checkTeardownCompletes(a: Analysis): Violation[] {
  const out: Violation[] = []
  const registered = new Map<string, Mark[]>()
  const byTx = new Map<string, Mark[]>()
  for (const e of entriesOf(a, 'mark')) {
    if (!e.tx) continue
    byTx.set(e.tx, [...(byTx.get(e.tx) ?? []), e])
    if (e.label.endsWith(' registered')) registered.set(e.tx, [...(registered.get(e.tx) ?? []), e])
  }
  const end = a.entries.at(-1)
  for (const [txId, marks] of registered) {
    const tx = a.txs.get(txId)
    if (!tx) continue
    const ended = tx.outcome?.status === 'fail' ? tx.outcome : tx.life?.agentDisposed ?? tx.life?.sessionDisposed
    if (!ended) {
      // (its lifecycle, if it published one, may be one the trace did not attribute to it)
      if (!tx.life && a.lives.some((l) => l.world === tx.world && l.id === tx.id && (l.tx === undefined || l.rivals.length > 0) && (l.agentDisposed ?? l.sessionDisposed))) a.declines.declined(16, R.publisher)
      continue
    }
    a.declines.judged(16)
    for (const m of marks) {
      const origin = m.label.slice(0, -' registered'.length)
      // The disposer's mark: `<origin> effect:<origin> <action>` (sim/world/behaviours.ts).
      if (byTx.get(txId)!.some((x) => x.label.startsWith(`${origin} effect:${origin} `))) continue
      out.push(violation('AGENT-RUNTIME-SCOPE', 16, `"${tx.id}": the effect ${origin} registered through agentCtx was never disposed, although the ${tx.outcome?.status === 'fail' ? `${tx.spec.op} rolled back` : 'agent was torn down'} (its scope did not unwind)`, end ?? ended))
    }
  }
  for (const w of windowsOf(a)) {
    if (w.spec.op !== 'dispose' || w.outcome?.status !== 'fail') continue
    out.push(violation('AGENT-TEARDOWN-TEST', 112, `"${w.spec.session}": handle.dispose() rejected ("${w.outcome.detail}"); a requested teardown resolves`, w.outcome))
  }
  return dedupe(out)
}
