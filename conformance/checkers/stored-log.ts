/**
 * AGENT-CREATE-RESUME 43 at quiescence: the persisted log of every published live session is what
 * its live session would persist (§1.4, §3.1 R3, §6): at every quiescent point its length equals
 * `session.events.length`. A load or resume never changes the stored log of a live session (a
 * racing resume is rejected, it does not repair), and no append of a live session is lost to the
 * disk. A process adapter's persistence is its own; for a factory on the kit's process this checks
 * the kit's backend too.
 * @module
 */
import type { Analysis } from './analysis.js'
import { dedupe } from './atomic.js'
import { atProbe, lifeAt } from './quiescence.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'

/** Check the persisted log of every live session against the live one. */
export function checkStoredLog(a: Analysis): Violation[] {
  const out: Violation[] = []
  // A process booted with no persistence (§1.4, `env.persistence: false`) persists nothing: no log is owed.
  if (a.program.env?.persistence === false) return out
  const reported = new Set<string>()
  for (const probe of a.probes) {
    for (const log of probe.logs ?? []) {
      const key = `${probe.world}/${log.id}`
      // Only a published session is persisted: one entered but never announced (a same-id loser
      // rolling back, §3.5 row L) has no record yet, and none is owed.
      if (reported.has(key) || !lifeAt(a, probe.world, log.id, probe.at)) continue
      reported.add(key)
      const stored = log.stored === null ? 'no persisted record' : `a persisted log of ${log.stored} events`
      out.push(violation('AGENT-CREATE-RESUME', 43, `"${log.id}": the live session holds ${log.live} events but ${stored} (the stored log of a live session must be what it would persist)`, atProbe(probe)))
    }
  }
  return dedupe(out)
}
