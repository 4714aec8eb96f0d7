/**
 * Reentrant teardown: the owner fiber (or the factory, or a handle) disposed from inside the
 * publication events `session/created`, `agent/created` and `agent/session-start`, and from inside
 * the driver's own notifications.
 * @module
 */
import type { EventName } from '../../core/contract.js'
import { act, actor, create, dispose, followup, on, program, setup, SLOW, unloadFactory, unloadOwner } from '../../sim/program/build.js'
import { ended, event, has, indexOf, mark, sequence, setupWindow, span, spans } from './goals.js'
import { catalogScenario, goal } from './scenario.js'
import type { Scenario } from './scenario.js'

const OWNER_DISPOSED = /owner disposed during setup/

function unloadFrom(edge: EventName, name: string, groups: Scenario['groups']): Scenario {
  return catalogScenario({
    name,
    title: `a ${edge} listener unloads the creating owner fiber from inside the dispatch, while a neighbour publishes`,
    groups,
    program: program([
      actor('a1', create('s1', { owner: 'o1', setup: setup(1, { effects: [{ disposer: SLOW }] }) }), create('s1', { owner: 'o3' })),
      actor('a2', create('s2', { owner: 'o2', setup: setup(1) }), dispose('s2')),
    ], {
      listeners: [on(edge, act(unloadOwner('o1')), { session: 's1' })],
    }),
    goals: [
      goal('create-rejected-owner-disposed', (t) => ended(span(t, 'a1', 'create(s1)'), 'fail', OWNER_DISPOSED)),
      goal('id-reused-after-reentrant-unload', (t) => {
        const [first, second] = spans(t, 'a1', 'create(s1)')
        return ended(first, 'fail') && ended(second, 'ok')
      }),
      goal('neighbour-published-during-rollback', (t) => sequence(t,
        (e) => e.k === 'invoke' && e.actor === 'inline' && e.what.startsWith('unloadOwner(o1)'),
        event('session/created', 's2'),
        event('session/disposed', 's1'))),
      goal('neighbour-disposed-during-rollback', (t) => sequence(t,
        (e) => e.k === 'invoke' && e.actor === 'inline' && e.what.startsWith('unloadOwner(o1)'),
        event('agent/disposed', 's2'),
        event('session/disposed', 's1'))),
    ],
  })
}

const fromSessionCreated = unloadFrom('session/created', 'reentrant-unload-from-session-created', ['AGENT-TEARDOWN-TEST', 'AGENT-PREPARE-PUBLISH', 'AGENT-REGISTRY-TEST'])
const fromAgentCreated = unloadFrom('agent/created', 'reentrant-unload-from-agent-created', ['AGENT-TEARDOWN-TEST', 'AGENT-REGISTRY-LIFECYCLE'])
const fromSessionStart = unloadFrom('agent/session-start', 'reentrant-unload-from-session-start', ['AGENT-PREPARE-PUBLISH', 'AGENT-TEARDOWN-TEST'])

