/**
 * Status tells the truth once things settle (§7.4, §1.5): at every quiescent point,
 * - `agent.status` reads what the last `agent/status` the agent emitted said (`idle` before any),
 *   since it is emitted exactly when the mapped value changes (AGENT-PUBLIC-INTERFACE 11);
 * - an agent that reads `idle` with no maintenance task running has no activity left, so a
 *   `whenIdle()` settles (AGENT-RUNTIME-SCOPE 24);
 * - a `whenIdle()` called while the agent reads `running` does not settle while it still does
 *   (AGENT-RUNTIME-SCOPE 27);
 * - an agent that has left the registry (its handle is still held) reads `idle` (§1.5: disposal is
 *   not a status; AGENT-PUBLIC-INTERFACE 11).
 * @module
 */
import type { Analysis } from './analysis.js'
import { dedupe } from './atomic.js'
import { R } from './declines.js'
import { atProbe, probedAgents } from './quiescence.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'

/** Check status and whenIdle against the agent's activity at every probe. */
export function checkStatusActivity(a: Analysis): Violation[] {
  const out: Violation[] = []
  const reported = new Set<string>()
  const once = (key: string, v: () => Violation): void => {
    if (reported.has(key)) return
    reported.add(key)
    out.push(v())
  }
  // Per lifecycle, the last status before the probe whose whenIdle() it recorded.
  const asked = new Map<object, number>()
  for (const { probe, agent, life } of probedAgents(a)) {
    const key = `${life.world}/${life.id}/${life.sessionCreated.i}`
    let emitted = 'idle'
    for (const s of life.statuses) {
      if (s.i >= probe.at) break
      emitted = s.detail
    }
    a.declines.judged(11)
    if (agent.status === 'idle' && !agent.maintenance) {
      // (the world asks again only when something happened to the agent since it last asked: an
      // answer given earlier in the same stretch of idleness holds)
      let last = -1
      for (const st of life.statuses) {
        if (st.i >= probe.at) break
        last = st.i
      }
      const seen = asked.get(life)
      if (agent.idle !== undefined) {
        asked.set(life, last)
        a.declines.judged(24)
      } else if (seen === last) {
        a.declines.judged(24)
      } else {
        a.declines.declined(24, R.idleSampled)
      }
    }
    if (agent.idleWhileRunning !== undefined || agent.status === 'running') a.declines.judged(27)
    if (agent.status !== emitted) {
      once(`${key}/emitted`, () => violation('AGENT-PUBLIC-INTERFACE', 11, `"${agent.id}": status reads "${agent.status}" but the last agent/status it emitted says "${emitted}"`, atProbe(probe)))
    }
    if (agent.status === 'idle' && agent.idle === false && !agent.maintenance) {
      once(`${key}/idle`, () => violation('AGENT-RUNTIME-SCOPE', 24, `"${agent.id}": status reads "idle" with no maintenance running, yet whenIdle() does not settle (live activity behind an idle status)`, atProbe(probe)))
    }
    if (agent.idleWhileRunning) {
      once(`${key}/running`, () => violation('AGENT-RUNTIME-SCOPE', 27, `"${agent.id}": whenIdle() settled while the agent reads "running"`, atProbe(probe)))
    }
  }
  for (const probe of a.probes) {
    for (const d of probe.detached ?? []) {
      once(`${probe.world}/${d.id}/detached`, () => violation('AGENT-PUBLIC-INTERFACE', 11, `"${d.id}": the agent has left the registry but its status reads "${d.status}" (a disposed agent reads "idle")`, atProbe(probe)))
    }
  }
  return dedupe(out)
}
