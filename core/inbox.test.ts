import assert from 'node:assert/strict'
import { describe, it } from 'vitest'
import type { InboxSplice, Session, SessionEvent, UserMessage } from './contract.js'
import { InboxImpl } from './inbox.js'
import type { InboxNotifier } from './inbox.js'
import { createUserMessage } from './messages.js'
import { createRoot } from './root.js'

/** A bare session attached to a fresh root store, an inbox over it and a shared trace. */
function world(options: { seed?: SessionEvent[]; seedLength?: number } = {}) {
  let ids = 0
  const root = createRoot({ now: () => 1, newId: (kind) => `${kind}-${++ids}`, warn: () => undefined })
  const session = root.ctx.sessions.prepare('s', {
    ...(options.seed ? { seed: options.seed } : {}),
    ...(options.seedLength !== undefined ? { meta: { seedLength: options.seedLength } } : {}),
  })
  root.ctx.sessions.enter(session)
  /** Notifications and (optionally) splice commits, in the order they happened. */
  const trace: string[] = []
  const notifier: InboxNotifier = {
    inserted: (m) => { trace.push(`inserted:${m.id}`) },
    discarded: (m) => { trace.push(`discarded:${m.id}`) },
    claimed: (m, turn) => { trace.push(`claimed:${m.id}:${turn}`) },
  }
  const msg = (id: string): UserMessage => createUserMessage({ id, content: id })
  const splices = () => session.events.filter((e) => e.type === 'agent/inbox/spliced').map((e) => e.data as unknown as InboxSplice)
  const open = () => new InboxImpl(session, notifier)
  return { root, ctx: root.ctx, session, trace, notifier, msg, splices, open }
}

const spliceEvent = (seq: number, data: unknown): SessionEvent =>
  ({ type: 'agent/inbox/spliced', seq, time: 1, data }) as SessionEvent
const raw = (id: string) => ({ id, role: 'user', content: [{ type: 'text', text: id }], source: { kind: 'user' } })

/** Construct an inbox over a session whose log is `events` (as persisted) and return the construction error. */
function replayError(events: SessionEvent[]): Error {
  const w = world({ seed: events })
  try {
    w.open()
  } catch (error) {
    return error as Error
  }
  assert.fail('inbox construction should have failed')
}

