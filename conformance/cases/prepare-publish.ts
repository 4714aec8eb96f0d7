import assert from 'node:assert/strict'
import type { AgentHandle, AgentSetup, Session } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import type { DirectedCase, Harness } from './harness.js'
import { makeHarness, settle } from './harness.js'
import { assertEmpty, assertNothingPublished, lifecycle, persisted, rejection, rejectsWith } from './lifecycle-helpers.js'

const GROUP = 'AGENT-PREPARE-PUBLISH'

const PUBLISHED = ['session/created', 'agent/created', 'agent/session-start']

/** A setup whose scoped effect records its disposal. */
function probeSetup(): { setup: AgentSetup; readonly disposed: boolean; readonly called: boolean } {
  const state = { disposed: false, called: false }
  return {
    setup: (ctx) => {
      state.called = true
      ctx.effect(() => () => { state.disposed = true }, 'probe')
    },
    get disposed() { return state.disposed },
    get called() { return state.called },
  }
}

export const preparePublishCases: DirectedCase[] = [
  {
    group: GROUP, clause: 55, title: 'inside session/created both registries hold the entries of this session (create and resume)',
    async run(target) {
      const { h } = await persisted(target, 'r1')
      const seen: { id: string; session: boolean; agent: boolean }[] = []
      h.ctx.on('session/created', (session: Session) => {
        seen.push({ id: session.id, session: h.ctx.sessions.get(session.id) === session, agent: h.ctx.agents.get(session.id)?.session === session })
      })
      const created = await h.create('s1')
      const resumed = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      assert.deepEqual(seen, [{ id: 's1', session: true, agent: true }, { id: 'r1', session: true, agent: true }])
      assert.equal(h.ctx.agents.get('s1'), created.agent)
      assert.equal(h.ctx.agents.get('r1'), resumed.agent)
    },
  },
  {
    group: GROUP, clause: 56, title: 'no agent/status during creation; the new agent is idle with an empty session log',
    async run(target) {
      const h = await makeHarness(target)
      const handle = await h.create('s1')
      assert.deepEqual(h.statuses('s1'), [])
      assert.deepEqual(h.names('s1', (o) => o.name === 'session/event'), [])
      assert.equal(handle.agent.status, 'idle')
      assert.deepEqual(handle.agent.session.events, [])
      assert.equal(handle.agent.session.seq, 0)
      assert.deepEqual(lifecycle(h, 's1'), PUBLISHED)
      // The first waking input is what starts the agent (control: the recorder sees statuses).
      handle.agent.followup(h.msg('go'))
      await handle.agent.whenIdle()
      assert.deepEqual(h.statuses('s1'), ['running', 'idle'])
    },
  },
  {
    group: GROUP, clause: 57, title: 'a create with a live id rejects with already exists and leaves the registries unchanged',
    async run(target) {
      const h = await makeHarness(target)
      const live = await h.create('s1')
      await h.create('s2')
      const before = { sessions: h.ctx.sessions.list(), agents: h.ctx.agents.list(), observed: h.observed.length }
      await rejectsWith(h.create('s1'), ERRORS.sessionExists('s1'))
      await rejectsWith(live.agent.ctx.agents.create({ sessionId: 's2' }), ERRORS.sessionExists('s2'))
      await settle()
      assert.equal(h.ctx.sessions.list().length, before.sessions.length)
      assert.deepEqual(h.ctx.sessions.list(), before.sessions)
      assert.deepEqual(h.ctx.agents.list(), before.agents)
      assert.equal(h.observed.length, before.observed, 'the live entries were left untouched')
      assert.equal(h.ctx.agents.get('s1'), live.agent)
    },
  },
  {
    group: GROUP, clause: 58, title: 'a pre-aborted creation signal rejects with the exact reason (non-Error wrapped) and leaves no entries',
    async run(target) {
      const h = await makeHarness(target)
      const reason = new Error('stop')
      const probe = probeSetup()
      assert.equal(await rejection(h.create('s1', { signal: AbortSignal.abort(reason), setup: probe.setup })), reason)
      const plain = Symbol('plain reason')
      const error = await rejectsWith(h.create('s1', { signal: AbortSignal.abort(plain), setup: probe.setup }), ERRORS.creationAborted('s1'))
      assert.equal(error.cause, plain)
      assert.equal(probe.called, false, 'nothing constructed is observable')
      assertEmpty(h)
      assert.deepEqual(h.observed, [])
      await h.create('s1')
    },
  },
  {
    group: GROUP, clause: 59, title: 'an abort landing during scope minting rejects with the reason and leaves no entries',
    needs: ['scopeMinting'],
    async run(target) {
      for (const reason of [new Error('abort while minting'), 'plain reason'] as unknown[]) {
        const controller = new AbortController()
        let armed = true
        const h = await makeHarness(target, {
          scopeCreated: (_fiber, key) => {
            if (armed && (key as { id?: unknown } | undefined)?.id === 's1') { armed = false; controller.abort(reason) }
          },
        })
        const probe = probeSetup()
        const error = await rejection(h.create('s1', { signal: controller.signal, setup: probe.setup }))
        assert.equal(armed, false, "the agent's scope was minted through createScope")
        if (reason instanceof Error) assert.equal(error, reason)
        else {
          assert.equal((error as Error).message, ERRORS.creationAborted('s1'))
          assert.equal((error as Error).cause, reason)
        }
        assert.equal(probe.called, false, 'setup does not run for a creation aborted during construction')
        assertNothingPublished(h, 's1')
        assertEmpty(h)
        await settle()
        assert.deepEqual(h.observed, [])
        const ok = await h.create('s1')
        assert.equal(h.ctx.agents.get('s1'), ok.agent)
        await h.unloadFactory()
        assertEmpty(h)
      }
    },
  },
  {
    group: GROUP, clause: 60, title: 'a session/created listener disposing the owner prevents agent/session-start for that id',
    async run(target) {
      const h = await makeHarness(target)
      const owner = h.owner()
      let unloading: Promise<void> | undefined
      const later: boolean[] = []
      h.ctx.on('session/created', (session) => { if (session.id === 's1') unloading = owner.unload() })
      h.ctx.on('session/created', (session) => {
        if (session.id === 's1') later.push(h.ctx.sessions.get('s1') === session, h.ctx.agents.get('s1')?.session === session)
      })
      await rejectsWith(owner.ctx.agents.create({ sessionId: 's1' }), ERRORS.ownerDisposed('s1'))
      assert.ok(unloading)
      await unloading
      await settle()
      assert.deepEqual(later, [true, true], 'remaining session/created listeners see both entries')
      assert.deepEqual(lifecycle(h, 's1'), ['session/created', 'session/disposed'])
      assert.deepEqual(h.names('s1', (o) => o.name === 'agent/session-start'), [])
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 61, title: 'a session-start listener disposing the owner: no status, empty log, scoped effects disposed, owner-disposed rejection',
    async run(target) {
      const h = await makeHarness(target)
      const owner = h.owner()
      const probe = probeSetup()
      let unloading: Promise<void> | undefined
      let started: AgentHandle['agent'] | undefined
      const later: boolean[] = []
      h.ctx.on('agent/session-start', ({ agent }) => { if (agent.id === 's1') { started = agent; unloading = owner.unload() } })
      h.ctx.on('agent/session-start', ({ agent }) => {
        if (agent.id === 's1') later.push(h.ctx.agents.get('s1') === agent, h.ctx.sessions.get('s1') === agent.session)
      })
      await rejectsWith(owner.ctx.agents.create({ sessionId: 's1', setup: probe.setup }), ERRORS.ownerDisposed('s1'))
      assert.equal(probe.disposed, true, 'scoped effects were disposed before the rejection')
      await unloading
      await settle()
      assert.deepEqual(later, [true, true], 'remaining session-start listeners see both entries')
      assert.deepEqual(h.statuses('s1'), [])
      assert.ok(started)
      assert.deepEqual(started.session.events, [], 'the session log stays empty')
      assert.deepEqual(lifecycle(h, 's1'), [...PUBLISHED, 'agent/disposed', 'session/disposed'])
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 62, title: 'a non-Error thrown by a session/created listener is the exact rejection value (create and resume)',
    async run(target) {
      const { h } = await persisted(target, 'r1')
      const thrown = { notAnError: true }
      let vetoed: string | undefined
      h.ctx.on('session/created', (session) => {
        if (session.id === vetoed) { vetoed = undefined; throw thrown }
      })
      const attempt = async (id: string, start: () => Promise<AgentHandle>, hh: Harness): Promise<void> => {
        vetoed = id
        assert.equal(await rejection(start()), thrown)
        assert.deepEqual(lifecycle(hh, id), ['session/created', 'session/disposed'], 'no agent events after a session/created veto')
        assertEmpty(hh)
      }
      await attempt('s1', () => h.create('s1'), h)
      await attempt('r1', () => h.ctx.agents.resume({ resumeSessionId: 'r1' }), h)
      const ok = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      assert.equal(h.ctx.agents.get('r1'), ok.agent)
    },
  },
  {
    group: GROUP, clause: 57, title: 'a create colliding only in the agent registry rejects already registered and leaves no orphan session (catalog M12)',
    async run(target) {
      const h = await makeHarness(target)
      // A custom agent registered directly, whose own session is not in the store.
      const session = h.ctx.sessions.prepare('s1')
      const custom = { id: 's1', session } as unknown as import('../../core/contract.js').Agent
      const unregister = h.ctx.agents.register(custom)
      const before = h.ctx.sessions.list().length
      await assert.rejects(h.create('s1'), /already (registered|exists)/)
      assert.equal(h.ctx.sessions.list().length, before, 'the loser left a session in the store')
      assert.equal(h.ctx.sessions.get('s1'), undefined)
      assert.equal(h.ctx.agents.get('s1'), custom, 'the registered agent is untouched')
      await unregister()
      const { dispose } = await h.create('s1')
      assert.equal(h.ctx.sessions.list().length, before + 1)
      await dispose()
    },
  },
]
