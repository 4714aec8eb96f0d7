/**
 * Cancellation (§7.3) with and without `keepInbox`, landing while idle, during maintenance, during
 * a slow `agent/pre-step` listener and during a hung model step; and which cause wins.
 * @module
 */
import { actor, cancel, create, dispose, followup, inject, on, program, queue, remove, runMaintenance, SLOW, steer, whenIdle } from '../../sim/program/build.js'
import type { OpSpan } from './goals.js'
import { canceledSplice, ended, event, has, indexOf, mark, messageKinds, pendingAt, span, spans, statusAt, turnEndings, within } from './goals.js'
import { catalogScenario, goal } from './scenario.js'
import type { Scenario } from './scenario.js'
import type { Trace } from '../../sim/trace/trace.js'

function cancels(t: Trace, id: string, keep: boolean): OpSpan[] {
  return spans(t, undefined, `cancel(${id},`).filter((s) => s.invoke.spec.op === 'cancel' && !!s.invoke.spec.keepInbox === keep)
}

const idle = catalogScenario({
  name: 'cancel-idle',
  title: 'plain and keepInbox cancels of an idle agent with and without pending items, racing injects and a followup',
  groups: ['X-CANCEL', 'AGENT-INBOX-COMMIT'],
  program: program([
    actor('a1', create('s1'), inject('s1'), queue('s1'), cancel('s1', { keepInbox: true }), cancel('s1'), followup('s1')),
    actor('a2', cancel('s1'), inject('s1'), cancel('s1', { keepInbox: true })),
  ]),
  goals: [
    goal('plain-idle-cancel-clears-pending', (t) => cancels(t, 's1', false).some((c) =>
      statusAt(t, 's1', c.start) !== 'running' && pendingAt(t, 's1', c.start) > 0 && within(t, c, canceledSplice('s1')))),
    goal('plain-idle-cancel-with-empty-inbox', (t) => cancels(t, 's1', false).some((c) =>
      ended(c, 'ok') && statusAt(t, 's1', c.start) === undefined && pendingAt(t, 's1', c.start) === 0 && !within(t, c, (e) => e.k === 'append'))),
    goal('keep-idle-cancel-leaves-pending', (t) => cancels(t, 's1', true).some((c) =>
      ended(c, 'ok') && pendingAt(t, 's1', c.start) > 0 && !within(t, c, (e) => e.k === 'append'))),
    goal('inject-survives-to-next-turn', (t) => {
      const kinds = messageKinds(t)
      return has(t, (e) => e.k === 'event' && e.name === 'agent/inbox/claimed' && kinds.get(e.detail.split('@')[0]!) === 'inject')
    }),
  ],
})

const maintenance = catalogScenario({
  name: 'cancel-during-maintenance',
  title: 'plain and keepInbox cancels land during a three-step maintenance task while followups arrive',
  groups: ['X-CANCEL', 'AGENT-RUNTIME-SCOPE'],
  program: program([
    actor('a1', create('s1'), runMaintenance('s1', 3), followup('s1')),
    actor('a2', followup('s1'), cancel('s1'), followup('s1')),
    actor('a3', cancel('s1', { keepInbox: true }), steer('s1')),
  ]),
  goals: [
    goal('plain-cancel-aborts-maintenance', (t) => {
      const m = span(t, 'a1', 'runMaintenance(s1)')
      return ended(m, 'fail') && cancels(t, 's1', false).some((c) => c.start > m.start && c.start < m.end)
    }),
    goal('keep-cancel-aborts-maintenance', (t) => {
      const m = span(t, 'a1', 'runMaintenance(s1)')
      return ended(m, 'fail') && cancels(t, 's1', true).some((c) => c.start > m.start && c.start < m.end) &&
        !cancels(t, 's1', false).some((c) => c.start > m.start && c.start < m.end)
    }),
    goal('followup-during-maintenance-runs-after', (t) => {
      const m = span(t, 'a1', 'runMaintenance(s1)')
      return m !== undefined && spans(t, 'a2', 'followup(s1)').some((f) => f.start > m.start && f.start < m.end) &&
        indexOf(t, (e) => e.k === 'append' && e.id === 's1' && e.type === 'turn/start', m.end) > m.end
    }),
    goal('maintenance-completes-untouched', (t) => ended(span(t, 'a1', 'runMaintenance(s1)'), 'ok')),
    goal('maintenance-refused-while-running', (t) => ended(span(t, 'a1', 'runMaintenance(s1)'), 'fail', /already has active work/)),
  ],
})