describe('AGENT-INBOX-REPLAY', () => {
  it('AGENT-INBOX-REPLAY 116: a persisted splice {next-turn, start:1, inserted:[]} on an empty inbox fails construction at session seq 0, with cause', () => {
    const error = replayError([spliceEvent(0, { target: 'next-turn', start: 1, inserted: [] })])
    assert.equal(error.message, 'invalid persisted inbox splice at session seq 0')
    assert.ok(error.cause instanceof Error, 'the original error is the cause')
  })

  it('AGENT-INBOX-REPLAY 116: the same failure is reported for a splice appended to a live log (seq of the bad event)', () => {
    const w = world()
    w.session.append('other', null)
    w.session.append('agent/inbox/spliced', { target: 'next-turn', start: 0, inserted: [raw('m1')] })
    w.session.append('agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: 2, inserted: [] })
    assert.throws(() => w.open(), (e: Error) => e.message === 'invalid persisted inbox splice at session seq 2' && e.cause instanceof Error)
  })

  it('AGENT-INBOX-REPLAY 117: replay rejects duplicate ids across lists and unknown targets (and other malformed splices)', () => {
    const dup = replayError([
      spliceEvent(0, { target: 'next-turn', start: 0, inserted: [raw('m1')] }),
      spliceEvent(1, { target: 'next-step', start: 0, inserted: [raw('m1')] }),
    ])
    assert.equal(dup.message, 'invalid persisted inbox splice at session seq 1')
    assert.match(String((dup.cause as Error).message), /message "m1" is already pending/)

    const dupInOne = replayError([spliceEvent(0, { target: 'next-step', start: 0, inserted: [raw('m1'), raw('m1')] })])
    assert.equal(dupInOne.message, 'invalid persisted inbox splice at session seq 0')

    const unknown = replayError([spliceEvent(0, { target: 'later', start: 0, inserted: [raw('m1')] })])
    assert.equal(unknown.message, 'invalid persisted inbox splice at session seq 0')
    assert.ok(unknown.cause instanceof Error)

    const malformed: [string, unknown][] = [
      ['negative start', { target: 'next-turn', start: -1, inserted: [] }],
      ['fractional start', { target: 'next-turn', start: 0.5, inserted: [] }],
      ['removedCount past the end', { target: 'next-turn', start: 0, removedCount: 1, inserted: [] }],
      ['negative removedCount', { target: 'next-turn', start: 0, removedCount: -1, inserted: [] }],
      ['inserted not an array', { target: 'next-turn', start: 0, inserted: raw('m1') }],
    ]
    for (const [label, data] of malformed) {
      const error = replayError([spliceEvent(0, data)])
      assert.equal(error.message, 'invalid persisted inbox splice at session seq 0', label)
    }
  })

  it('AGENT-INBOX-REPLAY 117: a valid log replays in seq order into both lists and emits no live notifications', () => {
    const w = world({
      seed: [
        spliceEvent(0, { target: 'next-turn', start: 0, inserted: [raw('t1'), raw('t2')] }),
        spliceEvent(1, { target: 'next-step', start: 0, inserted: [raw('s1')] }),
        spliceEvent(2, { target: 'next-turn', start: 0, removedCount: 1, inserted: [raw('t0')], outcome: 'canceled' }),
        { type: 'turn/start', seq: 3, time: 1, data: { turn: 1 } },
        spliceEvent(4, { target: 'next-step', start: 0, removedCount: 1, inserted: [] }),
      ],
    })
    const inbox = w.open()
    assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['t0', 't2'])
    assert.deepEqual(inbox.nextStep.map((m) => m.id), [])
    assert.equal(inbox.hasPending, true)
    assert.deepEqual(w.trace, [])
  })

  it('AGENT-INBOX-REPLAY 117: live and replay share one validation: a splice replay refuses is refused live with the same error, before the append', () => {
    const shapes: [string, unknown][] = [
      ['an item that is not a message', [{ note: 'not a message' }]],
      ['an item that is a string', ['x']],
      ['an item whose id is not a string', [{ ...raw('m1'), id: 7 }]],
      ['inserted not an array', 'x'],
      ['inserted null', null],
    ]
    for (const [label, inserted] of shapes) {
      const w = world()
      const inbox = w.open()
      inbox.append('next-turn', w.msg('t1'))
      const seq = w.session.seq
      const live = (() => {
        try {
          inbox.splice('next-turn', 0, 1, inserted as UserMessage[])
        } catch (error) {
          return error as Error
        }
        return assert.fail(`${label}: accepted live`)
      })()
      assert.equal(w.session.seq, seq, `${label}: nothing appended`)
      assert.deepEqual([inbox.nextTurn.map((m) => m.id), w.trace], [['t1'], ['inserted:t1']], `${label}: nothing changed or notified`)
      const replayed = replayError([spliceEvent(0, { target: 'next-turn', start: 0, inserted: [raw('t1')] }), spliceEvent(1, { target: 'next-turn', start: 0, removedCount: 1, inserted })])
      assert.equal(replayed.message, 'invalid persisted inbox splice at session seq 1', label)
      assert.equal(live.message, (replayed.cause as Error).message, `${label}: the live error is replay's cause`)
    }
    // An unknown target named like an Object.prototype member is refused before the append too.
    const w = world()
    assert.throws(() => w.open().splice('toString' as never, 0, 0, [w.msg('m1')]), /unknown inbox target "toString"/)
    assert.equal(w.session.seq, 0)
  })

  it('AGENT-CREATE-RESUME 54: inbox replay of a forked session ignores splice events before header.seedLength', () => {
    const seed = [
      spliceEvent(0, { target: 'next-turn', start: 0, inserted: [raw('parent-item')] }),
      // Invalid on an empty inbox: construction would fail if the parent prefix were replayed.
      spliceEvent(1, { target: 'next-turn', start: 5, inserted: [raw('parent-bad')] }),
      spliceEvent(2, { target: 'next-step', start: 0, inserted: [raw('child-item')] }),
    ]
    const forked = world({ seed, seedLength: 2 })
    const inbox = forked.open()
    assert.deepEqual(inbox.nextTurn, [])
    assert.deepEqual(inbox.nextStep.map((m) => m.id), ['child-item'])

    // Control: the same log without seedLength fails at the first invalid splice.
    assert.throws(() => world({ seed }).open(), /invalid persisted inbox splice at session seq 1/)
    // seedLength 1: the parent's first item is ignored, the invalid one is replayed.
    assert.throws(() => world({ seed, seedLength: 1 }).open(), /invalid persisted inbox splice at session seq 1/)
  })
})

