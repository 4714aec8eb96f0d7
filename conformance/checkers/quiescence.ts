/**
 * What the quiescence checkers share: the probes the world records each time the process has
 * settled (`sim/trace/trace.ts`, `QuiescentProbe`), each live agent paired with the lifecycle it
 * belongs to there. An agent is *quiescent* at a probe when it reads `idle`, a `whenIdle()`
 * settled (§7.5) and no maintenance task of the program is running on it: no work of its own is in
 * flight. The last probe of a run is its end state.
 * @module
 */
import type { ProbeAgent, QuiescentProbe } from '../../sim/trace/trace.js'
import type { Analysis, Life } from './analysis.js'
import { Derived, keyOf } from './analysis.js'
import { R } from './declines.js'

/** One live agent at one probe, with its lifecycle. */
export interface ProbedAgent {
  readonly probe: QuiescentProbe
  readonly agent: ProbeAgent
  readonly life: Life
}

/** Where a violation seen at a probe points: the last entry before it. */
export function atProbe(probe: QuiescentProbe): { i: number; d: number } {
  return { i: probe.at - 1, d: probe.d }
}

/** The lifecycles of each id, by `world/id`, in order. */
const LIVES_BY_KEY = new Derived((a: Analysis): Map<string, Life[]> => {
  const byKey = new Map<string, Life[]>()
  for (const life of a.lives) byKey.set(keyOf(life.world, life.id), [...(byKey.get(keyOf(life.world, life.id)) ?? []), life])
  return byKey
})

/** The lifecycle of `id` in `world` that is open after entry `at - 1` (published, not yet disposed). */
export function lifeAt(a: Analysis, world: number, id: string, at: number): Life | undefined {
  let found: Life | undefined
  for (const life of LIVES_BY_KEY.of(a).get(keyOf(world, id)) ?? []) {
    if (life.sessionCreated.i >= at) break
    if (life.sessionDisposed && life.sessionDisposed.i < at) continue
    found = life
  }
  return found
}

/** Every live agent of every probe whose lifecycle the trace shows, in probe order (computed once per analysis). */
export function probedAgents(a: Analysis): ProbedAgent[] {
  return PROBED.of(a)
}

const PROBED = new Derived((a: Analysis): ProbedAgent[] => {
  const out: ProbedAgent[] = []
  for (const probe of a.probes) {
    for (const agent of probe.agents) {
      const life = lifeAt(a, probe.world, agent.id, probe.at)
      if (life) out.push({ probe, agent, life })
      else declinedUnpublished(a, agent)
    }
  }
  return out
})

/**
 * A live agent whose id has no published lifecycle open (entered and never announced: a same-id loser
 * rolling back, §3.5 row L): what the quiescence checks would have judged of it is declined, where
 * it would have been reported.
 */
function declinedUnpublished(a: Analysis, agent: ProbeAgent): void {
  if (agent.status !== 'idle') a.declines.declined(11, R.entered)
  if (agent.status === 'idle' && agent.idle === false && !agent.maintenance) a.declines.declined(24, R.entered)
  if (quiescent(agent) && (agent.nextTurn?.length || agent.nextStep?.length)) a.declines.declined(19, R.entered)
}

/** The agent has no work of its own in flight: idle, `whenIdle()` settled, no maintenance running. */
export function quiescent(agent: ProbeAgent): boolean {
  return agent.status === 'idle' && agent.idle === true && !agent.maintenance
}
