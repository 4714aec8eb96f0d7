/**
 * AGENT-REGISTRY-TEST 85–92: the session store's prepare/enter/announce/detach split, deferred
 * detaches, create's rollback and owner binding, and scoped routing of its lifecycle events,
 * checked on the runtime under test through its public surface (`ctx.sessions`, `ctx.createScope`).
 * The rest of the store's §1.3 table has no §9 number of its own: `prepare`'s minted ids and
 * `flush` are checked under 87, the clause of the store's own methods before publication.
 * @module
 */
import assert from 'node:assert/strict'
import type { Context, Session } from '../../core/contract.js'
import type { CaseTarget, DirectedCase } from './harness.js'
import { gate, makeHarness, settle } from './harness.js'

/** A fresh process and a log of session lifecycle events heard by untagged root listeners. */
async function world(target: CaseTarget) {
  const h = await makeHarness(target)
  const log: string[] = []
  const record = (ctx: Context = h.ctx): void => {
    ctx.on('session/created', (s) => { log.push(`created:${s.id}`) })
    ctx.on('session/disposed', (s) => { log.push(`disposed:${s.id}`) })
  }
  return { h, ctx: h.ctx, warnings: h.warnings, log, record }
}

/** A world with one session `id` entered and announced through the root context. */
async function withLive(target: CaseTarget, id = 'x') {
  const w = await world(target)
  const session = w.ctx.sessions.prepare(id)
  const detach = w.ctx.sessions.enter(session)
  w.ctx.sessions.announce(session)
  return { ...w, session, detach }
}

/** How a promise has settled so far (read after `settle()`). */
function track<T>(promise: Promise<T>) {
  const state: { settled: 'pending' | 'resolved' | 'rejected'; value?: T; error?: unknown } = { settled: 'pending' }
  const done = promise.then(
    (value) => { state.settled = 'resolved'; state.value = value },
    (error) => { state.settled = 'rejected'; state.error = error },
  )
  return { state, done }
}

/** A minted id: §1.3 `session-<n>`. */
const MINTED = /^session--?\d+$/