describe('AGENT-INBOX-COMMIT / AGENT-INBOX-TEST: inbox operations on a bare session', () => {
  it('AGENT-INBOX-TEST 118: replace across both lists: false for a missing id; discarded [old1, old2]; inserted [orig1, orig2, new1, new2]; replacing to an id pending elsewhere throws', () => {
    const w = world()
    const inbox = w.open()
    inbox.append('next-turn', w.msg('orig1'))
    inbox.append('next-step', w.msg('orig2'))
    const before = w.session.seq
    assert.equal(inbox.replace('missing', w.msg('new0')), false)
    assert.equal(w.session.seq, before, 'a missing id writes nothing')
    assert.equal(inbox.replace('orig1', w.msg('new1')), true)
    assert.equal(inbox.replace('orig2', w.msg('new2')), true)
    assert.deepEqual(w.trace.filter((t) => t.startsWith('discarded')), ['discarded:orig1', 'discarded:orig2'])
    assert.deepEqual(w.trace.filter((t) => t.startsWith('inserted')), ['inserted:orig1', 'inserted:orig2', 'inserted:new1', 'inserted:new2'])
    assert.deepEqual(w.trace.slice(2), ['discarded:orig1', 'inserted:new1', 'discarded:orig2', 'inserted:new2'], 'discarded before inserted')
    assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['new1'])
    assert.deepEqual(inbox.nextStep.map((m) => m.id), ['new2'])
    const [, , r1, r2] = w.splices()
    assert.deepEqual(r1, { target: 'next-turn', start: 0, removedCount: 1, inserted: [w.msg('new1')], outcome: 'canceled' })
    assert.deepEqual(r2, { target: 'next-step', start: 0, removedCount: 1, inserted: [w.msg('new2')], outcome: 'canceled' })

    const seq = w.session.seq
    const traced = w.trace.length
    assert.throws(() => inbox.replace('new1', w.msg('new2')), /message "new2" is already pending/)
    assert.equal(w.session.seq, seq, 'nothing written')
    assert.equal(w.trace.length, traced, 'no notification')
    assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['new1'])
    // Replacing an item with a message of the same id is allowed (the old one is removed by the splice).
    assert.equal(inbox.replace('new1', createUserMessage({ id: 'new1', content: 'edited' })), true)
    assert.equal(inbox.nextTurn[0]!.content[0]!.text, 'edited')
  })

  it('AGENT-INBOX-TEST 119: splice(t, NaN, NaN, [a,b]) inserts at 0; splice(t, -1, 1, []) removes the last; remove of an absent id returns false', () => {
    const w = world()
    const inbox = w.open()
    inbox.append('next-turn', w.msg('x'))
    inbox.splice('next-turn', NaN, NaN, [w.msg('a'), w.msg('b')])
    assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['a', 'b', 'x'])
    assert.deepEqual(w.splices()[1], { target: 'next-turn', start: 0, inserted: [w.msg('a'), w.msg('b')] })
    assert.deepEqual(Object.keys(w.splices()[1]!), ['target', 'start', 'inserted'], 'removedCount and outcome omitted')

    const removed = inbox.splice('next-turn', -1, 1, [])
    assert.deepEqual(removed.map((m) => m.id), ['x'])
    assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['a', 'b'])
    assert.deepEqual(w.splices()[2], { target: 'next-turn', start: 2, removedCount: 1, inserted: [], outcome: 'canceled' })
    assert.deepEqual(Object.keys(w.splices()[2]!), ['target', 'start', 'removedCount', 'inserted', 'outcome'], 'durable key order')

    const seq = w.session.seq
    assert.equal(inbox.remove('absent'), false)
    assert.equal(w.session.seq, seq)

    // Further normalization: truncation, clamping, negative counts from the end clamped at 0.
    inbox.splice('next-turn', 1.9, 5, [])
    assert.deepEqual(w.splices().at(-1), { target: 'next-turn', start: 1, removedCount: 1, inserted: [], outcome: 'canceled' })
    inbox.splice('next-turn', -10, 0, [w.msg('c')])
    assert.deepEqual(w.splices().at(-1), { target: 'next-turn', start: 0, inserted: [w.msg('c')] })
    inbox.splice('next-turn', 99, -3, [w.msg('d')])
    assert.deepEqual(w.splices().at(-1), { target: 'next-turn', start: 2, inserted: [w.msg('d')] })
    assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['c', 'a', 'd'])
    const seq2 = w.session.seq
    assert.deepEqual(inbox.splice('next-step', 0, 3, []), [], 'nothing to remove, nothing inserted')
    assert.equal(w.session.seq, seq2, 'a no-op mutation writes no event')
  })

  it('AGENT-INBOX-TEST 120: appending to next-step an id already pending in next-turn throws already pending and writes nothing', () => {
    const w = world()
    const inbox = w.open()
    inbox.append('next-turn', w.msg('m1'))
    const seq = w.session.seq
    const traced = w.trace.length
    assert.throws(() => inbox.append('next-step', w.msg('m1')), /message "m1" is already pending/)
    assert.throws(() => inbox.prepend('next-step', w.msg('m1')), /message "m1" is already pending/)
    assert.throws(() => inbox.append('next-turn', w.msg('m1')), /message "m1" is already pending/)
    assert.throws(() => inbox.splice('next-step', 0, 0, [w.msg('m2'), w.msg('m2')]), /message "m2" is already pending/)
    assert.equal(w.session.seq, seq)
    assert.equal(w.trace.length, traced)
    assert.deepEqual(inbox.nextStep, [])
    assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['m1'])
  })

  it('AGENT-INBOX-TEST 121: clear writes exactly two events, next-step first, discards next-step items first; a second clear writes nothing', () => {
    const w = world()
    const inbox = w.open()
    inbox.append('next-turn', w.msg('t1'))
    inbox.append('next-step', w.msg('s1'))
    const before = w.session.seq
    w.trace.length = 0
    inbox.clear()
    const written = w.session.events.slice(before)
    assert.equal(written.length, 2)
    assert.deepEqual(written.map((e) => e.type), ['agent/inbox/spliced', 'agent/inbox/spliced'])
    assert.deepEqual(written[0]!.data, { target: 'next-step', start: 0, removedCount: 1, inserted: [], outcome: 'canceled' })
    assert.deepEqual(written[1]!.data, { target: 'next-turn', start: 0, removedCount: 1, inserted: [], outcome: 'canceled' })
    assert.deepEqual(Object.keys(written[0]!.data as object), ['target', 'start', 'removedCount', 'inserted', 'outcome'])
    assert.deepEqual(w.trace, ['discarded:s1', 'discarded:t1'])
    assert.equal(inbox.hasPending, false)
    const after = w.session.seq
    inbox.clear()
    assert.equal(w.session.seq, after)
    assert.deepEqual(w.trace, ['discarded:s1', 'discarded:t1'])

    // Only one list non-empty: exactly one event.
    inbox.append('next-turn', w.msg('t2'))
    inbox.append('next-turn', w.msg('t3'))
    const mark = w.session.seq
    inbox.clear()
    assert.deepEqual(w.session.events.slice(mark).map((e) => e.data), [
      { target: 'next-turn', start: 0, removedCount: 2, inserted: [], outcome: 'canceled' },
    ])
  })

  it('AGENT-INBOX-COMMIT 122: a synchronous session/event observer of a splice sees the inbox projection before that splice', () => {
    const w = world()
    const inbox = w.open()
    const seen: string[] = []
    w.ctx.on('session/event', (_s, e) => {
      if (e.type !== 'agent/inbox/spliced') return
      const d = e.data as unknown as InboxSplice
      const list = d.target === 'next-turn' ? inbox.nextTurn : inbox.nextStep
      const removed = list.slice(d.start, d.start + (d.removedCount ?? 0)).map((m) => m.id)
      seen.push(`${d.target}:[${list.map((m) => m.id).join(',')}] removes [${removed.join(',')}]`)
      w.trace.push('observer')
    })
    inbox.append('next-turn', w.msg('a'))
    inbox.append('next-turn', w.msg('b'))
    inbox.remove('a')
    assert.deepEqual(seen, [
      'next-turn:[] removes []',
      'next-turn:[a] removes []',
      'next-turn:[a,b] removes [a]',
    ])
    assert.deepEqual(w.trace, ['observer', 'inserted:a', 'observer', 'inserted:b', 'observer', 'discarded:a'], 'notifications after the commit')
  })

  it('AGENT-INBOX-COMMIT 122: if the append throws (non-JSON message) nothing changes and no notification fires', () => {
    const w = world()
    const inbox = w.open()
    const bad = { id: 'bad', role: 'user', content: [{ type: 'text', text: 'x' }], source: { kind: 'user', f: () => 1 } } as unknown as UserMessage
    assert.throws(() => inbox.append('next-step', bad), /non-JSON-serializable/)
    assert.equal(w.session.seq, 0)
    assert.deepEqual(inbox.nextStep, [])
    assert.deepEqual(w.trace, [])
  })

  it('AGENT-INBOX-TEST 126: claim batches are pure deletions: all next-step items then one next-turn item; claimed after both splices', () => {
    const w = world()
    const inbox = w.open()
    for (const id of ['t1', 't2']) inbox.append('next-turn', w.msg(id))
    for (const id of ['s1', 's2']) inbox.append('next-step', w.msg(id))
    w.ctx.on('session/event', (_s, e) => {
      const d = e.data as unknown as InboxSplice
      w.trace.push(`splice:${d.target}`)
    })
    w.trace.length = 0
    const mark = w.session.seq
    const batch = inbox.claim('next-turn', 1)
    assert.deepEqual(batch.map((m) => m.id), ['s1', 's2', 't1'])
    assert.deepEqual(w.session.events.slice(mark).map((e) => e.data), [
      { target: 'next-step', start: 0, removedCount: 2, inserted: [] },
      { target: 'next-turn', start: 0, removedCount: 1, inserted: [] },
    ], 'no outcome on claims')
    assert.deepEqual(w.trace, ['splice:next-step', 'splice:next-turn', 'claimed:s1:1', 'claimed:s2:1', 'claimed:t1:1'], 'no discarded/inserted; claimed after both splices')
    assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['t2'])
    assert.deepEqual(inbox.nextStep, [])

    // A later step of the same turn claims only next-step items.
    w.trace.length = 0
    const mark2 = w.session.seq
    assert.deepEqual(inbox.claim('next-step', 1), [], 'nothing pending in next-step: empty batch')
    assert.equal(w.session.seq, mark2, 'and no event')
    inbox.append('next-step', w.msg('s3'))
    w.trace.length = 0
    assert.deepEqual(inbox.claim('next-step', 1).map((m) => m.id), ['s3'])
    assert.deepEqual(w.trace, ['splice:next-step', 'claimed:s3:1'])
    assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['t2'], 'the next-turn item stays for its own turn')

    // A new turn with an empty next-step list claims exactly one next-turn item.
    w.trace.length = 0
    assert.deepEqual(inbox.claim('next-turn', 2).map((m) => m.id), ['t2'])
    assert.deepEqual(w.trace, ['splice:next-turn', 'claimed:t2:2'])
    // Claims replay like any splice.
    assert.deepEqual(w.open().nextTurn, [])
  })

  it('AGENT-INBOX-TEST 127: splice payloads carry exactly content,id,role,source per message; the default source is {kind:user}', () => {
    const w = world()
    const inbox = w.open()
    const input = { id: 'm1', role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } } as UserMessage
    inbox.append('next-turn', createUserMessage({ content: 'hello', id: 'm0' }))
    inbox.append('next-turn', input)
    for (const splice of w.splices()) {
      for (const m of splice.inserted) assert.deepEqual(Object.keys(m).sort(), ['content', 'id', 'role', 'source'])
    }
    assert.deepEqual(w.splices()[0]!.inserted[0]!.source, { kind: 'user' })
    assert.deepEqual(w.splices()[0]!.inserted[0]!.content, [{ type: 'text', text: 'hello' }])
    // The live list holds the logged snapshot, not the caller's object.
    const logged = w.splices()[1]!.inserted[0]
    assert.equal(inbox.nextTurn[1], logged)
    assert.notEqual(inbox.nextTurn[1], input)
    ;(input.content as unknown as { text: string }[])[0]!.text = 'mutated'
    assert.equal(inbox.nextTurn[1]!.content[0]!.text, 'hi')
  })

  it('AGENT-INBOX-TEST 127: a replayed inbox equals the live projection (round trip through the log)', () => {
    const w = world()
    const inbox = w.open()
    inbox.append('next-turn', w.msg('a'))
    inbox.prepend('next-turn', w.msg('b'))
    inbox.append('next-step', w.msg('c'))
    inbox.replace('a', w.msg('d'))
    inbox.splice('next-step', 0, 0, [w.msg('e')])
    inbox.remove('c')
    const replayed = new InboxImpl(w.session as Session, w.notifier)
    assert.deepEqual(replayed.nextTurn, inbox.nextTurn)
    assert.deepEqual(replayed.nextStep, inbox.nextStep)
    assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['b', 'd'])
    assert.deepEqual(inbox.nextStep.map((m) => m.id), ['e'])
  })
})
