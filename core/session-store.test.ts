import assert from 'node:assert/strict'
import { describe, it } from 'vitest'
import { settle } from './gates.js'
import type { Context, Session } from './contract.js'
import { createRoot } from './root.js'

function world() {
  const warnings: { message: string; error: unknown }[] = []
  const root = createRoot({ now: () => 1, warn: (message, error) => { warnings.push({ message, error }) } })
  const log: string[] = []
  /** Record session lifecycle events (created/disposed) heard by an untagged root listener. */
  const record = (ctx: Context = root.ctx) => {
    ctx.on('session/created', (s) => { log.push(`created:${s.id}`) })
    ctx.on('session/disposed', (s) => { log.push(`disposed:${s.id}`) })
  }
  return { root, ctx: root.ctx, warnings, log, record }
}

describe('AGENT-REGISTRY-TEST: session store enter/announce/detach', () => {
  it('AGENT-REGISTRY-TEST 85: enter of a stale prepared session whose id is live throws already exists and keeps the live entry', () => {
    const w = world()
    w.record()
    const stale = w.ctx.sessions.prepare('x')
    const live = w.ctx.sessions.prepare('x')
    assert.notEqual(stale, live)
    const detachLive = w.ctx.sessions.enter(live)
    w.ctx.sessions.announce(live)
    assert.throws(() => w.ctx.sessions.prepare('x'), /session "x" already exists/, 'prepare checks liveness now')
    assert.throws(() => w.ctx.sessions.enter(stale), /session "x" already exists/)
    assert.equal(w.ctx.sessions.get('x'), live)
    assert.deepEqual(w.ctx.sessions.list(), [live])
    assert.throws(() => w.ctx.sessions.announce(stale), /session "x" is not live in this store/)
    // The failed enter left the stale object untouched: it is not attached and publishes nothing.
    const heard: string[] = []
    w.ctx.on('session/event', (s) => { heard.push(s === live ? 'live' : 'stale') })
    stale.append('t', null)
    assert.deepEqual(heard, [])
    assert.deepEqual(w.log, ['created:x'])
    // Once the live entry leaves, the stale object can enter.
    detachLive()
    w.ctx.sessions.enter(stale)
    assert.equal(w.ctx.sessions.get('x'), stale)
  })

  it('AGENT-REGISTRY-TEST 86: one Session object cannot be entered in two stores at once', () => {
    const a = world()
    const b = world()
    const session = a.ctx.sessions.prepare('x')
    const detach = a.ctx.sessions.enter(session)
    assert.throws(() => b.ctx.sessions.enter(session), /session "x" is already attached to a store/)
    assert.equal(b.ctx.sessions.get('x'), undefined)
    assert.deepEqual(b.ctx.sessions.list(), [])
    assert.equal(a.ctx.sessions.get('x'), session)
    // Appends still publish only in store A.
    const heardA: number[] = []
    const heardB: number[] = []
    a.ctx.on('session/event', (_s, e) => { heardA.push(e.seq) })
    b.ctx.on('session/event', (_s, e) => { heardB.push(e.seq) })
    session.append('t', null)
    assert.deepEqual([heardA, heardB], [[0], []])
    // After leaving A it may enter B.
    detach()
    b.ctx.sessions.enter(session)
    session.append('t', null)
    assert.deepEqual([heardA, heardB], [[0], [1]])
  })

  it('AGENT-REGISTRY-TEST 87: prepare alone does not enter; enter alone does not announce; detach twice is harmless', () => {
    const w = world()
    w.record()
    const session = w.ctx.sessions.prepare('x')
    assert.equal(w.ctx.sessions.get('x'), undefined)
    assert.deepEqual(w.ctx.sessions.list(), [])
    assert.throws(() => w.ctx.sessions.announce(session), /session "x" is not live in this store/)

    const detach = w.ctx.sessions.enter(session)
    assert.equal(w.ctx.sessions.get('x'), session)
    assert.deepEqual(w.log, [], 'enter emits nothing')

    w.ctx.sessions.announce(session)
    assert.deepEqual(w.log, ['created:x'])
    assert.throws(() => w.ctx.sessions.announce(session), /session "x" was already announced/)
    assert.deepEqual(w.log, ['created:x'], 'a failed second announce emits nothing')

    detach()
    detach()
    assert.deepEqual(w.log, ['created:x', 'disposed:x'])
    assert.equal(w.ctx.sessions.get('x'), undefined)

    // An entered-but-never-announced session leaves without session/disposed.
    const quiet = w.ctx.sessions.prepare('q')
    const detachQuiet = w.ctx.sessions.enter(quiet)
    detachQuiet()
    assert.equal(w.ctx.sessions.get('q'), undefined)
    assert.deepEqual(w.log, ['created:x', 'disposed:x'])
  })

  it('AGENT-REGISTRY-TEST 87: a reentrant announce from a session/created listener throws already announced', () => {
    const w = world()
    const session = w.ctx.sessions.prepare('x')
    w.ctx.sessions.enter(session)
    let reentrant: unknown
    w.ctx.on('session/created', (s) => {
      try { w.ctx.sessions.announce(s) } catch (error) { reentrant = error }
    })
    w.ctx.sessions.announce(session)
    assert.match(String((reentrant as Error)?.message), /session "x" was already announced/)
  })

  it('AGENT-REGISTRY-TEST 88: a session/created listener\'s detach is deferred until the dispatch unwinds; session/disposed then fires with the entry gone', () => {
    const w = world()
    const session = w.ctx.sessions.prepare('x')
    const detach = w.ctx.sessions.enter(session)
    const trace: string[] = []
    const live = () => (w.ctx.sessions.get('x') === session ? 'live' : 'gone')
    w.ctx.on('session/created', () => {
      detach()
      trace.push(`first:${live()}`)
    })
    w.ctx.on('session/created', () => { trace.push(`second:${live()}`) })
    w.ctx.on('session/disposed', (s) => { trace.push(`disposed:${s === session}:${live()}`) })
    w.ctx.sessions.announce(session)
    assert.deepEqual(trace, ['first:live', 'second:live', 'disposed:true:gone'])
    assert.equal(w.ctx.sessions.get('x'), undefined)
    detach()
    assert.equal(trace.length, 3, 'the deferred detach still counts as the single call')
  })

  it('AGENT-REGISTRY-TEST 89: a detach requested during an append publication is deferred until all observers finish', () => {
    const w = world()
    const session = w.ctx.sessions.prepare('x')
    const detach = w.ctx.sessions.enter(session)
    w.ctx.sessions.announce(session)
    const trace: string[] = []
    const live = () => (w.ctx.sessions.get('x') === session ? 'live' : 'gone')
    w.ctx.on('session/event', (_s, e) => {
      if (e.type !== 'stop') return
      detach()
      trace.push(`first:${live()}`)
    })
    w.ctx.on('session/event', (_s, e) => { trace.push(`second:${e.type}:${live()}`) })
    w.ctx.on('session/disposed', () => { trace.push(`disposed:${live()}`) })
    session.append('stop', null)
    assert.deepEqual(trace, ['first:live', 'second:stop:live', 'disposed:gone'])
    session.append('later', null)
    assert.equal(trace.length, 3, 'after the deferred detach appends publish nothing')
    assert.equal(session.seq, 2)
  })

  it('AGENT-REGISTRY-TEST 90: a throwing session/created listener in create rolls back with a paired session/disposed; the id is creatable again with working publication', () => {
    const w = world()
    w.record()
    const boom = new Error('veto')
    let veto = true
    w.ctx.on('session/created', () => { if (veto) throw boom })
    const later: string[] = []
    w.ctx.on('session/created', (s) => { later.push(s.id) })
    const owner = w.ctx.createScope(undefined, 'owner')
    assert.throws(() => owner.ctx.sessions.create('x'), (e) => e === boom)
    assert.deepEqual(w.log, ['created:x', 'disposed:x'])
    assert.deepEqual(later, [], 'the veto stops later created listeners')
    assert.equal(w.ctx.sessions.get('x'), undefined)
    assert.deepEqual(w.ctx.sessions.list(), [])
    assert.deepEqual(owner.ctx.fiber.effectLabels(), [], 'no effect left on the owner fiber')

    veto = false
    const again = owner.ctx.sessions.create('x')
    assert.equal(w.ctx.sessions.get('x'), again)
    assert.deepEqual(w.log, ['created:x', 'disposed:x', 'created:x'])
    const heard: number[] = []
    w.ctx.on('session/event', (s, e) => { if (s === again) heard.push(e.seq) })
    again.append('t', null)
    assert.deepEqual(heard, [0])
  })

  it('AGENT-REGISTRY-TEST 90: a rejecting (async) session/created listener does not roll back; a warning is logged', async () => {
    const w = world()
    w.record()
    w.ctx.on('session/created', async () => { throw new Error('late veto') })
    const session = w.ctx.sessions.create('x')
    await settle()
    assert.equal(w.ctx.sessions.get('x'), session)
    assert.deepEqual(w.log, ['created:x'])
    assert.ok(w.warnings.some((x) => (x.error as Error)?.message === 'late veto'))
  })

  it('AGENT-REGISTRY-TEST 91: create is undone when the owner fiber unloads from inside session/created', async () => {
    const w = world()
    w.record()
    const owner = w.ctx.createScope(undefined, 'owner')
    let unloading: Promise<void> | undefined
    const seenByLater: unknown[] = []
    w.ctx.on('session/created', () => { unloading = owner.dispose() })
    w.ctx.on('session/created', (s) => { seenByLater.push(w.ctx.sessions.get(s.id)) })
    const session = owner.ctx.sessions.create('x')
    assert.deepEqual(seenByLater, [session], 'later listeners still see the live entry')
    assert.ok(unloading)
    await unloading
    assert.equal(w.ctx.sessions.get('x'), undefined)
    assert.deepEqual(w.log, ['created:x', 'disposed:x'])
    assert.equal(owner.ctx.fiber.state, 'disposed')
    const heard: number[] = []
    w.ctx.on('session/event', () => { heard.push(1) })
    session.append('after', null)
    assert.deepEqual(heard, [], 'the undone session no longer publishes')
  })

  it('AGENT-REGISTRY-TEST 91: create registers one effect on the calling fiber; unloading that fiber disposes the session', async () => {
    const w = world()
    w.record()
    const owner = w.ctx.createScope(undefined, 'owner')
    owner.ctx.sessions.create('x')
    assert.deepEqual(owner.ctx.fiber.effectLabels(), ['session:x'])
    assert.deepEqual(w.ctx.fiber.effectLabels().filter((l) => l.startsWith('session:')), [], 'not on the root fiber')
    await owner.dispose()
    assert.equal(w.ctx.sessions.get('x'), undefined)
    assert.deepEqual(w.log, ['created:x', 'disposed:x'])
  })

  it('AGENT-REGISTRY-TEST 92: session/disposed listeners scoped to another scope do not hear it; the owner-scope listener and a global listener do', () => {
    const w = world()
    const keyA = { name: 'A' }
    const keyB = { name: 'B' }
    const scopeA = w.ctx.createScope(keyA, 'A')
    const scopeB = w.ctx.createScope(keyB, 'B')
    const childOfA = scopeA.ctx.createScope({ name: 'A.child' }, 'A.child')
    const heard: string[] = []
    const listen = (ctx: Context, label: string, global = false) => {
      ctx.on('session/created', () => { heard.push(`${label}:created`) }, { global })
      ctx.on('session/disposed', () => { heard.push(`${label}:disposed`) }, { global })
    }
    listen(scopeA.ctx, 'A')
    listen(scopeB.ctx, 'B')
    listen(childOfA.ctx, 'A.child')
    listen(scopeB.ctx, 'B-global', true)
    listen(w.ctx, 'root')

    // Entered through A's scope context: the routing carrier is A's key.
    const session: Session = scopeA.ctx.sessions.prepare('x')
    const detach = scopeA.ctx.sessions.enter(session)
    scopeA.ctx.sessions.announce(session)
    detach()
    assert.deepEqual(heard, [
      'A:created', 'B-global:created', 'root:created',
      'A:disposed', 'B-global:disposed', 'root:disposed',
    ])

    // Entered through the child scope: the ancestor A hears it, B still does not.
    heard.length = 0
    const inner = childOfA.ctx.sessions.create('y')
    assert.equal(w.ctx.sessions.get('y'), inner)
    assert.deepEqual(heard, ['A:created', 'A.child:created', 'B-global:created', 'root:created'])
  })
})
