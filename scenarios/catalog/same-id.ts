/**
 * Same-id races: concurrent creates (and a create against a resume) of one session id, and a
 * create landing on an id whose previous agent is still tearing down.
 * @module
 */
import { actor, create, dispose, persistedTurn, program, resume, setup, SLOW } from '../../sim/program/build.js'
import { allInSetup, ended, event, has, indexOf, inSetup, mark, span, spans } from './goals.js'
import type { OpSpan } from './goals.js'
import { catalogScenario, goal } from './scenario.js'
import type { Scenario } from './scenario.js'

const EXISTS = /already exists/

/** The create among `creates` that fulfilled, if exactly one did. */
function winner(creates: readonly (OpSpan | undefined)[]): OpSpan | undefined {
  const ok = creates.filter((s) => ended(s, 'ok'))
  return ok.length === 1 ? ok[0] : undefined
}

const twoCreates = catalogScenario({
  name: 'same-id-two-creates',
  title: 'two concurrent creates of one id, each with a two-step async setup, then each disposes',
  groups: ['AGENT-ATOMIC-TEST', 'AGENT-PREPARE-PUBLISH'],
  program: program([
    actor('a1', create('s1', { setup: setup(2) }), dispose('s1')),
    actor('a2', create('s1', { setup: setup(2) }), dispose('s1')),
  ]),
  goals: [
    goal('both-inside-setup', (t) => allInSetup(t, [span(t, 'a1', 'create(s1)'), span(t, 'a2', 'create(s1)')])),
    goal('loser-rejected-after-its-setup', (t) => spans(t, undefined, 'create(s1)').some((s) =>
      ended(s, 'fail', EXISTS) && has(t, mark('@setup:end', s.invoke.tx)))),
    goal('loser-rejected-before-setup', (t) => spans(t, undefined, 'create(s1)').some((s) =>
      ended(s, 'fail', EXISTS) && !has(t, mark('@setup:start', s.invoke.tx)))),
    goal('second-starter-wins', (t) => {
      const creates = [span(t, 'a1', 'create(s1)'), span(t, 'a2', 'create(s1)')]
      const w = winner(creates)
      const loser = creates.find((s) => s !== w)
      return w !== undefined && loser !== undefined && indexOf(t, mark('@setup:start', loser.invoke.tx)) >= 0 &&
        indexOf(t, mark('@setup:start', loser.invoke.tx)) < indexOf(t, mark('@setup:start', w.invoke.tx))
    }),
  ],
})

const threeCreates = catalogScenario({
  name: 'same-id-three-creates',
  title: 'three concurrent creates of one id with setups of one, two and three steps',
  groups: ['AGENT-ATOMIC-TEST', 'AGENT-PREPARE-PUBLISH'],
  program: program([
    actor('a1', create('s1', { setup: setup(1) })),
    actor('a2', create('s1', { setup: setup(2) })),
    actor('a3', create('s1', { setup: setup(3) })),
  ]),
  goals: [
    goal('all-three-inside-setup', (t) => allInSetup(t, ['a1', 'a2', 'a3'].map((a) => span(t, a, 'create(s1)')))),
    goal('longest-setup-wins', (t) => ended(span(t, 'a3', 'create(s1)'), 'ok')),
    goal('two-rejected-after-setup', (t) => spans(t, undefined, 'create(s1)').filter((s) =>
      ended(s, 'fail', EXISTS) && has(t, mark('@setup:end', s.invoke.tx))).length === 2),
  ],
})

const createVsResume = catalogScenario({
  name: 'same-id-create-vs-resume',
  title: 'a create and a resume (slow load) of one persisted id race to publish',
  groups: ['AGENT-ATOMIC-TEST', 'AGENT-CREATE-RESUME'],
  program: program([
    actor('a1', resume('s1', { setup: setup(1) })),
    actor('a2', create('s1', { setup: setup(1) })),
  ], {
    persisted: [{ id: 's1', events: persistedTurn(1, 'p1') }],
    loads: { s1: { load: 'slow', steps: 2 } },
  }),
  goals: [
    goal('resume-wins', (t) => ended(span(t, 'a1', 'resume(s1)'), 'ok') && ended(span(t, 'a2', 'create(s1)'), 'fail', EXISTS)),
    goal('create-wins', (t) => ended(span(t, 'a2', 'create(s1)'), 'ok') && ended(span(t, 'a1', 'resume(s1)'), 'fail', EXISTS)),
    goal('create-published-while-loading', (t) => {
      const start = indexOf(t, mark('load:s1@start'))
      const end = indexOf(t, mark('load:s1@end'))
      const created = indexOf(t, event('session/created', 's1'))
      return start >= 0 && start < created && created < end
    }),
    goal('both-inside-setup', (t) => allInSetup(t, [span(t, 'a1', 'resume(s1)'), span(t, 'a2', 'create(s1)')])),
  ],
})

const createDuringTeardown = catalogScenario({
  name: 'same-id-create-during-teardown',
  title: 'a same-id create lands while the previous agent tears down behind a slow scope effect',
  groups: ['AGENT-ATOMIC-TEST', 'AGENT-TEARDOWN-TEST'],
  program: program([
    actor('a1', create('s1', { setup: setup(0, { effects: [{ disposer: SLOW }] }) }), dispose('s1')),
    actor('a2', create('s1', { setup: setup(1) }), create('s1', { setup: setup(1) })),
  ]),
  goals: [
    goal('rejected-while-old-tears-down', (t) => {
      const d = span(t, 'a1', 'dispose(s1)')
      return spans(t, 'a2', 'create(s1)').some((s) => ended(s, 'fail', EXISTS) && s.end > (d?.start ?? Infinity) && s.end < (d?.end ?? -1))
    }),
    goal('replacement-published-after-teardown', (t) => {
      const d = span(t, 'a1', 'dispose(s1)')
      return ended(d, 'ok') && spans(t, 'a2', 'create(s1)').some((s) => ended(s, 'ok') && s.start > d.start)
    }),
    goal('old-disposed-inside-replacement-setup', (t) => {
      const i = indexOf(t, event('agent/disposed', 's1'))
      return spans(t, 'a2', 'create(s1)').some((s) => inSetup(t, s, i))
    }),
  ],
})

/** Same-id scenarios. */
export const SAME_ID: readonly Scenario[] = [twoCreates, threeCreates, createVsResume, createDuringTeardown]


