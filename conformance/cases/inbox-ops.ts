/**
 * The inbox's own operations (AGENT-INBOX-REPLAY 116–117, AGENT-INBOX-TEST 118–121 and 126) and the
 * forked replay of AGENT-CREATE-RESUME 54, on agents of the runtime under test: `agent.inbox`, its
 * durable `agent/inbox/spliced` events and live notifications, and replay of persisted logs written
 * to the process's disk.
 * @module
 */
import assert from 'node:assert/strict'
import type { InboxSplice, SessionEvent, SessionHeader } from '../../core/contract.js'
import { createUserMessage } from '../../core/messages.js'
import type { Harness } from './harness.js'
import type { DirectedCase } from './harness.js'
import { makeHarness } from './harness.js'
import { rejection } from './lifecycle-helpers.js'

const spliceEvent = (seq: number, data: unknown): SessionEvent => ({ type: 'agent/inbox/spliced', seq, time: 1, data }) as SessionEvent
const raw = (id: string) => ({ id, role: 'user', content: [{ type: 'text', text: id }], source: { kind: 'user' } })
const msg = (id: string) => createUserMessage({ id, content: id })

function splices(agent: { session: { events: readonly SessionEvent[] } }, from = 0): InboxSplice[] {
  return agent.session.events.slice(from).filter((e) => e.type === 'agent/inbox/spliced').map((e) => e.data as unknown as InboxSplice)
}

/** Live inbox notifications of one agent since `from` (in the harness's observed order). */
function notes(h: Harness, id: string, from = 0): string[] {
  return h.observed.slice(from).filter((o) => o.id === id && o.name.startsWith('agent/inbox/')).map((o) => `${o.name.slice('agent/inbox/'.length)}:${o.detail}`)
}

/** A valid persisted header for `id`, in the runtime's own format version. */
function headerOf(h: Harness, id: string): SessionHeader {
  return { version: h.ctx.sessions.prepare(`${id}-probe`).header.version, id, createdAt: 1 }
}

/** Persist `events` as session `id` on a fresh disk, resume it in a new process, and return the rejection. */
async function replayError(target: Parameters<DirectedCase['run']>[0], events: SessionEvent[], header: Record<string, unknown> = {}): Promise<Error> {
  const h = await makeHarness(target)
  h.disk.set('r1', { header: { ...headerOf(h, 'r1'), ...header } as never, events })
  const error = await rejection(h.ctx.agents.resume({ resumeSessionId: 'r1' }))
  assert.ok(error instanceof Error, `expected an Error, got ${String(error)}`)
  assert.equal(h.ctx.agents.get('r1'), undefined, 'nothing is published')
  assert.equal(h.ctx.sessions.get('r1'), undefined)
  return error
}

