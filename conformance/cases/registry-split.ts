/**
 * AGENT-REGISTRY-LIFECYCLE 71–79 and AGENT-REGISTRY-TEST 80–84: the agent registry's enter/announce/
 * detach split, register, ownership and order, checked on the runtime under test through its public
 * surface (`ctx.agents` with stub agents: the registry reads only `id` and `session`).
 * @module
 */
import assert from 'node:assert/strict'
import type { Agent } from '../../core/contract.js'
import type { CaseTarget, DirectedCase } from './harness.js'
import { makeHarness, settle } from './harness.js'

/** A fresh process, a lifecycle log and stub agents over sessions prepared in its store. */
async function world(target: CaseTarget) {
  const h = await makeHarness(target)
  const log: string[] = []
  const record = (): void => {
    h.ctx.on('agent/created', ({ agent }) => { log.push(`created:${agent.id}`) })
    h.ctx.on('agent/disposed', ({ agent }) => { log.push(`disposed:${agent.id}`) })
  }
  /** A stub agent: the registry only reads `id` and `session`. */
  const stub = (id: string, sessionId = id): Agent => ({ id, session: h.ctx.sessions.prepare(sessionId) }) as unknown as Agent
  return { h, ctx: h.ctx, agents: h.ctx.agents, warnings: h.warnings, log, record, stub }
}