const preStep = catalogScenario({
  name: 'cancel-at-pre-step',
  title: 'cancels (plain, keepInbox) land while a slow agent/pre-step listener holds the step open',
  groups: ['X-CANCEL', 'X-INPUT'],
  program: program([
    actor('a1', create('s1'), followup('s1'), followup('s1')),
    actor('a2', cancel('s1'), followup('s1')),
    actor('a3', cancel('s1', { keepInbox: true }), steer('s1')),
  ], { listeners: [on('agent/pre-step', SLOW, { session: 's1', times: 4 })] }),
  goals: [
    goal('plain-cancel-during-pre-step', (t) => cancels(t, 's1', false).some((c) => {
      const pre = indexOf(t, mark('listener:agent/pre-step slow'))
      const next = indexOf(t, (e) => e.k === 'append' && e.id === 's1' && (e.type === 'step/start' || e.type === 'turn/end'), pre)
      return pre >= 0 && c.start > pre && c.start < next && turnEndings(t, 's1')[0] === 'aborted:user'
    })),
    goal('keep-cancel-during-pre-step', (t) => cancels(t, 's1', true).some((c) => {
      const pre = indexOf(t, mark('listener:agent/pre-step slow'))
      const next = indexOf(t, (e) => e.k === 'append' && e.id === 's1' && (e.type === 'step/start' || e.type === 'turn/end'), pre)
      return pre >= 0 && c.start > pre && c.start < next
    })),
    goal('no-step-turn-after-cancel', (t) => {
      const ends = t.entries.filter((e) => e.k === 'append' && e.id === 's1' && (e.type === 'turn/start' || e.type === 'step/start' || e.type === 'turn/end')).map((e) => (e as { type: string }).type)
      return ends.join(' ').includes('turn/start turn/end')
    }),
    goal('three-turns', (t) => turnEndings(t, 's1').length >= 3),
  ],
})

const runningStep = catalogScenario({
  name: 'cancel-running-step',
  title: 'keepInbox and plain cancels land during hung model steps while followups and steers queue up',
  groups: ['X-CANCEL', 'AGENT-RUNTIME-SCOPE'],
  program: program([
    actor('a1', create('s1'), followup('s1'), steer('s1'), followup('s1')),
    actor('a2', cancel('s1', { keepInbox: true }), followup('s1'), cancel('s1', { keepInbox: true })),
    actor('a3', inject('s1'), cancel('s1')),
  ], { model: { s1: [{ reply: 'hang' }, { reply: 'hang' }, { reply: 'text' }, { reply: 'hang' }] } }),
  goals: [
    goal('keep-cancel-aborts-hung-step', (t) => cancels(t, 's1', true).some((c) =>
      statusAt(t, 's1', c.start) === 'running' && indexOf(t, mark('model:s1:call')) < c.start &&
      indexOf(t, (e) => e.k === 'append' && e.type === 'turn/end', c.start) > c.start)),
    goal('queued-survives-keep-cancel', (t) => {
      const c = cancels(t, 's1', true).find((x) => statusAt(t, 's1', x.start) === 'running' && pendingAt(t, 's1', x.start) > 0)
      return c !== undefined && !has(t, canceledSplice('s1')) && indexOf(t, event('agent/inbox/claimed', 's1'), c.end) > 0
    }),
    goal('plain-cancel-discards-steer', (t) => {
      const kinds = messageKinds(t)
      return cancels(t, 's1', false).some((c) => statusAt(t, 's1', c.start) === 'running' &&
        within(t, c, (e) => e.k === 'event' && e.name === 'agent/inbox/discarded' && kinds.get(e.detail) === 'steer'))
    }),
    goal('both-turn-endings', (t) => {
      const ends = turnEndings(t, 's1')
      return ends.includes('aborted:user') && ends.includes('completed')
    }),
  ],
})

const whenIdleRelease = catalogScenario({
  name: 'cancel-releases-when-idle',
  title: 'whenIdle() waits on a hung model call until another actor cancels (deadlocks when the cancel came first)',
  groups: ['X-CANCEL', 'AGENT-RUNTIME-SCOPE'],
  expectDeadlock: true,
  program: program([
    actor('a1', create('s1'), followup('s1'), whenIdle('s1')),
    actor('a2', cancel('s1', { keepInbox: true }), cancel('s1')),
  ], { model: { s1: [{ reply: 'hang' }] } }),
  goals: [
    goal('when-idle-released-by-cancel', (t) => {
      const w = span(t, 'a1', 'whenIdle(s1)')
      return ended(w, 'ok') && cancels(t, 's1', false).concat(cancels(t, 's1', true)).some((c) => c.start > w.start && c.start < w.end)
    }),
    goal('keep-cancel-releases', (t) => {
      const w = span(t, 'a1', 'whenIdle(s1)')
      return ended(w, 'ok') && cancels(t, 's1', true).some((c) => c.start > w.start && c.start < w.end)
    }),
    goal('cancel-before-the-turn', (t) => {
      const f = span(t, 'a1', 'followup(s1)')
      return f !== undefined && cancels(t, 's1', false).some((c) => ended(c, 'ok') && c.start < f.start)
    }),
  ],
})

