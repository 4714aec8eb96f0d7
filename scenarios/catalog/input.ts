/**
 * Input bursts (§7.2): followups, steers and injects from several actors and from listeners,
 * landing across turn and step boundaries.
 * @module
 */
import { act, actor, BLOCK, create, followup, inject, on, program, steer } from '../../sim/program/build.js'
import { ended, event, has, messageKinds, pendingAt, span, spans, statusAt, turnEndings } from './goals.js'
import { catalogScenario, goal } from './scenario.js'
import type { Scenario } from './scenario.js'
import type { Trace } from '../../sim/trace/trace.js'

/** For each user/message append of `id`: its message id, turn and step (from the enclosing step/start). */
function userMessages(t: Trace, id: string): Array<{ message: string; turn: number; step: number }> {
  const out: Array<{ message: string; turn: number; step: number }> = []
  let turn = 0
  let step = 0
  for (const e of t.entries) {
    if (e.k !== 'append' || e.id !== id) continue
    if (e.type === 'step/start') ({ turn, step } = e.data as { turn: number; step: number })
    if (e.type === 'user/message') out.push({ message: (e.data as { id: string }).id, turn, step })
  }
  return out
}

const bursts = catalogScenario({
  name: 'input-bursts-across-turns',
  title: 'three actors send followups, steers and injects while tool steps and timed replies move turn boundaries',
  groups: ['X-INPUT', 'AGENT-RUNTIME-SCOPE', 'AGENT-INBOX-COMMIT'],
  program: program([
    actor('a1', create('s1'), followup('s1'), followup('s1'), followup('s1')),
    actor('a2', steer('s1'), steer('s1')),
    actor('a3', inject('s1'), inject('s1'), followup('s1')),
  ], { model: { s1: [{ reply: 'tool' }, { reply: 'delay', ms: 5 }, { reply: 'text' }, { reply: 'tool' }, { reply: 'text' }] } }),
  goals: [
    goal('steer-joins-a-later-step', (t) => {
      const kinds = messageKinds(t)
      return userMessages(t, 's1').some((m) => kinds.get(m.message) === 'steer' && m.step >= 2)
    }),
    goal('inject-rides-with-a-followup', (t) => {
      const kinds = messageKinds(t)
      const ms = userMessages(t, 's1')
      return ms.some((m) => kinds.get(m.message) === 'inject' && ms.some((o) => o.turn === m.turn && o.step === m.step && kinds.get(o.message) === 'followup'))
    }),
    goal('followup-queued-while-running', (t) => spans(t, undefined, 'followup(s1)').some((f) => ended(f, 'ok') && statusAt(t, 's1', f.start) === 'running')),
    goal('four-turns', (t) => turnEndings(t, 's1').length >= 4),
    goal('idle-steer-starts-a-turn', (t) => spans(t, 'a2', 'steer(s1)').some((s) => ended(s, 'ok') && statusAt(t, 's1', s.start) !== 'running')),
  ],
})

const fromListeners = catalogScenario({
  name: 'input-from-listeners',
  title: 'listeners send from agent/turn-stopping, agent/inbox/claimed, a splice observer and agent/error while a model step fails',
  groups: ['X-INPUT', 'AGENT-INBOX-TEST', 'X-SESSION'],
  program: program([
    actor('a1', create('s1'), followup('s1'), followup('s1')),
    actor('a2', steer('s1')),
  ], {
    listeners: [
      on('agent/turn-stopping', act(steer('s1')), { session: 's1' }),
      on('agent/inbox/claimed', act(followup('s1')), { session: 's1' }),
      on('session/event', act(followup('s1')), { session: 's1', eventType: 'agent/inbox/spliced' }),
      on('agent/error', act(inject('s1')), { session: 's1' }),
    ],
    model: { s1: [{ reply: 'fail' }, { reply: 'text' }] },
  }),
  goals: [
    goal('turn-stopping-steer-extends-turn', (t) => userMessages(t, 's1').some((m) => m.step >= 2)),
    goal('reentrant-send-from-splice-observer-fails', (t) => spans(t, 'inline', 'followup(s1) from env').some((s) => ended(s, 'fail', /reenter/))),
    goal('error-listener-inject-runs-later', (t) => {
      const i = span(t, 'inline', 'inject(s1)')
      return ended(i, 'ok') && userMessages(t, 's1').some((m) => m.message === i.outcome.detail)
    }),
    goal('model-failure-then-completed-turn', (t) => {
      const ends = turnEndings(t, 's1')
      return ends.includes('error') && ends.indexOf('completed') > ends.indexOf('error')
    }),
    goal('agent-error-emitted', (t) => has(t, event('agent/error', 's1'))),
  ],
})

const blockedAdmission = catalogScenario({
  name: 'pre-step-blocks-with-queued-work',
  title: 'an agent/pre-step listener rejects two batches while followups, steers and injects are queued behind them',
  groups: ['X-INPUT', 'AGENT-INBOX-TEST'],
  program: program([
    actor('a1', create('s1'), followup('s1'), followup('s1'), followup('s1')),
    actor('a2', inject('s1'), steer('s1'), followup('s1')),
  ], {
    listeners: [on('agent/pre-step', BLOCK, { session: 's1', times: 2 })],
    model: { s1: [{ reply: 'tool' }, { reply: 'text' }, { reply: 'text' }] },
  }),
  goals: [
    goal('blocked-with-work-queued', (t) => t.entries.some((e, i) => e.k === 'append' && e.id === 's1' && e.type === 'turn/end' &&
      (e.data as { reason?: { kind?: string } }).reason?.kind === 'blocked' && pendingAt(t, 's1', i) > 0)),
    goal('parked-work-runs-after-a-block', (t) => {
      const ends = turnEndings(t, 's1')
      return ends.includes('blocked') && ends.lastIndexOf('completed') > ends.indexOf('blocked')
    }),
  ],
})

/** Input scenarios. */
export const INPUT: readonly Scenario[] = [bursts, fromListeners, blockedAdmission]
