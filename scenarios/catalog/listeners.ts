/**
 * Throwing and async-rejecting listeners on every lifecycle edge (publication, session start,
 * disposal) and on the driver's notifications, while two sessions are created, driven and disposed.
 * @module
 */
import type { EventName } from '../../core/contract.js'
import { actor, create, dispose, followup, on, program, REJECT, setup, steer, THROW } from '../../sim/program/build.js'
import { ended, event, has, indexOf, mark, span, spans, turnEndings, warn } from './goals.js'
import { catalogScenario, goal } from './scenario.js'
import type { Scenario } from './scenario.js'

const EDGES: readonly EventName[] = ['session/created', 'agent/created', 'agent/session-start', 'agent/disposed', 'session/disposed']

const throwing = catalogScenario({
  name: 'throwing-lifecycle-listeners',
  title: 'a throwing listener (once each) on session/created, agent/created, agent/session-start, agent/disposed and session/disposed while two ids are created and retried',
  groups: ['AGENT-REGISTRY-TEST', 'AGENT-TEARDOWN-TEST', 'AGENT-PREPARE-PUBLISH'],
  program: program([
    actor('a1', create('s1', { setup: setup(1) }), create('s1'), create('s1'), followup('s1'), dispose('s1')),
    actor('a2', create('s2', { setup: setup(1) }), create('s2'), dispose('s2')),
  ], { listeners: EDGES.map((edge) => on(edge, THROW)) }),
  goals: [
    goal('session-created-throw-rejects-create', (t) => spans(t, undefined, /^create\(/).some((s) => ended(s, 'fail', 'listener:session/created (env) threw'))),
    goal('agent-created-throw-rejects-create', (t) => spans(t, undefined, /^create\(/).some((s) => ended(s, 'fail', 'listener:agent/created (env) threw'))),
    goal('session-start-throw-contained', (t) => has(t, warn('"agent/session-start" listener threw')) &&
      spans(t, undefined, /^create\(/).some((s) => ended(s, 'ok'))),
    goal('both-ids-hit', (t) => ended(span(t, undefined, 'create(s1)'), 'fail') && ended(span(t, undefined, 'create(s2)'), 'fail')),
    goal('disposed-throws-contained-in-dispose', (t) => spans(t, undefined, /^dispose\(/).some((d) => ended(d, 'ok') &&
      indexOf(t, warn('"agent/disposed" listener threw'), d.start) > d.start && indexOf(t, warn('"agent/disposed" listener threw'), d.start) < d.end)),
    goal('every-edge-fired', (t) => EDGES.every((edge) => has(t, mark(`listener:${edge} throw`)))),
  ],
})

const rejecting = catalogScenario({
  name: 'rejecting-lifecycle-listeners',
  title: 'async-rejecting listeners (twice each) on every lifecycle edge; rejections settle at their own scheduling points',
  groups: ['AGENT-REGISTRY-TEST', 'AGENT-TEARDOWN-TEST', 'AGENT-PREPARE-PUBLISH'],
  program: program([
    actor('a1', create('s1', { setup: setup(1) }), followup('s1'), dispose('s1'), create('s1')),
    actor('a2', create('s2'), dispose('s2')),
  ], { listeners: EDGES.map((edge) => on(edge, REJECT, { times: 2 })) }),
  goals: [
    goal('creates-survive-rejections', (t) => ended(span(t, 'a1', 'create(s1)'), 'ok') && ended(span(t, 'a2', 'create(s2)'), 'ok')),
    goal('agent-created-rejection-logged', (t) => has(t, warn('async "agent/created" listener rejected'))),
    goal('rejection-lands-after-disposal', (t) => {
      const w = indexOf(t, warn('async "agent/created" listener rejected'))
      return w >= 0 && w > indexOf(t, event('agent/disposed'))
    }),
    goal('rejection-lands-inside-other-create', (t) => spans(t, undefined, /^create\(/).some((s) => {
      const w = indexOf(t, warn('listener rejected'), s.start)
      return w > s.start && w < s.end
    })),
    goal('republished-after-rejections', (t) => ended(spans(t, 'a1', 'create(s1)')[1], 'ok')),
  ],
})

const driver = catalogScenario({
  name: 'throwing-driver-listeners',
  title: 'throwing and rejecting listeners on agent/status, agent/pre-step, agent/turn-stopping, inbox notifications and agent/error',
  groups: ['X-INPUT', 'AGENT-RUNTIME-SCOPE', 'AGENT-INBOX-TEST'],
  program: program([
    actor('a1', create('s1'), followup('s1'), followup('s1'), followup('s1')),
    actor('a2', steer('s1'), steer('s1')),
  ], {
    listeners: [
      on('agent/status', THROW, { session: 's1', times: 2 }),
      on('agent/pre-step', THROW, { session: 's1' }),
      on('agent/turn-stopping', REJECT, { session: 's1' }),
      on('agent/inbox/inserted', THROW, { session: 's1' }),
      on('agent/inbox/claimed', REJECT, { session: 's1' }),
      on('agent/error', THROW, { session: 's1' }),
    ],
    model: { s1: [{ reply: 'text' }, { reply: 'fail' }, { reply: 'tool' }, { reply: 'text' }] },
  }),
  goals: [
    goal('pre-step-throw-ends-turn-in-error', (t) => turnEndings(t, 's1')[0] === 'error' && has(t, mark('listener:agent/pre-step throw'))),
    goal('turn-stopping-rejection-ends-turn', (t) => has(t, mark('listener:agent/turn-stopping reject')) &&
      turnEndings(t, 's1').filter((e) => e === 'error').length >= 2),
    goal('model-failure-and-throwing-error-listener', (t) => has(t, mark('listener:agent/error throw')) && has(t, warn('"agent/error" listener threw'))),
    goal('agent-keeps-working', (t) => turnEndings(t, 's1').includes('completed')),
    goal('status-throw-on-both-transitions', (t) => has(t, event('agent/status', 's1', 'idle')) &&
      t.entries.filter((e) => e.k === 'mark' && e.label.includes('listener:agent/status throw')).length === 2),
  ],
})

/** Misbehaving listener scenarios. */
export const LISTENERS: readonly Scenario[] = [throwing, rejecting, driver]
