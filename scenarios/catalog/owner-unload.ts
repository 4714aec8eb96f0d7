/**
 * Owner and factory unloads racing a create: during setup, during the rollback teardown of a
 * failing setup, under a pending create and under live agents.
 * @module
 */
import { actor, create, dispose, followup, program, setup, SLOW, steer, unloadFactory, unloadOwner, whenIdle } from '../../sim/program/build.js'
import { ended, event, has, indexOf, mark, sequence, setupWindow, span, spans, statusAt, within } from './goals.js'
import { catalogScenario, goal } from './scenario.js'
import type { Scenario } from './scenario.js'

const OWNER_DISPOSED = /owner disposed during setup/
const LOOP_INACTIVE = /agent loop is not active/

const duringSetup = catalogScenario({
  name: 'owner-unload-during-setup',
  title: 'the owner fiber unloads while a create with a slow-disposing scoped effect is in its three-step setup',
  groups: ['AGENT-TEARDOWN-TEST', 'AGENT-SETUP-CONTRACT', 'AGENT-PREPARE-PUBLISH'],
  program: program([
    actor('a1', create('s1', { owner: 'o1', setup: setup(3, { effects: [{ disposer: SLOW }] }) }), followup('s1')),
    actor('a2', unloadOwner('o1')),
  ]),
  goals: [
    goal('unload-inside-setup-rejects', (t) => {
      const c = span(t, 'a1', 'create(s1)')
      const w = setupWindow(t, c?.invoke.tx)
      const u = span(t, 'a2', 'unloadOwner(o1)')
      return ended(c, 'fail', OWNER_DISPOSED) && w !== undefined && u !== undefined && u.start > w.start && u.start < w.end
    }),
    goal('unload-after-setup-resolved', (t) => {
      const c = span(t, 'a1', 'create(s1)')
      const end = indexOf(t, mark('@setup:end', c?.invoke.tx))
      const u = span(t, 'a2', 'unloadOwner(o1)')
      return ended(c, 'fail', OWNER_DISPOSED) && end >= 0 && u !== undefined && u.start > end
    }),
    goal('unload-before-create', (t) => ended(span(t, 'a1', 'create(s1)'), 'fail', /inactive context/)),
    goal('unload-after-publication', (t) => ended(span(t, 'a1', 'create(s1)'), 'ok') && has(t, event('agent/disposed', 's1'))),
  ],
})

const duringRollback = catalogScenario({
  name: 'owner-unload-during-rollback',
  title: 'the owner unloads while a create whose setup rejected is rolling back behind a slow scoped effect',
  groups: ['AGENT-TEARDOWN-TEST', 'AGENT-SETUP-CONTRACT'],
  program: program([
    actor('a1', create('s1', { owner: 'o1', setup: setup(2, { rejectAt: 2, effects: [{ disposer: SLOW }, { disposer: SLOW }] }) }), create('s1', { owner: 'o2' })),
    actor('a2', unloadOwner('o1')),
  ]),
  goals: [
    goal('unload-during-rollback', (t) => {
      const c = span(t, 'a1', 'create(s1)')
      const disposing = indexOf(t, mark('effect:', c?.invoke.tx))
      const u = span(t, 'a2', 'unloadOwner(o1)')
      return ended(c, 'fail', /rejected at step 2/) && disposing >= 0 && u !== undefined && u.start > disposing && u.start < c!.end
    }),
    goal('unload-overtakes-rejection', (t) => ended(span(t, 'a1', 'create(s1)'), 'fail', OWNER_DISPOSED)),
    goal('id-reusable-after-rollback', (t) => {
      const [first, second] = spans(t, 'a1', 'create(s1)')
      return ended(first, 'fail') && ended(second, 'ok')
    }),
  ],
})

const factoryPendingCreate = catalogScenario({
  name: 'factory-unload-pending-create',
  title: 'the factory unloads while a create is pending in a three-step setup, and a second create follows',
  groups: ['AGENT-TEARDOWN-TEST', 'AGENT-FACTORY-SEAM'],
  program: program([
    actor('a1', create('s1', { setup: setup(3) }), create('s2')),
    actor('a2', unloadFactory()),
  ]),
  goals: [
    goal('unload-inside-setup-rejects', (t) => {
      const c = span(t, 'a1', 'create(s1)')
      const w = setupWindow(t, c?.invoke.tx)
      const u = span(t, 'a2', 'unloadFactory')
      return ended(c, 'fail', LOOP_INACTIVE) && w !== undefined && u !== undefined && u.start > w.start && u.start < w.end
    }),
    goal('create-after-unload-rejects', (t) => {
      const u = span(t, 'a2', 'unloadFactory')
      const c = span(t, 'a1', 'create(s2)')
      return ended(c, 'fail') && u !== undefined && c.start > u.end
    }),
    goal('published-then-torn-down', (t) => ended(span(t, 'a1', 'create(s1)'), 'ok') && has(t, event('agent/disposed', 's1'))),
  ],
})

const factoryLiveAgents = catalogScenario({
  name: 'factory-unload-live-agents',
  title: 'the factory unloads under two live agents, one mid-turn, then a handle disposes afterwards',
  groups: ['AGENT-TEARDOWN-TEST', 'AGENT-RUNTIME-SCOPE'],
  program: program([
    actor('a1', create('s1'), followup('s1'), whenIdle('s1'), dispose('s1')),
    actor('a2', create('s2', { owner: 'o2', setup: setup(1, { effects: [{ disposer: SLOW }] }) }), steer('s2')),
    actor('a3', unloadFactory()),
  ], {
    model: { s1: [{ reply: 'delay', ms: 10 }], s2: [{ reply: 'tool' }, { reply: 'text' }] },
  }),
  goals: [
    goal('unload-during-running-turn', (t) => {
      const u = span(t, 'a3', 'unloadFactory')
      return u !== undefined && (statusAt(t, 's1', u.start) === 'running' || statusAt(t, 's2', u.start) === 'running')
    }),
    goal('both-agents-torn-down', (t) => has(t, event('agent/disposed', 's1')) && has(t, event('agent/disposed', 's2'))),
    goal('handle-dispose-after-unload', (t) => {
      const u = span(t, 'a3', 'unloadFactory')
      const d = span(t, 'a1', 'dispose(s1)')
      return ended(d, 'ok') && u !== undefined && d.start > u.end && has(t, event('agent/disposed', 's1'))
    }),
    goal('turn-aborted-by-unload', (t) => sequence(t, event('agent/status', 's1', 'running'), (e) => e.k === 'invoke' && e.what === 'unloadFactory', event('agent/disposed', 's1'))
      && within(t, span(t, 'a3', 'unloadFactory'), (e) => e.k === 'append' && e.type === 'turn/end')),
  ],
})

/** Owner- and factory-unload scenarios. */
export const OWNER_UNLOAD: readonly Scenario[] = [duringSetup, duringRollback, factoryPendingCreate, factoryLiveAgents]
