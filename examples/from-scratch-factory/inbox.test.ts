/**
 * The inbox operations of §9 118–120 and the fork replay of §9 54, on this factory's own inbox.
 * `dsh-kit certify` reports 118–120 as unit-tested in the kit, but those unit tests exercise the
 * kit's inbox; an implementation that brings its own (as this one does, §1.5 `inbox`) tests them
 * itself. Driven through the factory, on the agent it creates.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'vitest'
import { createRoot, createUserMessage, ERRORS } from 'dsh-lifecycle-kit'
import type { Agent, SessionEvent, UserMessage } from 'dsh-lifecycle-kit'
import { ScratchFactory } from './factory.js'

const msg = (id: string): UserMessage => createUserMessage({ id, content: id })

/** A process with this factory installed, and an agent created with `seed`/`seedLength`. */
async function agentWith(options: { seed?: SessionEvent[]; seedLength?: number } = {}) {
  const root = createRoot({ now: () => 0, newId: (kind) => `${kind}-x`, warn: () => undefined })
  const plugin = root.ctx.createScope(undefined, 'scratch')
  plugin.ctx.agents.setFactory(new ScratchFactory(plugin.ctx))
  const notes: string[] = []
  root.ctx.on('agent/inbox/inserted', ({ message }) => { notes.push(`inserted:${message.id}`) })
  root.ctx.on('agent/inbox/discarded', ({ message }) => { notes.push(`discarded:${message.id}`) })
  const { agent } = await root.ctx.agents.create({
    sessionId: 's1',
    ...(options.seed ? { seed: options.seed } : {}),
    ...(options.seedLength !== undefined ? { meta: { seedLength: options.seedLength } } : {}),
  })
  const splices = (): unknown[] => agent.session.events.filter((e) => e.type === 'agent/inbox/spliced').map((e) => e.data)
  return { agent, notes, splices }
}

const ids = (list: readonly UserMessage[]): string[] => list.map((m) => m.id)
const splice = (seq: number, data: unknown): SessionEvent => ({ type: 'agent/inbox/spliced', seq, time: 0, data }) as SessionEvent

describe('from-scratch-factory inbox', () => {
  it('AGENT-INBOX-TEST 118: replace across both lists: false for a missing id; discarded then inserted; an id pending elsewhere throws', async () => {
    const { agent, notes, splices } = await agentWith()
    agent.inbox.append('next-turn', msg('orig1'))
    agent.inbox.append('next-step', msg('orig2'))
    const seq = agent.session.seq
    assert.equal(agent.inbox.replace('missing', msg('new0')), false)
    assert.equal(agent.session.seq, seq)
    assert.equal(agent.inbox.replace('orig1', msg('new1')), true)
    assert.equal(agent.inbox.replace('orig2', msg('new2')), true)
    assert.deepEqual(notes, ['inserted:orig1', 'inserted:orig2', 'discarded:orig1', 'inserted:new1', 'discarded:orig2', 'inserted:new2'])
    assert.deepEqual(splices().slice(2), [
      { target: 'next-turn', start: 0, removedCount: 1, inserted: [msg('new1')], outcome: 'canceled' },
      { target: 'next-step', start: 0, removedCount: 1, inserted: [msg('new2')], outcome: 'canceled' },
    ])
    assert.throws(() => agent.inbox.replace('new1', msg('new2')), { message: ERRORS.alreadyPending('new2') })
    assert.deepEqual([ids(agent.inbox.nextTurn), ids(agent.inbox.nextStep)], [['new1'], ['new2']])
  })

  it('AGENT-INBOX-TEST 119: splice(t, NaN, NaN, [a,b]) inserts at 0; splice(t, -1, 1, []) removes the last; remove of an absent id returns false', async () => {
    const { agent, splices } = await agentWith()
    agent.inbox.append('next-turn', msg('x'))
    agent.inbox.splice('next-turn', NaN, NaN, [msg('a'), msg('b')])
    assert.deepEqual(ids(agent.inbox.nextTurn), ['a', 'b', 'x'])
    assert.deepEqual(ids(agent.inbox.splice('next-turn', -1, 1, [])), ['x'])
    assert.deepEqual(splices().slice(1), [
      { target: 'next-turn', start: 0, inserted: [msg('a'), msg('b')] },
      { target: 'next-turn', start: 2, removedCount: 1, inserted: [], outcome: 'canceled' },
    ])
    const seq = agent.session.seq
    assert.equal(agent.inbox.remove('absent'), false)
    assert.deepEqual(agent.inbox.splice('next-step', 0, 3, []), [])
    assert.equal(agent.session.seq, seq, 'a mutation that changes nothing writes nothing')
  })

  it('AGENT-INBOX-TEST 120: an id pending in either list cannot be added again, and nothing is written', async () => {
    const { agent, notes } = await agentWith()
    agent.inbox.append('next-turn', msg('m1'))
    const [seq, noted] = [agent.session.seq, notes.length]
    const pending = { message: ERRORS.alreadyPending('m1') }
    assert.throws(() => agent.inbox.append('next-step', msg('m1')), pending)
    assert.throws(() => agent.inbox.prepend('next-turn', msg('m1')), pending)
    assert.throws(() => (agent as Agent).steer(msg('m1')), pending)
    assert.throws(() => agent.inbox.splice('next-step', 0, 0, [msg('m2'), msg('m2')]), { message: ERRORS.alreadyPending('m2') })
    assert.deepEqual([agent.session.seq, notes.length, agent.status], [seq, noted, 'idle'])
  })

  it('AGENT-INBOX-REPLAY 117: live and replay validate alike: what replay refuses is refused live, writing nothing; what live accepts replays', async () => {
    const { agent, notes } = await agentWith()
    agent.inbox.append('next-turn', msg('t1'))
    const [seq, noted] = [agent.session.seq, notes.length]
    const refused: unknown[][] = [
      ['next-turn', 0, 0, ['x']], ['next-turn', 0, 0, [null]], ['next-turn', 0, 0, [{ note: 'not a message' }]],
      ['next-turn', 0, 0, [{ id: 7 }]], ['next-turn', 0, 1, ''], ['next-turn', 0, 0, msg('m1')], ['later', 0, 0, [msg('m1')]],
    ]
    for (const [target, start, count, inserted] of refused) {
      assert.throws(() => agent.inbox.splice(target as 'next-turn', start as number, count as number, inserted as UserMessage[]), TypeError, JSON.stringify(inserted))
    }
    assert.deepEqual([agent.session.seq, notes.length, ids(agent.inbox.nextTurn)], [seq, noted, ['t1']], 'nothing written or heard')
    agent.inbox.splice('next-turn', -1, 1, [msg('t2'), msg('t3')])
    const replayed = await agentWith({ seed: [...agent.session.events] })
    assert.deepEqual(replayed.agent.inbox.nextTurn, agent.inbox.nextTurn)
  })

  it('AGENT-CREATE-RESUME 54: a forked session replays only the splices after header.seedLength', async () => {
    // The parent's prefix: a pending item and a splice that would be invalid on its own.
    const parent = [splice(0, { target: 'next-turn', start: 0, inserted: [msg('parent')] }), splice(1, { target: 'next-turn', start: 5, inserted: [] })]
    const forked = await agentWith({ seed: parent, seedLength: 2 })
    assert.equal(forked.agent.inbox.hasPending, false)
    // With only the first event inherited, the second is the fork's own and fails the replay.
    await assert.rejects(agentWith({ seed: parent, seedLength: 1 }), { message: ERRORS.invalidSplice(1) })
  })
})
