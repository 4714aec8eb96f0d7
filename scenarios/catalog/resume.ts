/**
 * Resume (§1.4, §3.1): hung, failing, slow and aborted persistence loads racing owner unload,
 * factory unload and same-id creates; logs with invalid inbox splices; and restarts in the middle
 * of pending work.
 * @module
 */
import {
  abortSignal, actor, create, followup, inject, message, persistedTurn, program, restart, resume, setup, spliced, steer,
  unloadFactory, unloadOwner,
} from '../../sim/program/build.js'
import { canceledSplice, ended, event, has, indexOf, inWorld, mark, pendingAt, resumed, span, spans, statusAt, within } from './goals.js'
import { catalogScenario, goal } from './scenario.js'
import type { Scenario } from './scenario.js'
import type { Trace } from '../../sim/trace/trace.js'

const LOG = persistedTurn(1, 'p1')

/** The load of `id` was hung (its `@hang` mark) and not yet aborted at index `i`. */
function loadHungAt(t: Trace, id: string, i: number): boolean {
  const hang = indexOf(t, mark(`load:${id}@hang`))
  const aborted = indexOf(t, mark(`load:${id}@aborted`))
  return hang >= 0 && hang < i && (aborted < 0 || aborted > i)
}

const hungAborted = catalogScenario({
  name: 'resume-hung-load-aborted',
  title: 'a resume whose load hangs is aborted through its creation signal; a same-id create follows',
  groups: ['AGENT-CREATE-RESUME', 'AGENT-ATOMIC-TEST'],
  program: program([
    actor('a1', resume('s1', { signal: 'g1' }), create('s1')),
    actor('a2', abortSignal('g1')),
  ], { persisted: [{ id: 's1', events: LOG }], loads: { s1: { load: 'hang' } } }),
  goals: [
    goal('abort-during-hung-load', (t) => {
      const a = span(t, 'a2', 'abortSignal(g1)')
      return a !== undefined && loadHungAt(t, 's1', a.start) && ended(span(t, 'a1', 'resume(s1)'), 'fail', 'signal "g1" aborted')
    }),
    goal('pre-aborted-resume', (t) => {
      const a = span(t, 'a2', 'abortSignal(g1)')
      const r = span(t, 'a1', 'resume(s1)')
      return ended(r, 'fail', 'signal "g1" aborted') && a !== undefined && a.end < r.start
    }),
    goal('abort-before-load-started', (t) => {
      const a = span(t, 'a2', 'abortSignal(g1)')
      const r = span(t, 'a1', 'resume(s1)')
      return a !== undefined && r !== undefined && a.start > r.start && a.start < indexOf(t, mark('load:s1@hang'))
    }),
    goal('id-free-after-abort', (t) => ended(span(t, 'a1', 'create(s1)'), 'ok')),
  ],
})

const hungOwner = catalogScenario({
  name: 'resume-hung-load-owner-unload',
  title: 'the owner unloads under a resume whose load never settles; another actor creates the id meanwhile',
  groups: ['AGENT-CREATE-RESUME', 'AGENT-TEARDOWN-TEST'],
  program: program([
    actor('a1', resume('s1', { owner: 'o1', setup: setup(1) })),
    actor('a2', unloadOwner('o1')),
    actor('a3', create('s1', { setup: setup(1) })),
  ], { persisted: [{ id: 's1', events: LOG }], loads: { s1: { load: 'hang' } } }),
  goals: [
    goal('owner-unload-during-hung-load', (t) => {
      const u = span(t, 'a2', 'unloadOwner(o1)')
      return u !== undefined && loadHungAt(t, 's1', u.start) && ended(span(t, 'a1', 'resume(s1)'), 'fail', /owner disposed during setup/)
    }),
    goal('create-publishes-while-load-hangs', (t) => {
      const c = span(t, 'a3', 'create(s1)')
      return ended(c, 'ok') && loadHungAt(t, 's1', c.end)
    }),
    goal('unload-before-resume', (t) => ended(span(t, 'a1', 'resume(s1)'), 'fail', /inactive context/)),
  ],
})

const hungFactory = catalogScenario({
  name: 'resume-hung-load-factory-unload',
  title: 'the factory unloads under a resume whose load never settles, and a second resume follows',
  groups: ['AGENT-CREATE-RESUME', 'AGENT-TEARDOWN-TEST'],
  program: program([
    actor('a1', resume('s1'), resume('s1')),
    actor('a2', unloadFactory()),
  ], { persisted: [{ id: 's1', events: LOG }], loads: { s1: { load: 'hang' } } }),
  goals: [
    goal('factory-unload-during-hung-load', (t) => {
      const u = span(t, 'a2', 'unloadFactory')
      return u !== undefined && loadHungAt(t, 's1', u.start) && ended(span(t, 'a1', 'resume(s1)'), 'fail', /agent loop is not active/)
    }),
    goal('resume-after-unload-rejects', (t) => {
      const u = span(t, 'a2', 'unloadFactory')
      const [, second] = spans(t, 'a1', 'resume(s1)')
      return u !== undefined && ended(second, 'fail') && second.start > u.end
    }),
    goal('nothing-published', (t) => !has(t, event('session/created', 's1')) && ended(span(t, 'a1', 'resume(s1)'), 'fail')),
  ],
})