export const sessionStoreCases: DirectedCase[] = [
  {
    group: 'AGENT-REGISTRY-TEST', clause: 85, title: 'enter of a stale prepared session whose id is live throws already exists and keeps the live entry',
    async run(target) {
      const w = await world(target)
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
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 86, title: 'one Session object cannot be entered in two stores at once',
    async run(target) {
      const a = await world(target)
      const b = await world(target)
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
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 87, title: 'prepare alone does not enter; enter alone does not announce; detach twice is harmless',
    async run(target) {
      const w = await world(target)
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
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 87, title: 'prepare() without an id mints an unpublished session-<n> that skips every live id',
    async run(target) {
      const w = await world(target)
      w.record()
      // Occupy a run of ids of the minted form first: whatever n the store starts from, it must skip them.
      const occupied = new Set<string>()
      for (let n = 0; n <= 50; n++) {
        const s = w.ctx.sessions.prepare(`session-${n}`)
        w.ctx.sessions.enter(s)
        occupied.add(s.id)
      }
      const minted = w.ctx.sessions.prepare()
      assert.match(minted.id, MINTED)
      assert.ok(!occupied.has(minted.id), `minted ${minted.id}, which is live`)
      assert.equal(w.ctx.sessions.get(minted.id), undefined, 'prepare does not enter')
      assert.equal(w.ctx.sessions.list().length, occupied.size)
      assert.deepEqual(w.log, [], 'prepare emits nothing')

      // Once the minted session is live, the next mint skips it too.
      w.ctx.sessions.enter(minted)
      const next = w.ctx.sessions.prepare()
      assert.match(next.id, MINTED)
      assert.notEqual(next.id, minted.id)
      assert.ok(!occupied.has(next.id), `minted ${next.id}, which is live`)
      w.ctx.sessions.enter(next)
      assert.equal(w.ctx.sessions.get(next.id), next)
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 87, title: 'flush of a live session awaits every session/flush listener that hears it, in parallel, and resolves true only after all settled; a listener of another scope does not participate',
    async run(target) {
      const w = await world(target)
      // Entered through scope A: the routing carrier is A's key (as for session/created, 92).
      const scopeA = w.ctx.createScope({ name: 'A' }, 'A')
      const scopeB = w.ctx.createScope({ name: 'B' }, 'B')
      const session = scopeA.ctx.sessions.prepare('x')
      scopeA.ctx.sessions.enter(session)
      scopeA.ctx.sessions.announce(session)
      // The runtime's own listeners (a persistence) may participate: that part of the boolean is theirs.
      const own = await w.ctx.sessions.flush(session)
      assert.equal(typeof own, 'boolean')
      // A listener that does not hear the session does not participate.
      const elsewhere: string[] = []
      scopeB.ctx.on('session/flush', () => { elsewhere.push('B') })
      assert.equal(await w.ctx.sessions.flush(session), own, 'a listener of another scope does not participate')
      assert.deepEqual(elsewhere, [])

      const first = gate()
      const second = gate()
      const calls: string[] = []
      scopeA.ctx.on('session/flush', async (s) => { calls.push(`first:${s === session}`); await first.promise })
      w.ctx.on('session/flush', async (s) => { calls.push(`second:${s === session}`); await second.promise })
      const flush = track(w.ctx.sessions.flush(session))
      await settle()
      assert.deepEqual([...calls].sort(), ['first:true', 'second:true'], 'both listeners run while the other is pending (parallel)')
      assert.equal(flush.state.settled, 'pending')
      second.open()
      await settle()
      assert.equal(flush.state.settled, 'pending', 'flush awaits every listener')
      first.open()
      await flush.done
      assert.equal(flush.state.settled, 'resolved')
      assert.equal(flush.state.value, true, 'a listener participated')
      assert.equal(calls.length, 2, 'each listener once')
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 87, title: 'without a persistence, flush resolves false while no listener hears the session and true once one does',
    needs: ['noPersistence'],
    async run(target) {
      // No persistence: the process has no durability listener of its own, so participation is the case's alone.
      const h = await makeHarness(target, { noPersistence: true })
      const scopeA = h.ctx.createScope({ name: 'A' }, 'A')
      const scopeB = h.ctx.createScope({ name: 'B' }, 'B')
      const session = scopeA.ctx.sessions.prepare('x')
      scopeA.ctx.sessions.enter(session)
      scopeA.ctx.sessions.announce(session)
      assert.equal(await h.ctx.sessions.flush(session), false, 'no listener at all')
      const heard: string[] = []
      scopeB.ctx.on('session/flush', () => { heard.push('B') })
      assert.equal(await h.ctx.sessions.flush(session), false, 'only a listener of another scope')
      scopeA.ctx.on('session/flush', () => { heard.push('A') })
      assert.equal(await h.ctx.sessions.flush(session), true, 'a listener of the carrier scope participates')
      assert.deepEqual(heard, ['A'])
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 87, title: 'flush rethrows the first listener failure only after every listener settled; a throwing listener does not stop later ones',
    async run(target) {
      const w = await withLive(target)
      const first = new Error('first failure')
      const second = new Error('second failure')
      const slow = gate()
      const calls: string[] = []
      w.ctx.on('session/flush', () => { calls.push('throws'); throw first })
      w.ctx.on('session/flush', async () => { calls.push('slow'); await slow.promise })
      w.ctx.on('session/flush', async () => { calls.push('rejects'); await slow.promise; throw second })
      const flush = track(w.ctx.sessions.flush(w.session))
      await settle()
      assert.deepEqual([...calls].sort(), ['rejects', 'slow', 'throws'])
      assert.equal(flush.state.settled, 'pending', 'a failure does not settle flush while listeners are pending')
      slow.open()
      await flush.done
      assert.equal(flush.state.settled, 'rejected')
      assert.equal(flush.state.error, first)
      // A failed flush leaves the session live.
      assert.equal(w.ctx.sessions.get('x'), w.session)
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 87, title: 'flush of a session that is not live (never entered, detached, stale object of a live id) throws and calls no listener',
    async run(target) {
      const w = await world(target)
      const heard: Session[] = []
      w.ctx.on('session/flush', (s) => { heard.push(s) })
      const notLive = async (session: Session, label: string) => {
        await assert.rejects(async () => w.ctx.sessions.flush(session), label)
        assert.deepEqual(heard, [], `${label}: no session/flush listener runs`)
      }

      const never = w.ctx.sessions.prepare('never')
      await notLive(never, 'never entered')

      const stale = w.ctx.sessions.prepare('x')
      const live = w.ctx.sessions.prepare('x')
      const detachLive = w.ctx.sessions.enter(live)
      w.ctx.sessions.announce(live)
      await notLive(stale, 'a stale object whose id is live')

      detachLive()
      await notLive(live, 'detached')

      // The stale object enters; the object detached before is now the stale one.
      w.ctx.sessions.enter(stale)
      await notLive(live, 'detached, its id live again')
      assert.equal(await w.ctx.sessions.flush(stale), true)
      assert.deepEqual(heard, [stale])
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 87, title: 'a reentrant announce from a session/created listener throws already announced',
    async run(target) {
      const w = await world(target)
      const session = w.ctx.sessions.prepare('x')
      w.ctx.sessions.enter(session)
      let reentrant: unknown
      w.ctx.on('session/created', (s) => {
        try { w.ctx.sessions.announce(s) } catch (error) { reentrant = error }
      })
      w.ctx.sessions.announce(session)
      assert.match(String((reentrant as Error)?.message), /session "x" was already announced/)
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 88, title: 'a session/created listener\'s detach is deferred until the dispatch unwinds; session/disposed then fires with the entry gone',
    async run(target) {
      const w = await world(target)
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
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 89, title: 'a detach requested during an append publication is deferred until all observers finish',
    async run(target) {
      const w = await world(target)
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
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 90, title: 'a throwing session/created listener in create rolls back with a paired session/disposed; the id is creatable again with working publication',
    async run(target) {
      const w = await world(target)
      w.record()
      const boom = new Error('veto')
      let veto = true
      w.ctx.on('session/created', () => { if (veto) throw boom })
      const later: string[] = []
      w.ctx.on('session/created', (s) => { later.push(s.id) })
      const owner = w.h.owner('owner')
      assert.throws(() => owner.ctx.sessions.create('x'), (e) => e === boom)
      assert.deepEqual(w.log, ['created:x', 'disposed:x'])
      assert.deepEqual(later, [], 'the veto stops later created listeners')
      assert.equal(w.ctx.sessions.get('x'), undefined)
      assert.deepEqual(w.ctx.sessions.list(), [])

      veto = false
      const again = owner.ctx.sessions.create('x')
      assert.equal(w.ctx.sessions.get('x'), again)
      assert.deepEqual(w.log, ['created:x', 'disposed:x', 'created:x'])
      const heard: number[] = []
      w.ctx.on('session/event', (s, e) => { if (s === again) heard.push(e.seq) })
      again.append('t', null)
      assert.deepEqual(heard, [0])
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 90, title: 'a rejecting (async) session/created listener does not roll back; a warning is logged',
    needs: ['warnings'],
    async run(target) {
      const w = await world(target)
      w.record()
      w.ctx.on('session/created', async () => { throw new Error('late veto') })
      const session = w.ctx.sessions.create('x')
      await settle()
      assert.equal(w.ctx.sessions.get('x'), session)
      assert.deepEqual(w.log, ['created:x'])
      assert.ok(w.warnings.some((x) => (x.error as Error)?.message === 'late veto' || x.message.includes('late veto')))
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 91, title: 'create is undone when the owner fiber unloads from inside session/created',
    async run(target) {
      const w = await world(target)
      w.record()
      const owner = w.h.owner('owner')
      let unloading: Promise<void> | undefined
      const seenByLater: unknown[] = []
      w.ctx.on('session/created', () => { unloading = owner.unload() })
      w.ctx.on('session/created', (s) => { seenByLater.push(w.ctx.sessions.get(s.id)) })
      const session = owner.ctx.sessions.create('x')
      assert.deepEqual(seenByLater, [session], 'later listeners still see the live entry')
      assert.ok(unloading)
      await unloading
      assert.equal(w.ctx.sessions.get('x'), undefined)
      assert.deepEqual(w.log, ['created:x', 'disposed:x'])
      const heard: number[] = []
      w.ctx.on('session/event', () => { heard.push(1) })
      session.append('after', null)
      assert.deepEqual(heard, [], 'the undone session no longer publishes')
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 91, title: 'create registers one effect on the calling fiber; unloading that fiber disposes the session',
    async run(target) {
      const w = await world(target)
      w.record()
      const owner = w.h.owner('owner')
      owner.ctx.sessions.create('x')
      await owner.unload()
      assert.equal(w.ctx.sessions.get('x'), undefined)
      assert.deepEqual(w.log, ['created:x', 'disposed:x'])
    },
  },
  {
    group: 'AGENT-REGISTRY-TEST', clause: 92, title: 'session/disposed listeners scoped to another scope do not hear it; the owner-scope listener and a global listener do',
    async run(target) {
      const w = await world(target)
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
    },
  },
]