const factoryFromPublication = catalogScenario({
  name: 'reentrant-factory-unload-from-publication',
  title: 'an agent/created listener unloads the factory while two creates publish',
  groups: ['AGENT-TEARDOWN-TEST', 'AGENT-FACTORY-SEAM'],
  program: program([
    actor('a1', create('s1', { setup: setup(1) })),
    actor('a2', create('s2', { setup: setup(2) })),
  ], { listeners: [on('agent/created', act(unloadFactory()))] }),
  goals: [
    // A factory unload that begins inside agent/created stops publication at the next liveness
    // re-check (§3.1): no agent/session-start, and the create rejects `agent loop is not active`.
    goal('unload-inside-publication-stops-it', (t) => sequence(t, event('agent/created'),
      (e) => e.k === 'invoke' && e.actor === 'inline' && e.what.startsWith('unloadFactory'),
      (e) => e.k === 'outcome' && e.what.startsWith('create(') && e.status === 'fail' && /agent loop is not active/.test(e.detail))),
    goal('other-create-inside-setup-at-unload', (t) => {
      const u = indexOf(t, (e) => e.k === 'invoke' && e.actor === 'inline')
      return u >= 0 && spans(t, undefined, /^create\(/).some((s) => {
        const w = setupWindow(t, s.invoke.tx)
        return ended(s, 'fail', /agent loop is not active/) && w !== undefined && w.start < u && w.end > u
      })
    }),
    goal('other-create-rejected-at-begin', (t) => spans(t, undefined, /^create\(/).some((s) => ended(s, 'fail') &&
      !has(t, mark('@setup:start', s.invoke.tx)))),
  ],
})

const staleDispose = catalogScenario({
  name: 'reentrant-stale-dispose-in-publication',
  title: "a session/created listener disposes the previous (already torn down) handle of the id being republished",
  groups: ['AGENT-TEARDOWN-TEST', 'AGENT-REGISTRY-TEST'],
  program: program([
    actor('a1', create('s1', { setup: setup(1) }), dispose('s1'), create('s1', { setup: setup(1) }), followup('s1')),
    actor('a2', create('s1')),
  ], { listeners: [on('session/created', act(dispose('s1')), { session: 's1', times: 3 })] }),
  goals: [
    goal('stale-dispose-during-republication', (t) => {
      const [, again] = spans(t, undefined, 'create(s1)').filter((s) => ended(s, 'ok'))
      return again !== undefined && spans(t, 'inline', 'dispose(s1)').some((d) => d.start > indexOf(t, event('agent/disposed', 's1')) && d.start < again.end)
    }),
    goal('republished-agent-runs-a-turn', (t) => has(t, (e) => e.k === 'append' && e.id === 's1' && e.type === 'turn/end')),
    goal('dispose-with-no-handle-yet', (t) => spans(t, 'inline', 'dispose(s1)').some((d) => ended(d, 'info', 'no handle'))),
  ],
})

const fromDriver = catalogScenario({
  name: 'reentrant-dispose-from-driver-events',
  title: 'handles disposed from inside agent/status(running), agent/inbox/claimed and agent/turn-stopping of their own agent',
  groups: ['AGENT-TEARDOWN-TEST', 'X-CANCEL'],
  program: program([
    actor('a1', create('s1'), followup('s1'), followup('s1')),
    actor('a2', create('s2'), followup('s2'), followup('s2')),
    actor('a3', create('s3'), followup('s3'), followup('s3')),
  ], {
    listeners: [
      on('agent/status', act(dispose('s1')), { session: 's1' }),
      on('agent/inbox/claimed', act(dispose('s2')), { session: 's2' }),
      on('agent/turn-stopping', act(dispose('s3')), { session: 's3' }),
    ],
    model: { s2: [{ reply: 'delay', ms: 3 }], s3: [{ reply: 'tool' }, { reply: 'text' }] },
  }),
  goals: [
    goal('all-three-disposed-reentrantly', (t) => ['s1', 's2', 's3'].every((id) => ended(span(t, 'inline', `dispose(${id})`), 'ok'))),
    goal('two-teardowns-overlap', (t) => {
      const ds = ['s1', 's2', 's3'].map((id) => span(t, 'inline', `dispose(${id})`)).filter((s) => s !== undefined)
      return ds.some((a) => ds.some((b) => a !== b && a.start < b.start && b.start < a.end))
    }),
    goal('late-followup-after-running-dispose', (t) => {
      const d = span(t, 'inline', 'dispose(s1)')
      return d !== undefined && spans(t, 'a1', 'followup(s1)').some((f) => f.start > d.start && f.start < d.end)
    }),
  ],
})

const parentUnload = catalogScenario({
  name: 'reentrant-parent-unload-from-child-created',
  title: "a child's agent/created listener unloads the parent's owner fiber while another child is being created",
  groups: ['AGENT-TEARDOWN-TEST', 'AGENT-FACTORY-SEAM'],
  program: program([
    actor('a1', create('p1', { owner: 'o1' }), create('c1', { parent: 'p1', setup: setup(1) }), followup('c1')),
    actor('a2', followup('p1'), create('c2', { parent: 'p1', setup: setup(1) })),
  ], { listeners: [on('agent/created', act(unloadOwner('o1')), { session: 'c1' })] }),
  goals: [
    goal('children-torn-down-before-parent', (t) => sequence(t, event('agent/disposed', 'c1'), event('agent/disposed', 'p1'))),
    goal('sibling-created-during-parent-teardown', (t) => sequence(t,
      (e) => e.k === 'invoke' && e.actor === 'inline' && e.what.startsWith('unloadOwner(o1)'),
      event('session/created', 'c2'),
      event('agent/disposed', 'p1'))),
    goal('sibling-rejected-by-dying-parent', (t) => {
      const c = span(t, 'a2', 'create(c2)')
      return (ended(c, 'fail') || ended(c, 'info')) && c.start > indexOf(t, (e) => e.k === 'invoke' && e.actor === 'inline')
    }),
    goal('parent-running-at-unload', (t) => sequence(t, event('agent/status', 'p1', 'running'),
      (e) => e.k === 'invoke' && e.actor === 'inline', event('agent/status', 'p1', 'idle'))),
  ],
})

/** Reentrant teardown scenarios. */
export const REENTRANT: readonly Scenario[] = [fromSessionCreated, fromAgentCreated, fromSessionStart, factoryFromPublication, staleDispose, fromDriver, parentUnload]