const failingSlow = catalogScenario({
  name: 'resume-failing-and-slow-loads',
  title: 'a failing load, a slow load racing its owner unloading, and a followup to whatever was resumed',
  groups: ['AGENT-CREATE-RESUME', 'AGENT-TEARDOWN-TEST'],
  program: program([
    actor('a1', resume('s1'), create('s1'), resume('s2')),
    actor('a2', resume('s2', { owner: 'o2' }), followup('s2')),
    actor('a3', unloadOwner('o2')),
  ], {
    persisted: [{ id: 's1', events: LOG }, { id: 's2', events: persistedTurn(1, 'p2') }],
    loads: { s1: { load: 'fail' }, s2: { load: 'slow', steps: 3 } },
  }),
  goals: [
    goal('failed-load-rejects-and-frees-id', (t) => ended(span(t, 'a1', 'resume(s1)'), 'fail', /persistence load of "s1" failed/) &&
      ended(span(t, 'a1', 'create(s1)'), 'ok')),
    goal('owner-unload-during-slow-load', (t) => {
      const u = span(t, 'a3', 'unloadOwner(o2)')
      const start = indexOf(t, mark('load:s2@start'))
      const end = indexOf(t, mark('load:s2@end'))
      return u !== undefined && start >= 0 && start < u.start && u.start < end &&
        ended(span(t, 'a2', 'resume(s2)'), 'fail', /owner disposed during setup/)
    }),
    goal('slow-load-resumes-and-runs', (t) => ended(span(t, 'a2', 'resume(s2)'), 'ok') && has(t, (e) => e.k === 'append' && e.id === 's2' && e.type === 'turn/start' && (e.data as { turn: number }).turn === 2)),
    goal('double-resume-one-wins', (t) => {
      const [x, y] = [span(t, 'a1', 'resume(s2)'), span(t, 'a2', 'resume(s2)')]
      return (ended(x, 'ok') && ended(y, 'fail', /already exists/)) || (ended(y, 'ok') && ended(x, 'fail', /already exists/))
    }),
    goal('both-resumes-loading-at-once', (t) => {
      const starts = t.entries.filter((e) => e.k === 'mark' && e.label.startsWith('load:s2@start')).map((e) => e.i)
      const ends = t.entries.filter((e) => e.k === 'mark' && e.label === 'load:s2@end').map((e) => e.i)
      return starts.length === 2 && (ends.length === 0 || starts[1]! < ends[0]!)
    }),
  ],
})

const invalidSplice = catalogScenario({
  name: 'resume-invalid-splice',
  title: 'resume of a log whose first event splices past the end of an empty inbox, next to a valid log with a pending inject',
  groups: ['AGENT-INBOX-REPLAY', 'AGENT-CREATE-RESUME'],
  program: program([
    actor('a1', resume('s1', { setup: setup(1) }), create('s1')),
    actor('a2', resume('s2'), followup('s2')),
    actor('a3', resume('s1')),
  ], {
    persisted: [
      { id: 's1', events: [spliced('next-turn', 1, [])] },
      { id: 's2', events: [...persistedTurn(1, 'p1'), spliced('next-step', 0, [message('p2')])] },
    ],
  }),
  goals: [
    goal('invalid-splice-rejected', (t) => spans(t, undefined, 'resume(s1)').some((s) => ended(s, 'fail', 'invalid persisted inbox splice at session seq 0'))),
    goal('pending-inject-restored', (t) => has(t, (e) => e.k === 'resumed' && e.id === 's2' && e.inbox.nextStep.includes('p2'))),
    goal('restored-inject-enters-next-turn', (t) => has(t, (e) => e.k === 'append' && e.id === 's2' && e.type === 'user/message' &&
      (e.data as { id: string }).id === 'p2')),
    goal('id-free-after-invalid-log', (t) => ended(span(t, 'a1', 'create(s1)'), 'ok')),
    goal('setup-never-ran', (t) => !has(t, mark('resume(s1)@setup:start')) && ended(span(t, 'a1', 'resume(s1)'), 'fail')),
  ],
})