export const inboxOpsCases: DirectedCase[] = [
  {
    group: 'AGENT-INBOX-REPLAY', clause: 116, title: 'resuming a log whose splice {next-turn, start:1, inserted:[]} does not fit an empty inbox fails construction at session seq 0',
    resumes: true,
    async run(target) {
      const error = await replayError(target, [spliceEvent(0, { target: 'next-turn', start: 1, inserted: [] })])
      assert.match(error.message, /invalid persisted inbox splice at session seq 0/)
      const later = await replayError(target, [
        { type: 'other', seq: 0, time: 1, data: null } as SessionEvent,
        spliceEvent(1, { target: 'next-turn', start: 0, inserted: [raw('m1')] }),
        spliceEvent(2, { target: 'next-turn', start: 0, removedCount: 2, inserted: [] }),
      ])
      assert.match(later.message, /invalid persisted inbox splice at session seq 2/, 'the seq of the bad event')
    },
  },
  {
    group: 'AGENT-INBOX-REPLAY', clause: 116, title: 'resume fails at the seq of each invalid splice §6.5 lists (start or removedCount not a non-negative safe integer, inserted not an array), with the original error as cause',
    resumes: true,
    async run(target) {
      // Two items first, so a bad coordinate that a runtime failed to validate would still fit the list.
      const two = [spliceEvent(0, { target: 'next-turn', start: 0, inserted: [raw('m1'), raw('m2')] })]
      const invalid: ReadonlyArray<[string, Record<string, unknown>]> = [
        ['a negative start', { target: 'next-turn', start: -1, inserted: [] }],
        ['a fractional start', { target: 'next-turn', start: 0.5, inserted: [raw('m3')] }],
        ['a string start', { target: 'next-turn', start: '1', inserted: [raw('m3')] }],
        ['a negative removedCount', { target: 'next-turn', start: 0, removedCount: -1, inserted: [raw('m3')] }],
        ['a fractional removedCount', { target: 'next-turn', start: 0, removedCount: 0.5, inserted: [raw('m3')] }],
        ['an inserted that is a string', { target: 'next-turn', start: 0, inserted: '' }],
      ]
      for (const [what, data] of invalid) {
        const error = await replayError(target, [...two, spliceEvent(1, data)]).catch((failure: Error) => {
          throw new Error(`a persisted splice with ${what} (${JSON.stringify(data)}): ${failure.message}`, { cause: failure })
        })
        assert.match(error.message, /invalid persisted inbox splice at session seq 1/, what)
        assert.ok(error.cause instanceof Error, `${what}: the original error is the cause (§6.5), got ${String(error.cause)}`)
      }
    },
  },
  {
    group: 'AGENT-INBOX-REPLAY', clause: 117, title: 'resume rejects a log with duplicate ids across lists and one with an unknown target; a valid log replays into both lists',
    resumes: true,
    async run(target) {
      const dup = await replayError(target, [
        spliceEvent(0, { target: 'next-turn', start: 0, inserted: [raw('m1')] }),
        spliceEvent(1, { target: 'next-step', start: 0, inserted: [raw('m1')] }),
      ])
      assert.match(dup.message, /invalid persisted inbox splice at session seq 1/)
      const unknown = await replayError(target, [spliceEvent(0, { target: 'later', start: 0, inserted: [raw('m1')] })])
      assert.match(unknown.message, /invalid persisted inbox splice at session seq 0/)
      // Control: a valid log resumes, in seq order, into both lists.
      const h = await makeHarness(target)
      h.disk.set('ok', { header: headerOf(h, 'ok'), events: [
        spliceEvent(0, { target: 'next-turn', start: 0, inserted: [raw('t1'), raw('t2')] }),
        spliceEvent(1, { target: 'next-step', start: 0, inserted: [raw('s1')] }),
        spliceEvent(2, { target: 'next-turn', start: 0, removedCount: 1, inserted: [raw('t0')], outcome: 'canceled' }),
      ] })
      const { agent } = await h.ctx.agents.resume({ resumeSessionId: 'ok' })
      assert.deepEqual(agent.inbox.nextTurn.map((m) => m.id), ['t0', 't2'])
      assert.deepEqual(agent.inbox.nextStep.map((m) => m.id), ['s1'])
      assert.deepEqual(notes(h, 'ok'), [], 'replay emits no live notification')
    },
  },
  {
    group: 'AGENT-CREATE-RESUME', clause: 54, title: 'inbox replay of a seeded (forked) session ignores splice events before header.seedLength (create and resume)',
    async run(target) {
      const seed = [
        spliceEvent(0, { target: 'next-turn', start: 0, inserted: [raw('parent-item')] }),
        // Invalid on an empty inbox: construction would fail if the parent prefix were replayed.
        spliceEvent(1, { target: 'next-turn', start: 5, inserted: [raw('parent-bad')] }),
        spliceEvent(2, { target: 'next-step', start: 0, inserted: [raw('child-item')] }),
      ]
      const h = await makeHarness(target)
      const { agent } = await h.create('fork', { seed, meta: { seedLength: 2 } })
      assert.deepEqual(agent.inbox.nextTurn, [])
      assert.deepEqual(agent.inbox.nextStep.map((m) => m.id), ['child-item'])
      // Control: the same seed without seedLength fails at the invalid splice.
      await assert.rejects(h.create('plain', { seed }), /invalid persisted inbox splice at session seq 1/)
      if (!target.supports.resume) return
      // A crash keeps the pending item on disk (a graceful shutdown would cancel it, §12 Q2).
      const next = await h.crash()
      const back = await next.ctx.agents.resume({ resumeSessionId: 'fork' })
      assert.deepEqual(back.agent.inbox.nextStep.map((m) => m.id), ['child-item'], 'a resume of the fork replays from seedLength too')
      assert.deepEqual(back.agent.inbox.nextTurn, [])
    },
  },
  {
    group: 'AGENT-INBOX-TEST', clause: 118, title: 'replace across both lists: false for a missing id; discarded [old1, old2], inserted [orig1, orig2, new1, new2]; replacing to an id pending elsewhere throws',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const { inbox, session } = agent
      const mark = h.observed.length
      const start = session.seq
      inbox.append('next-turn', msg('orig1'))
      inbox.append('next-step', msg('orig2'))
      const before = session.seq
      assert.equal(inbox.replace('missing', msg('new0')), false)
      assert.equal(session.seq, before, 'a missing id writes nothing')
      assert.equal(inbox.replace('orig1', msg('new1')), true)
      assert.equal(inbox.replace('orig2', msg('new2')), true)
      const n = notes(h, 's1', mark)
      assert.deepEqual(n.filter((t) => t.startsWith('discarded')), ['discarded:orig1', 'discarded:orig2'])
      assert.deepEqual(n.filter((t) => t.startsWith('inserted')), ['inserted:orig1', 'inserted:orig2', 'inserted:new1', 'inserted:new2'])
      assert.deepEqual(n.slice(2), ['discarded:orig1', 'inserted:new1', 'discarded:orig2', 'inserted:new2'], 'discarded before inserted')
      assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['new1'])
      assert.deepEqual(inbox.nextStep.map((m) => m.id), ['new2'])
      const [, , r1, r2] = splices(agent, start)
      assert.deepEqual(r1, { target: 'next-turn', start: 0, removedCount: 1, inserted: [msg('new1')], outcome: 'canceled' })
      assert.deepEqual(r2, { target: 'next-step', start: 0, removedCount: 1, inserted: [msg('new2')], outcome: 'canceled' })
      const seq = session.seq
      const heard = h.observed.length
      assert.throws(() => inbox.replace('new1', msg('new2')), /message "new2" is already pending/)
      assert.equal(session.seq, seq, 'nothing written')
      assert.equal(h.observed.length, heard, 'no notification')
      assert.equal(inbox.replace('new1', createUserMessage({ id: 'new1', content: 'edited' })), true, 'replacing with the same id is allowed')
      assert.equal(inbox.nextTurn[0]!.content[0]!.text, 'edited')
    },
  },
  {
    group: 'AGENT-INBOX-TEST', clause: 119, title: 'splice(t, NaN, NaN, [a,b]) inserts at 0; splice(t, -1, 1, []) removes the last; remove of an absent id returns false',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const { inbox, session } = agent
      const start = session.seq
      inbox.append('next-turn', msg('x'))
      inbox.splice('next-turn', NaN, NaN, [msg('a'), msg('b')])
      assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['a', 'b', 'x'])
      assert.deepEqual(splices(agent, start)[1], { target: 'next-turn', start: 0, inserted: [msg('a'), msg('b')] })
      assert.deepEqual(Object.keys(splices(agent, start)[1]!), ['target', 'start', 'inserted'], 'removedCount and outcome omitted')
      const removed = inbox.splice('next-turn', -1, 1, [])
      assert.deepEqual(removed.map((m) => m.id), ['x'])
      assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['a', 'b'])
      assert.deepEqual(splices(agent, start)[2], { target: 'next-turn', start: 2, removedCount: 1, inserted: [], outcome: 'canceled' })
      const seq = session.seq
      assert.equal(inbox.remove('absent'), false)
      assert.equal(session.seq, seq)
    },
  },
  {
    group: 'AGENT-INBOX-TEST', clause: 119, title: 'a delete count past the end is clamped to length - start in the durable event; a splice that removes and inserts nothing (NaN count) writes no event and returns []',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const { inbox, session } = agent
      for (const id of ['a', 'b', 'c']) inbox.append('next-step', msg(id))
      const start = session.seq
      const removed = inbox.splice('next-step', 1, 99, [])
      assert.deepEqual(removed.map((m) => m.id), ['b', 'c'])
      assert.deepEqual(splices(agent, start), [{ target: 'next-step', start: 1, removedCount: 2, inserted: [], outcome: 'canceled' }], 'removedCount clamped to [0, length - start] (§6.2)')
      const seq = session.seq
      assert.deepEqual(inbox.splice('next-step', 0, NaN, []), [], 'NaN deletes nothing')
      assert.deepEqual(inbox.splice('next-turn', 0, 0, []), [])
      assert.equal(session.seq, seq, 'a mutation that removes and inserts nothing writes no event (§6.2)')
      assert.deepEqual(inbox.nextStep.map((m) => m.id), ['a'])
    },
  },
  {
    group: 'AGENT-INBOX-TEST', clause: 120, title: 'a splice may re-insert an id it removes, but not one pending outside its removed range, nor the same id twice; refused splices write nothing',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const { inbox, session } = agent
      inbox.append('next-turn', msg('a'))
      inbox.append('next-turn', msg('b'))
      const seq = session.seq
      assert.throws(() => inbox.splice('next-turn', 0, 1, [msg('b')]), /message "b" is already pending/, 'b stays pending after removing a')
      assert.throws(() => inbox.splice('next-turn', 2, 0, [msg('c'), msg('c')]), /message "c" is already pending/, 'one id twice in one splice')
      assert.equal(session.seq, seq, 'nothing written')
      assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['a', 'b'])
      assert.deepEqual(inbox.splice('next-turn', 1, 1, [msg('b')]).map((m) => m.id), ['b'], 'uniqueness is over the union after applying (§6.3)')
      assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['a', 'b'])
    },
  },
  {
    group: 'AGENT-INBOX-TEST', clause: 120, title: 'appending to next-step an id already pending in next-turn throws already pending and writes nothing',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const { inbox, session } = agent
      inbox.append('next-turn', msg('m1'))
      const seq = session.seq
      const heard = h.observed.length
      assert.throws(() => inbox.append('next-step', msg('m1')), /message "m1" is already pending/)
      assert.throws(() => inbox.prepend('next-step', msg('m1')), /message "m1" is already pending/)
      assert.throws(() => inbox.append('next-turn', msg('m1')), /message "m1" is already pending/)
      assert.throws(() => agent.inject(msg('m1')), /message "m1" is already pending/, 'a send of a pending id too')
      assert.equal(session.seq, seq)
      assert.equal(h.observed.length, heard)
      assert.deepEqual(inbox.nextStep, [])
      assert.deepEqual(inbox.nextTurn.map((m) => m.id), ['m1'])
    },
  },
  {
    group: 'AGENT-INBOX-TEST', clause: 121, title: 'clear writes exactly two events, next-step first, discarding next-step items first; a second clear writes nothing',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const { inbox, session } = agent
      inbox.append('next-turn', msg('t1'))
      inbox.append('next-step', msg('s1'))
      const before = session.seq
      const mark = h.observed.length
      inbox.clear()
      const written = session.events.slice(before)
      assert.deepEqual(written.map((e) => e.type), ['agent/inbox/spliced', 'agent/inbox/spliced'])
      assert.deepEqual(written[0]!.data, { target: 'next-step', start: 0, removedCount: 1, inserted: [], outcome: 'canceled' })
      assert.deepEqual(written[1]!.data, { target: 'next-turn', start: 0, removedCount: 1, inserted: [], outcome: 'canceled' })
      assert.deepEqual(notes(h, 's1', mark), ['discarded:s1', 'discarded:t1'])
      assert.equal(inbox.hasPending, false)
      const after = session.seq
      inbox.clear()
      assert.equal(session.seq, after)
      assert.deepEqual(notes(h, 's1', mark), ['discarded:s1', 'discarded:t1'])
    },
  },
  {
    group: 'AGENT-INBOX-TEST', clause: 126, title: 'the first step claims all next-step items then one next-turn item, as pure deletions, claimed after both splices',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const { inbox, session } = agent
      for (const id of ['t1', 't2']) inbox.append('next-turn', msg(id))
      for (const id of ['s1', 's2']) inbox.append('next-step', msg(id))
      const start = session.seq
      const mark = h.observed.length
      agent.followup(msg('f'))
      await agent.whenIdle()
      const turnStart = session.events.findIndex((e, i) => i >= start && e.type === 'turn/start')
      assert.ok(turnStart >= 0, 'a turn ran')
      const claims = session.events.slice(turnStart).filter((e) => e.type === 'agent/inbox/spliced').map((e) => e.data)
      assert.deepEqual(claims.slice(0, 2), [
        { target: 'next-step', start: 0, removedCount: 2, inserted: [] },
        { target: 'next-turn', start: 0, removedCount: 1, inserted: [] },
      ], 'the first claim: every next-step item, then one next-turn item, no outcome')
      const heard = h.observed.slice(mark).filter((o) => o.id === 's1' && (o.name === 'agent/inbox/claimed' || (o.name === 'session/event' && o.detail === 'agent/inbox/spliced')))
      assert.deepEqual(heard.slice(1, 6).map((o) => (o.name === 'session/event' ? 'splice' : `claimed:${o.detail}`)), ['splice', 'splice', 'claimed:s1', 'claimed:s2', 'claimed:t1'], 'claimed after both splices')
      assert.deepEqual(inbox.nextTurn, [], 'later turns claimed the rest one by one')
      const texts = session.events.filter((e) => e.type === 'turn/start').length
      assert.equal(texts, 3, 'three turns: t1 (with s1, s2), t2, f')
    },
  },
]