export const registrySplitCases: DirectedCase[] = [
  {
    group: 'AGENT-REGISTRY-LIFECYCLE', clause: 71, title: 'enter emits no event; announce emits exactly one agent/created',
    async run(target) {
      const w = await world(target)
      const payloads: unknown[] = []
      w.ctx.on('agent/created', (p) => { payloads.push(p) })
      w.ctx.on('agent/disposed', (p) => { payloads.push(p) })
      const a = w.stub('a')
      w.agents.enter(a, undefined)
      assert.deepEqual(payloads, [])
      assert.equal(w.agents.get('a'), a, 'entered means findable')
      assert.deepEqual(w.agents.list(), [a])
      w.agents.announce(a)
      assert.equal(payloads.length, 1)
      assert.deepEqual(payloads[0], { agent: a })
      assert.equal((payloads[0] as { agent: Agent }).agent, a)
    },
  },
  {
    group: 'AGENT-REGISTRY-LIFECYCLE', clause: 72, title: 'enter with agent.id ≠ session.id throws the mismatch error and inserts nothing',
    async run(target) {
      const w = await world(target)
      w.record()
      const bad = w.stub('a', 's')
      assert.throws(() => w.agents.enter(bad, undefined), /agent id "a" does not match session id "s"/)
      assert.equal(w.agents.get('a'), undefined)
      assert.equal(w.agents.get('s'), undefined)
      assert.deepEqual(w.agents.list(), [])
      assert.throws(() => w.agents.register(bad), /does not match session id/)
      assert.deepEqual(w.agents.list(), [])
      assert.deepEqual(w.log, [])
    },
  },
  {
    group: 'AGENT-REGISTRY-LIFECYCLE', clause: 73, title: 'register/enter of a live id throws already registered and keeps the live entry',
    async run(target) {
      const w = await world(target)
      w.record()
      const first = w.stub('x')
      w.agents.enter(first, undefined)
      w.agents.announce(first)
      const second = w.stub('x')
      assert.throws(() => w.agents.enter(second, undefined), /agent "x" is already registered/)
      assert.throws(() => w.agents.register(second), /agent "x" is already registered/)
      assert.throws(() => w.agents.enter(first, undefined), /agent "x" is already registered/)
      assert.equal(w.agents.get('x'), first)
      assert.deepEqual(w.agents.list(), [first])
      assert.deepEqual(w.log, ['created:x'])
    },
  },
  {
    group: 'AGENT-REGISTRY-LIFECYCLE', clause: 74, title: 'a second announce (direct or from a created listener) throws already announced',
    async run(target) {
      const w = await world(target)
      w.record()
      const a = w.stub('a')
      w.agents.enter(a, undefined)
      let reentrant: unknown
      w.ctx.on('agent/created', ({ agent }) => {
        try { w.agents.announce(agent) } catch (error) { reentrant = error }
      })
      w.agents.announce(a)
      assert.match(String((reentrant as Error)?.message), /agent "a" was already announced/)
      assert.throws(() => w.agents.announce(a), /agent "a" was already announced/)
      assert.deepEqual(w.log, ['created:a'], 'exactly one created')
    },
  },
  {
    group: 'AGENT-REGISTRY-LIFECYCLE', clause: 75, title: 'announce of an object that is not the live entry (never entered, stale, detached) throws not live',
    async run(target) {
      const w = await world(target)
      w.record()
      assert.throws(() => w.agents.announce(w.stub('never')), /agent "never" is not live in this registry/)
      const live = w.stub('x')
      const detach = w.agents.enter(live, undefined)
      const stale = w.stub('x')
      assert.throws(() => w.agents.announce(stale), /agent "x" is not live in this registry/)
      detach()
      assert.throws(() => w.agents.announce(live), /agent "x" is not live in this registry/)
      assert.deepEqual(w.log, [])
    },
  },
  {
    group: 'AGENT-REGISTRY-LIFECYCLE', clause: 76, title: 'detach is idempotent; a stale detach after a same-id replacement entered leaves the replacement registered',
    async run(target) {
      const w = await world(target)
      w.record()
      const a1 = w.stub('x')
      const detach1 = w.agents.enter(a1, undefined)
      w.agents.announce(a1)
      detach1()
      detach1()
      assert.deepEqual(w.log, ['created:x', 'disposed:x'])
      const a2 = w.stub('x')
      const detach2 = w.agents.enter(a2, undefined)
      w.agents.announce(a2)
      detach1()
      assert.equal(w.agents.get('x'), a2)
      assert.deepEqual(w.log, ['created:x', 'disposed:x', 'created:x'])

      detach2()
      assert.equal(w.agents.get('x'), undefined)
    },
  },
  {
    group: 'AGENT-REGISTRY-LIFECYCLE', clause: 77, title: 'the split sequence enter, announce, detach, re-enter, stale detach, detach yields exactly [created, disposed]',
    async run(target) {
      const w = await world(target)
      const events: string[] = []
      w.ctx.on('agent/created', () => { events.push('created') })
      w.ctx.on('agent/disposed', () => { events.push('disposed') })
      const first = w.stub('x')
      const detachFirst = w.agents.enter(first, undefined)
      w.agents.announce(first)
      detachFirst()
      const second = w.stub('x')
      const detachSecond = w.agents.enter(second, undefined)
      detachFirst()
      assert.equal(w.agents.get('x'), second, 'the stale detach left the replacement')
      detachSecond()
      assert.equal(w.agents.get('x'), undefined)
      assert.deepEqual(events, ['created', 'disposed'])
    },
  },
  {
    group: 'AGENT-REGISTRY-LIFECYCLE', clause: 78, title: 'a created listener calling detach: it and later listeners still see the entry; disposed fires after all created listeners; entry gone afterwards',
    async run(target) {
      const w = await world(target)
      const a = w.stub('a')
      const detach = w.agents.enter(a, undefined)
      const trace: string[] = []
      const live = () => (w.agents.get('a') === a ? 'live' : 'gone')
      w.ctx.on('agent/created', () => {
        detach()
        trace.push(`first:${live()}`)
      })
      w.ctx.on('agent/created', () => { trace.push(`second:${live()}`) })
      w.ctx.on('agent/disposed', ({ agent }) => { trace.push(`disposed:${agent === a}:${live()}`) })
      w.agents.announce(a)
      assert.deepEqual(trace, ['first:live', 'second:live', 'disposed:true:gone'])
      assert.equal(w.agents.get('a'), undefined)
      assert.deepEqual(w.agents.list(), [])
    },
  },
  {
    group: 'AGENT-REGISTRY-LIFECYCLE', clause: 78, title: 'a deferred detach is performed before a later listener\'s veto propagates',
    async run(target) {
      const w = await world(target)
      const a = w.stub('a')
      const detach = w.agents.enter(a, undefined)
      const trace: string[] = []
      const boom = new Error('veto')
      w.ctx.on('agent/created', () => { detach(); trace.push('first') })
      w.ctx.on('agent/created', () => { trace.push('second'); throw boom })
      w.ctx.on('agent/disposed', () => { trace.push('disposed') })
      assert.throws(() => w.agents.announce(a), (e) => e === boom)
      assert.deepEqual(trace, ['first', 'second', 'disposed'])
      assert.equal(w.agents.get('a'), undefined)
    },
  },
  {
    group: 'AGENT-REGISTRY-LIFECYCLE', clause: 79, title: 'detach of an entered-but-never-announced entry emits no agent/disposed',
    async run(target) {
      const w = await world(target)
      w.record()
      const a = w.stub('a')
      const detach = w.agents.enter(a, undefined)
      detach()
      assert.equal(w.agents.get('a'), undefined)
      assert.deepEqual(w.log, [])
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 80, title: 'a throwing agent/created listener: register throws it, the entry is removed, log [created, disposed]',
    async run(target) {
      const w = await world(target)
      const events: string[] = []
      w.ctx.on('agent/created', () => { events.push('created') })
      const boom = new Error('veto')
      w.ctx.on('agent/created', () => { throw boom })
      const after: string[] = []
      w.ctx.on('agent/created', () => { after.push('later') })
      w.ctx.on('agent/disposed', () => { events.push('disposed') })
      const owner = w.h.owner('owner')
      const a = w.stub('a')
      assert.throws(() => owner.ctx.agents.register(a), (e) => e === boom)
      assert.deepEqual(events, ['created', 'disposed'])
      assert.deepEqual(after, [], 'later created listeners do not run after a veto')
      assert.equal(w.agents.get('a'), undefined)
      // The id is free again.
      const again = w.stub('a')
      w.agents.enter(again, undefined)
      assert.equal(w.agents.get('a'), again)
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 81, title: 'an async-rejecting agent/created listener does not roll back; a warning is logged',
    needs: ['warnings'],
    async run(target) {
      const w = await world(target)
      w.record()
      const late = new Error('late veto')
      w.ctx.on('agent/created', async () => { throw late })
      const a = w.stub('a')
      w.agents.register(a)
      assert.equal(w.agents.get('a'), a)
      await settle()
      assert.equal(w.agents.get('a'), a)
      assert.deepEqual(w.log, ['created:a'])
      assert.ok(w.h.logged(late), 'the rejection is logged')
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 82, title: 'sync-throwing and async-rejecting agent/disposed listeners are each logged and a later listener still receives the event',
    needs: ['warnings'],
    async run(target) {
      const w = await world(target)
      const syncErr = new Error('sync disposed')
      const asyncErr = new Error('async disposed')
      const trace: string[] = []
      w.ctx.on('agent/disposed', () => { trace.push('sync'); throw syncErr })
      w.ctx.on('agent/disposed', async () => { trace.push('async'); throw asyncErr })
      w.ctx.on('agent/disposed', ({ agent }) => { trace.push(`later:${agent.id}:${w.agents.get(agent.id) === undefined}`) })
      const a = w.stub('a')
      const dispose = w.agents.register(a)
      assert.doesNotThrow(() => dispose())
      assert.deepEqual(trace, ['sync', 'async', 'later:a:true'])
      assert.equal(w.agents.get('a'), undefined)
      await settle()
      assert.ok(w.h.logged(syncErr), 'sync throw logged')
      assert.ok(w.h.logged(asyncErr), 'async rejection logged')
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 83, title: 'register unregisters (with agent/disposed) when the calling fiber unloads',
    async run(target) {
      const w = await world(target)
      w.record()
      const owner = w.h.owner('owner')
      const a = w.stub('a')
      const b = w.stub('b')
      owner.ctx.agents.register(a)
      w.agents.register(b)
      assert.deepEqual(w.log, ['created:a', 'created:b'])
      await owner.unload()
      assert.equal(w.agents.get('a'), undefined)
      assert.equal(w.agents.get('b'), b, 'an agent registered on another fiber stays')
      assert.deepEqual(w.log, ['created:a', 'created:b', 'disposed:a'])
      assert.throws(() => owner.ctx.agents.register(w.stub('c')), /cannot create effect on inactive context/)
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 83, title: 'the register disposer unregisters once; a later fiber unload does not emit again',
    async run(target) {
      const w = await world(target)
      w.record()
      const owner = w.h.owner('owner')
      const a = w.stub('a')
      const dispose = owner.ctx.agents.register(a)
      await dispose()
      await dispose()
      await owner.unload()
      assert.deepEqual(w.log, ['created:a', 'disposed:a'])
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 83, title: 'register records the calling context\'s agent as the owner',
    async run(target) {
      const w = await world(target)
      const { agent: parent } = await w.h.create('p')
      const child = w.stub('c')
      parent.ctx.agents.register(child)
      assert.equal(w.agents.isOwnedBy('c', parent), true)
      assert.equal(w.agents.isOwnedBy('p', parent), false)
      assert.deepEqual(w.agents.roots(), [parent])
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 84, title: 'list() and roots() follow enter order and return fresh arrays',
    async run(target) {
      const w = await world(target)
      const c = w.stub('c')
      const a = w.stub('a')
      const b = w.stub('b')
      const owned = w.stub('owned')
      w.agents.enter(c, undefined)
      const detachA = w.agents.enter(a, undefined)
      w.agents.enter(owned, c)
      w.agents.enter(b, undefined)
      assert.deepEqual(w.agents.list(), [c, a, owned, b], 'enter order, not id order')
      assert.deepEqual(w.agents.roots(), [c, a, b])
      const list = w.agents.list()
      const roots = w.agents.roots()
      assert.notEqual(list, w.agents.list())
      assert.notEqual(roots, w.agents.roots())
      list.length = 0
      roots.push(owned)
      assert.equal(w.agents.list().length, 4, 'mutating a returned array does not touch the registry')
      assert.deepEqual(w.agents.roots(), [c, a, b])
      detachA()
      const a2 = w.stub('a')
      w.agents.enter(a2, undefined)
      assert.deepEqual(w.agents.list(), [c, owned, b, a2], 're-entering moves the id to the end')
      assert.deepEqual(w.agents.roots(), [c, b, a2])
    },
  },
]
