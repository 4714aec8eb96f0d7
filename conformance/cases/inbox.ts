/**
 * Agent-level AGENT-INBOX-TEST (§9 123–125, 127, 128): the inbox as driven through an agent made by
 * the factory under test. (The InboxImpl unit properties 116–122 and 126 live in `core/inbox.test.ts`.)
 */
import assert from 'node:assert/strict'
import type { InboxSplice, UserMessage } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import { COMPLETED, count, eventsOf, turnsWithTexts } from './driving-helpers.js'
import type { DirectedCase } from './harness.js'
import { makeHarness, settle } from './harness.js'

const GROUP = 'AGENT-INBOX-TEST'

function splices(agent: { session: { events: readonly { type: string; data: unknown }[] } }): InboxSplice[] {
  return agent.session.events.filter((e) => e.type === 'agent/inbox/spliced').map((e) => e.data as unknown as InboxSplice)
}

export const inboxCases: DirectedCase[] = [
  {
    group: GROUP, clause: 123, title: 'idle inject writes one next-step splice as the only session event, opens no turn, makes no request, stays idle',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const before = agent.session.seq
      const m = h.msg('context')
      agent.inject(m)
      await agent.whenIdle()
      await settle()
      const added = agent.session.events.slice(before)
      assert.deepEqual(added.map((e) => e.type), ['agent/inbox/spliced'])
      assert.deepEqual(added[0]!.data, { target: 'next-step', start: 0, inserted: [m] })
      assert.equal(h.model.requests.length, 0)
      assert.equal(agent.status, 'idle')
      assert.deepEqual(h.statuses('s1'), [])
      assert.deepEqual(agent.inbox.nextStep.map((x) => x.id), [m.id])
    },
  },
  {
    group: GROUP, clause: 123, title: 'idle queue (the R-AG alias, supports.queue) parks a next-turn item without waking; the next wake runs it first, as its own turn',
    async run(target) {
      if (!target.supports.queue) return
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const before = agent.session.seq
      const m = h.msg('queued')
      agent.queue!(m)
      await agent.whenIdle()
      await settle()
      const added = agent.session.events.slice(before)
      assert.deepEqual(added.map((e) => e.type), ['agent/inbox/spliced'])
      assert.deepEqual(added[0]!.data, { target: 'next-turn', start: 0, inserted: [m] })
      assert.equal(h.model.requests.length, 0)
      assert.deepEqual(h.statuses('s1'), [])
      agent.followup(h.msg('wake'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).map((t) => t.texts), [['queued'], ['wake']])
    },
  },
  {
    group: GROUP, clause: 124, title: 'a non-JSON message passed to inject throws non-JSON-serializable and writes nothing',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const before = agent.session.seq
      const inserted: string[] = []
      h.ctx.on('agent/inbox/inserted', ({ message }) => { inserted.push(message.id) })
      const good = h.msg('x')
      const bad = [
        { ...good, source: { kind: 'user', big: 10n } },
        { ...good, source: { kind: 'user', fn: () => 1 } },
        { ...good, content: [{ type: 'text', text: 'x', extra: Infinity }] },
      ] as unknown as UserMessage[]
      for (const m of bad) assert.throws(() => agent.inject(m), /non-JSON-serializable/)
      assert.equal(agent.session.seq, before)
      assert.equal(agent.inbox.hasPending, false)
      assert.deepEqual(inserted, [])
      assert.equal(agent.status, 'idle')
      // The same id is still accepted once the message is serialisable.
      agent.inject(good)
      assert.deepEqual(agent.inbox.nextStep.map((x) => x.id), [good.id])
    },
  },
  {
    group: GROUP, clause: 125, title: 'inject+remove+followup notifications: inserted=[ctx,prompt], discarded=[ctx], claimed=[{prompt,1}], turn/start before claimed',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const log: string[] = []
      const inserted: string[] = []
      const discarded: string[] = []
      const claimed: { id: string; turn: number }[] = []
      h.ctx.on('agent/inbox/inserted', ({ message }) => { inserted.push(message.id) })
      h.ctx.on('agent/inbox/discarded', ({ message }) => { discarded.push(message.id) })
      h.ctx.on('agent/inbox/claimed', ({ message, turn }) => { claimed.push({ id: message.id, turn }); log.push('claimed') })
      h.ctx.on('session/event', (_s, event) => { if (event.type === 'turn/start') log.push('turn/start') })
      const ctxMsg = h.msg('context')
      const prompt = h.msg('prompt')
      agent.inject(ctxMsg)
      assert.equal(agent.inbox.remove(ctxMsg.id), true)
      agent.followup(prompt)
      assert.deepEqual(log, ['turn/start', 'claimed'], 'turn/start and the claim happen inside followup()')
      await agent.whenIdle()
      assert.deepEqual(inserted, [ctxMsg.id, prompt.id])
      assert.deepEqual(discarded, [ctxMsg.id])
      assert.deepEqual(claimed, [{ id: prompt.id, turn: 1 }])
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: ['prompt'], steps: 1, reason: COMPLETED }])
    },
  },
  {
    group: GROUP, clause: 127, title: 'splice payloads carry exactly content,id,role,source per message; the default followup source is {kind:user}',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const plugin = h.msg('from plugin', { kind: 'plugin', plugin: 'p1' })
      agent.followup(h.msg('hello'))
      agent.inject(plugin)
      await agent.whenIdle()
      const all = splices(agent)
      const items = all.flatMap((s) => s.inserted)
      assert.equal(items.length, 2)
      for (const item of items) assert.deepEqual(Object.keys(item).sort(), ['content', 'id', 'role', 'source'])
      assert.deepEqual(items[0]!.source, { kind: 'user' })
      assert.deepEqual(items[0]!.content, [{ type: 'text', text: 'hello' }])
      assert.equal(items[0]!.role, 'user')
      assert.deepEqual(items[1], plugin)
      for (const s of all) {
        const keys = Object.keys(s)
        const order = ['target', 'start', 'removedCount', 'inserted', 'outcome'].filter((k) => keys.includes(k))
        assert.deepEqual(keys, order, 'payload key order target,start,removedCount?,inserted,outcome?')
      }
    },
  },
  {
    group: GROUP, clause: 128, title: 'a send from inside a session/event observer of a splice fails (reentrant append), is contained, and only the outer message runs',
    needs: ['warnings'],
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      let tried = false
      let thrown: unknown
      h.ctx.on('session/event', (_s, event) => {
        if (event.type !== 'agent/inbox/spliced' || tried) return
        tried = true
        try {
          agent.followup(h.msg('inner'))
        } catch (error) {
          thrown = error
          throw error
        }
      })
      agent.followup(h.msg('outer'))
      await agent.whenIdle()
      await settle()
      assert.ok(thrown instanceof Error && thrown.message.includes(ERRORS.appendReentry), `reentrant send refused: ${String(thrown)}`)
      assert.ok(h.logged(thrown), 'the observer failure is contained and logged')
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: ['outer'], steps: 1, reason: COMPLETED }])
      assert.equal(h.model.requests.length, 1)
      assert.equal(agent.inbox.hasPending, false)
      assert.equal(count(agent, 'agent/inbox/spliced'), 2, 'the outer insert and its claim; nothing for the inner send')
      assert.equal(eventsOf(agent, 'user/message').length, 1)
    },
  },
  {
    group: 'AGENT-INBOX-COMMIT', clause: 122, title: 'the live inbox holds the logged snapshot, never the caller\'s message object (catalog M57)',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      // A caller that keeps and later mutates the object it sent (not frozen: built by hand).
      const mutable = { id: 'caller-1', role: 'user' as const, content: [{ type: 'text' as const, text: 'original' }], source: { kind: 'user' } }
      agent.inject(mutable as unknown as UserMessage)
      ;(mutable.content[0] as { text: string }).text = 'mutated'
      const pending = agent.inbox.nextStep[0]!
      assert.notEqual(pending, mutable as unknown, 'the inbox must hold its own snapshot')
      assert.equal(pending.content[0]!.text, 'original')
      assert.ok(Object.isFrozen(pending), 'the pending message is deep-frozen')
      const splice = agent.session.events.find((e) => e.type === 'agent/inbox/spliced')!.data as unknown as InboxSplice
      assert.deepEqual(pending, splice.inserted[0], 'memory equals the durable fact')
      agent.followup(h.msg('go'))
      await agent.whenIdle()
      const sent = agent.session.events.filter((e) => e.type === 'user/message').map((e) => (e.data as unknown as UserMessage).content[0]!.text)
      assert.deepEqual(sent, ['original', 'go'])
    },
  },
]
