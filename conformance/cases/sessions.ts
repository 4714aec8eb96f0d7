/**
 * X-SESSION 170–176: Session.append's lossless-JSON rule, snapshots and frozen events, observer
 * publication (after commit, contained, non-reentrant), seeds and end-seeds, and appends after
 * detach, checked on sessions of the runtime under test (`ctx.sessions.prepare/enter/create`).
 * @module
 */
import assert from 'node:assert/strict'
import type { Session, SessionEvent } from '../../core/contract.js'
import { createUserMessage } from '../../core/messages.js'
import type { CaseTarget, DirectedCase } from './harness.js'
import { makeHarness, settle } from './harness.js'

/** A fresh process of the runtime under test. */
async function world(target: CaseTarget) {
  const h = await makeHarness(target)
  return { h, ctx: h.ctx, warnings: h.warnings }
}

/** A session entered (attached) into the root store, plus its detach. */
function attached(w: Awaited<ReturnType<typeof world>>, id = 's1') {
  const session = w.ctx.sessions.prepare(id)
  const detach = w.ctx.sessions.enter(session)
  return { session, detach }
}

const NON_JSON = /session event "t" carries non-JSON-serializable data/

class Point { x = 1 }
class MyArray extends Array<number> {}

export const sessionCases: DirectedCase[] = [
  {
    group: 'X-SESSION', clause: 170, title: 'append rejects every non-lossless-JSON value anywhere in the tree and leaves the log unchanged',
    async run(target) {
      const w = await world(target)
      const { session } = attached(w)
      const published: SessionEvent[] = []
      w.ctx.on('session/event', (_s, e) => { published.push(e) })
      session.append('first', { ok: true })

      const cyclic: Record<string, unknown> = { a: 1 }
      cyclic.self = cyclic
      const cyclicArray: unknown[] = [1]
      cyclicArray.push(cyclicArray)
      const sparse = [1, , 3]
      const extraProp = Object.assign([1, 2], { extra: true })
      const symbolKey = { [Symbol('k')]: 1 }
      const nonEnumerable = Object.defineProperty({ a: 1 }, 'hidden', { value: 2, enumerable: false })
      const bad: [string, unknown][] = [
        ['bigint', 1n],
        ['function', () => 1],
        ['symbol', Symbol('s')],
        ['Map', new Map([[1, 2]])],
        ['Set', new Set([1])],
        ['Date', new Date(0)],
        ['class instance', new Point()],
        ['array subclass', MyArray.from([1])],
        ['undefined', undefined],
        ['nested undefined', { a: { b: undefined } }],
        ['Infinity', Infinity],
        ['-Infinity', { n: -Infinity }],
        ['NaN', [NaN]],
        ['-0', { zero: -0 }],
        ['sparse array', sparse],
        ['array with extra props', extraProp],
        ['symbol key', symbolKey],
        ['non-enumerable key', nonEnumerable],
        ['nested function', { a: [{ b: () => 1 }] }],
        ['object cycle', cyclic],
        ['array cycle', cyclicArray],
      ]
      for (const [label, data] of bad) {
        assert.throws(() => session.append('t', data), NON_JSON, `${label} should be rejected`)
        assert.equal(session.seq, 1, `${label}: log must not change`)
        assert.equal(session.events.length, 1, `${label}: log must not change`)
      }
      assert.deepEqual(published.map((e) => e.type), ['first'], 'a rejected append publishes nothing')
    },
  },
  {
    group: 'X-SESSION', clause: 170, title: 'accepted values include null-prototype objects, +0 and shared acyclic sub-objects (copied)',
    async run(target) {
      const w = await world(target)
      const { session } = attached(w)
      const shared = { v: 1 }
      const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { k: 'v' })
      const event = session.append('t', { a: shared, b: [shared, shared], zero: 0, n: null, s: '', np: nullProto })
      const data = event.data as any
      assert.deepEqual(data.a, { v: 1 })
      assert.notEqual(data.a, shared, 'shared sub-object is copied')
      assert.deepEqual(data.b, [{ v: 1 }, { v: 1 }])
      assert.ok(Object.is(data.zero, 0))
      assert.equal(data.np.k, 'v')
    },
  },
  {
    group: 'X-SESSION', clause: 170, title: 'each property is read exactly once (a getter cannot show one value to validation and another to storage)',
    async run(target) {
      const w = await world(target)
      const { session } = attached(w)
      let reads = 0
      const tricky = {
        get x(): unknown {
          reads++
          return reads === 1 ? 1 : () => 'not json'
        },
      }
      const event = session.append('t', tricky)
      assert.equal(reads, 1)
      assert.deepEqual(event.data, { x: 1 })

      // The opposite order: the first read is invalid, so the append must fail even if a later read would pass.
      let reads2 = 0
      const tricky2 = { get y(): unknown { reads2++; return reads2 === 1 ? undefined : 2 } }
      assert.throws(() => session.append('t', tricky2), NON_JSON)
      assert.equal(reads2, 1)
      assert.equal(session.seq, 1)
    },
  },
  {
    group: 'X-SESSION', clause: 171, title: 'append snapshots its input; events are deep-frozen; older events arrays never grow',
    async run(target) {
      const w = await world(target)
      const { session } = attached(w)
      const input = { list: [1, { deep: 'a' }], nested: { k: 'v' } }
      const before = session.events
      assert.ok(Object.isFrozen(before))
      const event = session.append('t', input)
      assert.notEqual(event.data, input, 'the returned event exposes the snapshot, not caller input')
      input.list.push(2)
      ;(input.list[1] as { deep: string }).deep = 'mutated'
      input.nested.k = 'mutated'
      assert.deepEqual(session.events[0]!.data, { list: [1, { deep: 'a' }], nested: { k: 'v' } })
      assert.equal(session.events[0], event)

      assert.ok(Object.isFrozen(event))
      assert.ok(Object.isFrozen(event.data))
      const data = event.data as any
      assert.ok(Object.isFrozen(data.list))
      assert.ok(Object.isFrozen(data.list[1]))
      assert.ok(Object.isFrozen(data.nested))
      assert.throws(() => { data.nested.k = 'x' }, TypeError)

      const after1 = session.events
      assert.ok(Object.isFrozen(after1))
      session.append('t2', null)
      assert.equal(before.length, 0, 'a previously returned array never grows')
      assert.equal(after1.length, 1, 'a previously returned array never grows')
      assert.equal(session.events.length, 2)
      assert.deepEqual(session.events.map((e) => e.seq), [0, 1], 'seq = index')
      assert.equal(session.seq, 2)
      assert.ok(session.events.every((e) => typeof e.time === 'number'), 'every event carries its commit time')
    },
  },
  {
    group: 'X-SESSION', clause: 172, title: 'session/event observers run after the commit point; sync throws and async rejections are contained and logged',
    needs: ['warnings'],
    async run(target) {
      const w = await world(target)
      const { session } = attached(w)
      const seen: string[] = []
      w.ctx.on('session/event', (s, e) => {
        assert.equal(s, session)
        assert.equal(s.events.at(-1), e, 'the event is already committed')
        assert.equal(s.seq, e.seq + 1)
        seen.push('first')
        throw new Error('sync boom')
      })
      w.ctx.on('session/event', async () => {
        seen.push('second')
        throw new Error('async boom')
      })
      w.ctx.on('session/event', (_s, e) => { seen.push(`third:${e.type}`) })
      const event = session.append('t', { a: 1 })
      assert.equal(event.seq, 0)
      assert.deepEqual(seen, ['first', 'second', 'third:t'])
      assert.equal(session.events.length, 1)
      await settle()
      for (const text of ['sync boom', 'async boom']) {
        assert.ok(w.warnings.some((x) => (x.error as Error)?.message === text || x.message.includes(text)), `${text} is logged`)
      }
    },
  },
  {
    group: 'X-SESSION', clause: 172, title: 'the observer set is resolved at append time (an observer added during publication misses that event)',
    async run(target) {
      const w = await world(target)
      const { session } = attached(w)
      const late: string[] = []
      let added = false
      w.ctx.on('session/event', () => {
        if (added) return
        added = true
        w.ctx.on('session/event', (_s, e) => { late.push(e.type) })
      })
      session.append('first', null)
      assert.deepEqual(late, [])
      session.append('second', null)
      assert.deepEqual(late, ['second'])
    },
  },
  {
    group: 'X-SESSION', clause: 173, title: 'a reentrant append from an observer fails with the reentry error, is contained, and later observers still see the outer event',
    needs: ['warnings'],
    async run(target) {
      const w = await world(target)
      const { session } = attached(w)
      const later: SessionEvent[] = []
      let nestedError: unknown
      w.ctx.on('session/event', (s, e) => {
        if (e.type !== 'outer') return
        try { s.append('inner', null) } catch (error) { nestedError = error; throw error }
      })
      w.ctx.on('session/event', (_s, e) => { later.push(e) })
      const outer = session.append('outer', { n: 1 })
      assert.match(String((nestedError as Error)?.message), /session append cannot reenter while another append is being published/)
      assert.deepEqual(later, [outer])
      assert.deepEqual(session.events.map((e) => e.type), ['outer'], 'the nested append wrote nothing')
      assert.ok(w.h.logged(nestedError), 'the outer publication contained it as an observer failure')
      // Publication finished: appending works again.
      session.append('next', null)
      assert.deepEqual(session.events.map((e) => e.type), ['outer', 'next'])
    },
  },
  {
    group: 'X-SESSION', clause: 173, title: 'an unattached session has no observers, so an append never counts as reentrant',
    async run(target) {
      const w = await world(target)
      const session = w.ctx.sessions.prepare('bare')
      let heard = 0
      w.ctx.on('session/event', () => { heard++ })
      session.append('a', null)
      session.append('b', null)
      assert.equal(heard, 0)
      assert.equal(session.seq, 2)
    },
  },
  {
    group: 'X-SESSION', clause: 174, title: 'a seed with a gap in seq is rejected; a valid seed gets an end-seed (seq = seed.length + 1, firstLiveSeq = seed.length)',
    async run(target) {
      const w = await world(target)
      // A neutral event type: the seed rules are about seq and JSON, not about any event's payload
      // (a runtime may validate known types, e.g. that a user/message carries an id).
      const ev = (seq: number, type = 'note'): SessionEvent => ({ type, seq, time: 1, data: { n: seq } })
      assert.throws(
        () => w.ctx.sessions.prepare('gap', { seed: [ev(0), ev(2)] }),
        /seed event at index 1 has seq 2 \(expected 1\); seed must be contiguous from 0/,
      )
      assert.throws(
        () => w.ctx.sessions.prepare('bad-json', { seed: [{ ...ev(0), data: { f: () => 1 } as never }] }),
        /seed event at index 0 is not losslessly JSON-serializable/,
      )
      assert.equal(w.ctx.sessions.get('gap'), undefined)

      const seed = [ev(0), ev(1), ev(2)]
      const session = w.ctx.sessions.prepare('ok', { seed })
      assert.equal(session.seq, seed.length + 1)
      assert.equal(session.firstLiveSeq, seed.length)
      assert.deepEqual(session.events.map((e) => e.type), ['note', 'note', 'note', 'session/end-seed'])
      assert.deepEqual(session.events[3]!.data, {})
      assert.equal(session.events[3]!.seq, 3)
      assert.notEqual(session.events[0], seed[0], 'seed events are snapshotted')
      assert.ok(Object.isFrozen(session.events[0]!.data))

      // A seed already ending in end-seed gets no second one.
      const closed = w.ctx.sessions.prepare('closed', { seed: [ev(0), ev(1, 'session/end-seed')] })
      assert.equal(closed.seq, 2)
      assert.equal(closed.firstLiveSeq, 2)

      // The end-seed is appended before attachment: entering and appending publishes only the live event.
      const heard: string[] = []
      w.ctx.on('session/event', (_s, e) => { heard.push(`${e.type}@${e.seq}`) })
      w.ctx.sessions.enter(session)
      session.append('live', null)
      assert.deepEqual(heard, ['live@4'])
    },
  },
  {
    group: 'X-SESSION', clause: 174, title: 'seed events may carry the envelope keys surfaceOp, sourceEventSeqs and ignorable, which the session keeps',
    async run(target) {
      const w = await world(target)
      // §1.2 "Construction with a seed": envelope keys limited to type,seq,time,data,surfaceOp,sourceEventSeqs,ignorable.
      // Values a runtime that implements surface ops accepts too: message events marked as appended to the
      // surface (the later one citing the earlier), and an ignorable event of a type of nobody's.
      const message = (seq: number, id: string, extra: Record<string, unknown> = {}) => ({
        type: 'user/message', seq, time: 1, data: { ...createUserMessage({ id, content: id }) }, surfaceOp: 'append', ...extra,
      }) as unknown as SessionEvent
      const seed = [
        message(0, 'm1'),
        message(1, 'm2', { sourceEventSeqs: [0] }),
        { type: 'x-kit/unknown-note', seq: 2, time: 1, data: { n: 2 }, ignorable: true } as SessionEvent,
      ]
      const session = w.ctx.sessions.prepare('enveloped', { seed })
      assert.equal(session.seq, 4)
      assert.equal(session.firstLiveSeq, 3)
      assert.equal(session.events[0]!.surfaceOp, 'append')
      assert.equal(session.events[1]!.surfaceOp, 'append')
      assert.deepEqual(session.events[1]!.sourceEventSeqs, [0])
      assert.equal(session.events[2]!.ignorable, true)
      assert.equal(session.events[3]!.type, 'session/end-seed')
    },
  },
  {
    group: 'X-SESSION', clause: 174, title: 'a seed event with an envelope key outside type,seq,time,data,surfaceOp,sourceEventSeqs,ignorable is rejected',
    async run(target) {
      const w = await world(target)
      const note = (seq: number, extra: Record<string, unknown> = {}) => ({ type: 'note', seq, time: 1, data: { n: seq }, ...extra }) as SessionEvent
      for (const [label, seed] of [
        ['a first event with an extra key', [note(0, { extra: 1 })]],
        ['a later event with a key named like a data field', [note(0), note(1, { n: 1 })]],
      ] as const) {
        assert.throws(() => w.ctx.sessions.prepare('keys', { seed }), Error, `${label} should be rejected`)
        assert.equal(w.ctx.sessions.get('keys'), undefined)
      }
      // The same events without the extra key are a valid seed.
      assert.equal(w.ctx.sessions.prepare('keys', { seed: [note(0), note(1)] }).seq, 3)
    },
  },
  {
    group: 'X-SESSION', clause: 175, title: 'a fresh session has no events; an explicit empty seed yields exactly one session/end-seed',
    async run(target) {
      const w = await world(target)
      const fresh = w.ctx.sessions.prepare('fresh')
      assert.deepEqual(fresh.events, [])
      assert.equal(fresh.seq, 0)
      assert.equal(fresh.firstLiveSeq, 0)
      assert.equal(fresh.id, 'fresh')
      assert.equal(fresh.header.id, 'fresh')

      const empty = w.ctx.sessions.prepare('empty', { seed: [] })
      assert.equal(empty.events.length, 1)
      assert.equal(empty.events[0]!.type, 'session/end-seed')
      assert.equal(empty.events[0]!.seq, 0)
      assert.deepEqual(empty.events[0]!.data, {})
      assert.equal(empty.seq, 1)
      assert.equal(empty.firstLiveSeq, 0)
    },
  },
  {
    group: 'X-SESSION', clause: 176, title: 'after detach, appends still succeed but publish nothing',
    async run(target) {
      const w = await world(target)
      const { session, detach } = attached(w)
      const heard: string[] = []
      w.ctx.on('session/event', (_s, e) => { heard.push(e.type) })
      session.append('before', null)
      detach()
      const after = session.append('after', { x: 1 })
      assert.equal(after.seq, 1)
      assert.deepEqual(session.events.map((e) => e.type), ['before', 'after'])
      assert.deepEqual(heard, ['before'])
    },
  },
  {
    group: 'X-SESSION', clause: 176, title: 'after the owning fiber unloads (sessions.create), appends still succeed but publish nothing',
    async run(target) {
      const w = await world(target)
      const owner = w.h.owner('owner')
      const heard: string[] = []
      w.ctx.on('session/event', (_s, e) => { heard.push(e.type) })
      let session: Session = owner.ctx.sessions.create('owned')
      session.append('before', null)
      await owner.unload()
      assert.equal(w.ctx.sessions.get('owned'), undefined)
      session.append('after', null)
      assert.deepEqual(session.events.map((e) => e.type), ['before', 'after'])
      assert.deepEqual(heard, ['before'])
      // The detached object can be entered into a store again (it is no longer attached anywhere).
      w.ctx.sessions.enter(session)
      session.append('again', null)
      assert.deepEqual(heard, ['before', 'again'])
      session = w.ctx.sessions.get('owned')!
      assert.equal(session.seq, 3)
    },
  },
]