const firstCause = catalogScenario({
  name: 'cancel-first-cause-wins',
  title: 'a hook cancel, a user cancel and a handle dispose race on a hung step; the first cause must name the turn ending',
  groups: ['X-CANCEL', 'AGENT-TEARDOWN-TEST'],
  program: program([
    actor('a1', create('s1'), followup('s1')),
    actor('a2', cancel('s1', { cause: 'hook' })),
    actor('a3', cancel('s1', { cause: 'user', keepInbox: true })),
    actor('a4', dispose('s1')),
  ], { model: { s1: [{ reply: 'hang' }] } }),
  goals: [
    goal('hook-wins', (t) => turnEndings(t, 's1').includes('aborted:hook')),
    goal('user-wins', (t) => turnEndings(t, 's1').includes('aborted:user')),
    goal('disposed-wins', (t) => turnEndings(t, 's1').includes('aborted:disposed')),
    goal('cancel-after-dispose-began', (t) => {
      const d = span(t, 'a4', 'dispose(s1)')
      return d !== undefined && spans(t, undefined, 'cancel(s1,').some((c) => c.start > d.start && c.start < d.end)
    }),
  ],
})

const latchRemoved = catalogScenario({
  name: 'latch-removed',
  title: 'a followup and a steer latched behind a maintenance task are removed with inbox.remove before it settles: no turn may follow',
  groups: ['X-INPUT', 'AGENT-RUNTIME-SCOPE'],
  program: program([
    actor('a1', create('s1'), runMaintenance('s1', 4), followup('s1')),
    actor('a2', followup('s1'), remove('s1')),
    actor('a3', steer('s1'), remove('s1', 'last')),
  ]),
  goals: [
    goal('latched-followup-removed', (t) => {
      const m = span(t, 'a1', 'runMaintenance(s1)')
      const f = span(t, 'a2', 'followup(s1)')
      const r = span(t, 'a2', 'remove(s1)')
      return ended(m, 'ok') && ended(f, 'ok') && ended(r, 'ok') && f.start > m.start && r.start < m.end
    }),
    goal('everything-latched-removed', (t) => {
      const m = span(t, 'a1', 'runMaintenance(s1)')
      return ended(m, 'ok') && spans(t, undefined, /^remove\(s1/).filter((r) => ended(r, 'ok') && r.start > m.start && r.start < m.end).length === 2
    }),
  ],
})

const whenIdleThroughLatch = catalogScenario({
  name: 'when-idle-through-latch',
  title: 'whenIdle() called during a maintenance task that a followup latched behind: it must wait for the task and the replayed turn',
  groups: ['AGENT-RUNTIME-SCOPE', 'X-INPUT'],
  program: program([
    actor('a1', create('s1'), runMaintenance('s1', 3)),
    actor('a2', followup('s1'), whenIdle('s1')),
    actor('a3', followup('s1'), whenIdle('s1')),
  ]),
  goals: [
    goal('when-idle-follows-the-replayed-turn', (t) => spans(t, undefined, 'whenIdle(s1)').some((w) => {
      const m = span(t, 'a1', 'runMaintenance(s1)')
      const turn = indexOf(t, (e) => e.k === 'append' && e.id === 's1' && e.type === 'turn/start', m?.start ?? 0)
      return ended(m, 'ok') && ended(w, 'ok') && w.start > m.start && w.start < m.end && turn > m.start && turn < w.end
    })),
    goal('when-idle-during-plain-maintenance', (t) => spans(t, undefined, 'whenIdle(s1)').some((w) => {
      const m = span(t, 'a1', 'runMaintenance(s1)')
      return ended(m, 'ok') && ended(w, 'ok') && w.start > m.start && w.start < m.end &&
        !spans(t, undefined, 'followup(s1)').some((f) => ended(f, 'ok') && f.start > m.start && f.start < m.end)
    })),
  ],
})

/** Cancellation scenarios. */
export const CANCEL: readonly Scenario[] = [idle, maintenance, preStep, runningStep, whenIdleRelease, firstCause, latchRemoved, whenIdleThroughLatch]
