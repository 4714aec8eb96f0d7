/**
 * Handle disposal racing the other two owners of a lifecycle (§5.1): the owner fiber and the
 * factory. All three join one memoized teardown.
 * @module
 */
import { actor, create, dispose, followup, inject, program, setup, SLOW, unloadFactory, unloadOwner } from '../../sim/program/build.js'
import { ended, event, has, indexOf, overlap, span, statusAt, within } from './goals.js'
import { catalogScenario, goal } from './scenario.js'
import type { Scenario } from './scenario.js'

const disposeVsOwner = catalogScenario({
  name: 'dispose-races-owner-unload',
  title: 'handle.dispose() of an agent mid-turn races its owner fiber unloading; a slow scoped effect widens the teardown',
  groups: ['AGENT-TEARDOWN-TEST'],
  program: program([
    actor('a1', create('s1', { owner: 'o1', setup: setup(0, { effects: [{ disposer: SLOW }] }) }), followup('s1'), inject('s1'), dispose('s1')),
    actor('a2', followup('s1'), unloadOwner('o1')),
  ], { model: { s1: [{ reply: 'delay', ms: 5 }, { reply: 'text' }] } }),
  goals: [
    goal('both-in-flight', (t) => overlap(span(t, 'a1', 'dispose(s1)'), span(t, 'a2', 'unloadOwner(o1)'))),
    goal('unload-first-dispose-joins', (t) => {
      const d = span(t, 'a1', 'dispose(s1)')
      const u = span(t, 'a2', 'unloadOwner(o1)')
      return overlap(d, u) && u!.start < d!.start
    }),
    goal('dispose-first-unload-joins', (t) => {
      const d = span(t, 'a1', 'dispose(s1)')
      const u = span(t, 'a2', 'unloadOwner(o1)')
      return overlap(d, u) && d!.start < u!.start
    }),
    goal('teardown-mid-turn', (t) => {
      const i = Math.min(...[span(t, 'a1', 'dispose(s1)'), span(t, 'a2', 'unloadOwner(o1)')].map((s) => s?.start ?? Infinity))
      return Number.isFinite(i) && statusAt(t, 's1', i) === 'running'
    }),
    goal('pending-items-cancelled-durably', (t) => has(t, (e) => e.k === 'append' && e.id === 's1' && e.type === 'agent/inbox/spliced' &&
      (e.data as { outcome?: string }).outcome === 'canceled')),
  ],
})

const disposeVsFactory = catalogScenario({
  name: 'dispose-races-factory-unload',
  title: 'handle.dispose() races the factory unloading while the owner fiber also unloads',
  groups: ['AGENT-TEARDOWN-TEST', 'AGENT-FACTORY-SEAM'],
  program: program([
    actor('a1', create('s1', { owner: 'o1', setup: setup(1, { effects: [{ disposer: SLOW }] }) }), followup('s1'), dispose('s1')),
    actor('a2', followup('s1'), unloadFactory()),
    actor('a3', inject('s1'), unloadOwner('o1')),
  ], { model: { s1: [{ reply: 'tool' }, { reply: 'text' }] } }),
  goals: [
    goal('dispose-and-factory-in-flight', (t) => overlap(span(t, 'a1', 'dispose(s1)'), span(t, 'a2', 'unloadFactory'))),
    goal('three-owners-in-flight', (t) => {
      const d = span(t, 'a1', 'dispose(s1)')
      const f = span(t, 'a2', 'unloadFactory')
      const o = span(t, 'a3', 'unloadOwner(o1)')
      return overlap(d, f) && overlap(d, o) && overlap(f, o)
    }),
    goal('dispose-after-factory-unload', (t) => {
      const d = span(t, 'a1', 'dispose(s1)')
      const f = span(t, 'a2', 'unloadFactory')
      return ended(d, 'ok') && f !== undefined && d.start > f.end
    }),
    goal('agent-disposed-inside-dispose', (t) => within(t, span(t, 'a1', 'dispose(s1)'), event('agent/disposed', 's1'))),
    goal('factory-unload-before-publication', (t) => ended(span(t, 'a1', 'create(s1)'), 'fail', /agent loop is not active/) &&
      indexOf(t, event('session/created', 's1')) < 0),
  ],
})

/** Teardown races between the three owners. */
export const TEARDOWN: readonly Scenario[] = [disposeVsOwner, disposeVsFactory]
