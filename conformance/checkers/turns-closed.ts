/**
 * X-INPUT 159 at quiescence: once an agent is quiescent (idle, `whenIdle()` settled, no
 * maintenance), every `turn/start` it appended has its `turn/end` (§10.1: every turn is balanced;
 * §7.4: the driver goes idle only after its last turn closed). The per-event balance checks
 * (`runtime.ts`) see an unclosed turn only when a later turn opens or the agent is torn down; an
 * agent that stays quiet after a turn it never closed shows it only here.
 * @module
 */
import type { Analysis } from './analysis.js'
import { dedupe } from './atomic.js'
import { atProbe, probedAgents, quiescent } from './quiescence.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'

/** Check that a quiescent agent has no open turn. */
export function checkTurnsClosed(a: Analysis): Violation[] {
  const out: Violation[] = []
  const reported = new Set<object>()
  // Per lifecycle, the turns open so far, advanced probe by probe (probes come in trace order).
  const cursors = new Map<object, { next: number; open: Set<number> }>()
  for (const { probe, agent, life } of probedAgents(a)) {
    if (!quiescent(agent) || reported.has(life)) continue
    a.declines.judged(159)
    let cursor = cursors.get(life)
    if (!cursor) cursors.set(life, (cursor = { next: 0, open: new Set() }))
    const open = cursor.open
    for (; cursor.next < life.appends.length && life.appends[cursor.next]!.i < probe.at; cursor.next++) {
      const e = life.appends[cursor.next]!
      const turn = (e.data as { turn?: unknown } | null)?.turn
      if (e.type === 'turn/start') open.add(Number(turn))
      else if (e.type === 'turn/end') open.delete(Number(turn))
    }
    if (open.size === 0) continue
    reported.add(life)
    out.push(violation('X-INPUT', 159, `"${agent.id}": idle with whenIdle() settled while turn ${[...open].join(', ')} is still open (turn/start without turn/end)`, atProbe(probe)))
  }
  return dedupe(out)
}
