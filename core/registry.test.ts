import assert from 'node:assert/strict'
import { describe, it } from 'vitest'
import { settle } from './gates.js'
import type { Agent } from './contract.js'
import { createRoot } from './root.js'

function world() {
  const warnings: { message: string; error: unknown }[] = []
  const root = createRoot({ now: () => 1, warn: (message, error) => { warnings.push({ message, error }) } })
  const log: string[] = []
  const record = () => {
    root.ctx.on('agent/created', ({ agent }) => { log.push(`created:${agent.id}`) })
    root.ctx.on('agent/disposed', ({ agent }) => { log.push(`disposed:${agent.id}`) })
  }
  /** A stub agent: the registry only reads `id` and `session`. */
  const stub = (id: string, sessionId = id): Agent => ({ id, session: root.ctx.sessions.prepare(sessionId) }) as unknown as Agent
  return { root, ctx: root.ctx, agents: root.ctx.agents, warnings, log, record, stub }
}

describe('AGENT-REGISTRY-LIFECYCLE / AGENT-REGISTRY-TEST: registry enter/announce split', () => {
  it('AGENT-REGISTRY-LIFECYCLE 71: enter emits no event; announce emits exactly one agent/created', () => {
    const w = world()
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
  })

  it('AGENT-REGISTRY-LIFECYCLE 72: enter with agent.id ≠ session.id throws the mismatch error and inserts nothing', () => {
    const w = world()
    w.record()
    const bad = w.stub('a', 's')
    assert.throws(() => w.agents.enter(bad, undefined), /agent id "a" does not match session id "s"/)
    assert.equal(w.agents.get('a'), undefined)
    assert.equal(w.agents.get('s'), undefined)
    assert.deepEqual(w.agents.list(), [])
    assert.throws(() => w.agents.register(bad), /does not match session id/)
    assert.deepEqual(w.agents.list(), [])
    assert.deepEqual(w.log, [])
  })

  it('AGENT-REGISTRY-LIFECYCLE 73: register/enter of a live id throws already registered and keeps the live entry', () => {
    const w = world()
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
  })

  it('AGENT-REGISTRY-LIFECYCLE 74: a second announce (direct or from a created listener) throws already announced', () => {
    const w = world()
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
  })

  it('AGENT-REGISTRY-LIFECYCLE 75: announce of an object that is not the live entry (never entered, stale, detached) throws not live', () => {
    const w = world()
    w.record()
    assert.throws(() => w.agents.announce(w.stub('never')), /agent "never" is not live in this registry/)
    const live = w.stub('x')
    const detach = w.agents.enter(live, undefined)
    const stale = w.stub('x')
    assert.throws(() => w.agents.announce(stale), /agent "x" is not live in this registry/)
    detach()
    assert.throws(() => w.agents.announce(live), /agent "x" is not live in this registry/)
    assert.deepEqual(w.log, [])
  })

  it('AGENT-REGISTRY-LIFECYCLE 76: detach is idempotent; a stale detach after a same-id replacement entered leaves the replacement registered', () => {
    const w = world()
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
  })

  it('AGENT-REGISTRY-LIFECYCLE 77: the split sequence enter, announce, detach, re-enter, stale detach, detach yields exactly [created, disposed]', () => {
    const w = world()
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
  })

  it('AGENT-REGISTRY-LIFECYCLE 78: a created listener calling detach: it and later listeners still see the entry; disposed fires after all created listeners; entry gone afterwards', () => {
    const w = world()
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
  })

  it('AGENT-REGISTRY-LIFECYCLE 78: a deferred detach is performed before a later listener\'s veto propagates', () => {
    const w = world()
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
  })

  it('AGENT-REGISTRY-LIFECYCLE 79: detach of an entered-but-never-announced entry emits no agent/disposed', () => {
    const w = world()
    w.record()
    const a = w.stub('a')
    const detach = w.agents.enter(a, undefined)
    detach()
    assert.equal(w.agents.get('a'), undefined)
    assert.deepEqual(w.log, [])
  })

  it('AGENT-REGISTRY-TEST 80: a throwing agent/created listener: register throws it, the entry is removed, log [created, disposed]', () => {
    const w = world()
    const events: string[] = []
    w.ctx.on('agent/created', () => { events.push('created') })
    const boom = new Error('veto')
    w.ctx.on('agent/created', () => { throw boom })
    const after: string[] = []
    w.ctx.on('agent/created', () => { after.push('later') })
    w.ctx.on('agent/disposed', () => { events.push('disposed') })
    const owner = w.ctx.createScope(undefined, 'owner')
    const a = w.stub('a')
    assert.throws(() => owner.ctx.agents.register(a), (e) => e === boom)
    assert.deepEqual(events, ['created', 'disposed'])
    assert.deepEqual(after, [], 'later created listeners do not run after a veto')
    assert.equal(w.agents.get('a'), undefined)
    assert.deepEqual(owner.ctx.fiber.effectLabels(), [], 'the failed register left no effect on the caller fiber')
    // The id is free again.
    const again = w.stub('a')
    w.agents.enter(again, undefined)
    assert.equal(w.agents.get('a'), again)
  })

  it('AGENT-REGISTRY-TEST 81: an async-rejecting agent/created listener does not roll back; a warning is logged', async () => {
    const w = world()
    w.record()
    const late = new Error('late veto')
    w.ctx.on('agent/created', async () => { throw late })
    const a = w.stub('a')
    w.agents.register(a)
    assert.equal(w.agents.get('a'), a)
    await settle()
    assert.equal(w.agents.get('a'), a)
    assert.deepEqual(w.log, ['created:a'])
    assert.ok(w.warnings.some((x) => x.error === late), 'the rejection is logged')
  })

  it('AGENT-REGISTRY-TEST 82: sync-throwing and async-rejecting agent/disposed listeners are each logged and a later listener still receives the event', async () => {
    const w = world()
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
    const logged = w.warnings.map((x) => x.error)
    assert.ok(logged.includes(syncErr), 'sync throw logged')
    assert.ok(logged.includes(asyncErr), 'async rejection logged')
  })

  it('AGENT-REGISTRY-TEST 83: register unregisters (with agent/disposed) when the calling fiber unloads', async () => {
    const w = world()
    w.record()
    const owner = w.ctx.createScope(undefined, 'owner')
    const a = w.stub('a')
    const b = w.stub('b')
    owner.ctx.agents.register(a)
    w.agents.register(b)
    assert.deepEqual(owner.ctx.fiber.effectLabels(), ['agents.register(a)'])
    assert.deepEqual(w.log, ['created:a', 'created:b'])
    await owner.dispose()
    assert.equal(w.agents.get('a'), undefined)
    assert.equal(w.agents.get('b'), b, 'an agent registered on another fiber stays')
    assert.deepEqual(w.log, ['created:a', 'created:b', 'disposed:a'])
    assert.throws(() => owner.ctx.agents.register(w.stub('c')), /cannot create effect on inactive context/)
  })

  it('AGENT-REGISTRY-TEST 83: the register disposer unregisters once; a later fiber unload does not emit again', async () => {
    const w = world()
    w.record()
    const owner = w.ctx.createScope(undefined, 'owner')
    const a = w.stub('a')
    const dispose = owner.ctx.agents.register(a)
    await dispose()
    assert.deepEqual(owner.ctx.fiber.effectLabels(), [], 'the effect removed itself')
    await dispose()
    await owner.dispose()
    assert.deepEqual(w.log, ['created:a', 'disposed:a'])
  })

  it('AGENT-REGISTRY-TEST 83: register records the calling context\'s agent as the owner', () => {
    const w = world()
    const parent = w.stub('p')
    w.agents.register(parent)
    const parentCtx = w.ctx.createScope(parent, 'p-scope').ctx.extend({ agent: parent })
    const child = w.stub('c')
    parentCtx.agents.register(child)
    assert.equal(w.agents.isOwnedBy('c', parent), true)
    assert.equal(w.agents.isOwnedBy('p', parent), false)
    assert.deepEqual(w.agents.roots(), [parent])
  })

  it('AGENT-REGISTRY-TEST 84: list() and roots() follow enter order and return fresh arrays', () => {
    const w = world()
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
  })
})