const invalidVariants = catalogScenario({
  name: 'resume-invalid-splice-variants',
  title: 'three logs with a duplicate pending id, an unknown target and an over-long removal are resumed concurrently',
  groups: ['AGENT-INBOX-REPLAY'],
  program: program([
    actor('a1', resume('s1')),
    actor('a2', resume('s2')),
    actor('a3', resume('s3'), resume('s1')),
  ], {
    persisted: [
      { id: 's1', events: [spliced('next-turn', 0, [message('x')]), spliced('next-step', 0, [message('x')])] },
      { id: 's2', events: [{ type: 'turn/start', data: { turn: 1 } }, spliced('elsewhere', 0, [message('y')])] },
      { id: 's3', events: [spliced('next-step', 0, [message('z')]), { type: 'turn/start', data: { turn: 1 } }, spliced('next-step', 0, [], 2)] },
    ],
  }),
  goals: [
    goal('duplicate-id-rejected', (t) => ended(span(t, 'a1', 'resume(s1)'), 'fail', 'invalid persisted inbox splice at session seq 1')),
    goal('unknown-target-rejected', (t) => ended(span(t, 'a2', 'resume(s2)'), 'fail', 'invalid persisted inbox splice at session seq 1')),
    goal('over-long-removal-rejected', (t) => ended(span(t, 'a3', 'resume(s3)'), 'fail', 'invalid persisted inbox splice at session seq 2')),
    goal('same-log-rejected-twice-concurrently', (t) => {
      const [a, b] = [span(t, 'a1', 'resume(s1)'), spans(t, 'a3', 'resume(s1)')[0]]
      return ended(a, 'fail') && ended(b, 'fail') && a.start < b.end && b.start < a.end
    }),
  ],
})

const restartMidTurn = catalogScenario({
  name: 'restart-mid-turn',
  title: 'the process restarts while a turn hangs in the model and other actors keep sending, then the session is resumed',
  groups: ['AGENT-CREATE-RESUME', 'AGENT-INBOX-REPLAY', 'AGENT-TEARDOWN-TEST'],
  program: program([
    actor('a1', create('s1'), followup('s1'), restart(), resume('s1'), followup('s1')),
    actor('a2', steer('s1'), inject('s1'), followup('s1')),
  ], { model: { s1: [{ reply: 'hang' }, { reply: 'text' }, { reply: 'text' }] } }),
  goals: [
    goal('restart-while-running', (t) => {
      const r = span(t, 'a1', 'restart')
      return r !== undefined && statusAt(t, 's1', r.start) === 'running'
    }),
    goal('resumed-turn-numbering-continues', (t) => has(t, inWorld(1, (e) => e.k === 'append' && e.id === 's1' && e.type === 'turn/start' &&
      (e.data as { turn: number }).turn === 2))),
    goal('restart-cancels-pending-input', (t) => {
      const r = span(t, 'a1', 'restart')
      return r !== undefined && pendingAt(t, 's1', r.start) > 0 && within(t, r, canceledSplice('s1'))
    }),
    goal('input-lands-on-resumed-agent', (t) => spans(t, 'a2', /^(steer|inject|followup)\(s1\)/).some((s) => s.invoke.world === 1 && ended(s, 'ok'))),
    goal('input-lost-between-worlds', (t) => spans(t, 'a2', /^(steer|inject|followup)\(s1\)/).some((s) => s.invoke.world === 1 && ended(s, 'info'))),
  ],
})

const restartMidCreate = catalogScenario({
  name: 'restart-mid-create',
  title: 'the process restarts while a create is inside its setup or just published, then the id is resumed',
  groups: ['AGENT-CREATE-RESUME', 'AGENT-TEARDOWN-TEST'],
  program: program([
    actor('a1', create('s1', { setup: setup(3) }), inject('s1')),
    actor('a2', restart(), resume('s1'), followup('s1')),
  ]),
  goals: [
    goal('restart-inside-setup', (t) => {
      const c = span(t, 'a1', 'create(s1)')
      const r = span(t, 'a2', 'restart')
      return ended(c, 'fail', /agent loop is not active/) && r !== undefined && indexOf(t, mark('@setup:start', c.invoke.tx)) < r.start &&
        ended(span(t, 'a2', 'resume(s1)'), 'fail', /not persisted/)
    }),
    goal('resumed-after-restart', (t) => ended(span(t, 'a2', 'resume(s1)'), 'ok') && has(t, resumed('s1'))),
    goal('inject-cancelled-by-restart', (t) => {
      const i = span(t, 'a1', 'inject(s1)')
      return ended(i, 'ok') && i.invoke.world === 0 && within(t, span(t, 'a2', 'restart'), canceledSplice('s1'))
    }),
    goal('create-after-restart', (t) => ended(span(t, 'a1', 'create(s1)'), 'ok') && span(t, 'a1', 'create(s1)')!.invoke.world === 1),
  ],
})

/** Resume and restart scenarios. */
export const RESUME: readonly Scenario[] = [hungAborted, hungOwner, hungFactory, failingSlow, invalidSplice, invalidVariants, restartMidTurn, restartMidCreate]


