/**
 * X-INPUT (§9 159–169): how input maps onto turns and steps (followup, steer, pre-step decisions,
 * turn-stopping, sends from inside a step, failures, forked sessions).
 */
import assert from 'node:assert/strict'
import type { SessionEvent, UserMessage } from '../../core/contract.js'
import { script } from '../../core/scripted-model.js'
import { COMPLETED, count, eventsOf, seqOf, textOf, turnEnds, turnStarts, turnsWithTexts } from './driving-helpers.js'
import type { DirectedCase } from './harness.js'
import { makeHarness, settle } from './harness.js'

const GROUP = 'X-INPUT'

/** Seq of the `user/message` carrying `text`. */
function userSeq(events: readonly SessionEvent[], text: string): number {
  return events.find((e) => e.type === 'user/message' && textOf(e.data as unknown as UserMessage) === text)?.seq ?? -1
}

export const xInputCases: DirectedCase[] = [
  {
    group: GROUP, clause: 159, title: 'event order for one followup: spliced, turn/start, step/start, user/message, assistant/message, step/end, turn/end',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      agent.followup(h.msg('hello'))
      await agent.whenIdle()
      // The order of the events §9 159 names; a runtime may log other event types between them
      // (e.g. request headers), which the clause does not speak about.
      const NAMED = new Set(['agent/inbox/spliced', 'turn/start', 'step/start', 'user/message', 'assistant/message', 'step/end', 'turn/end'])
      const types = agent.session.events.map((e) => e.type).filter((t) => NAMED.has(t))
      assert.equal(types[0], 'agent/inbox/spliced')
      assert.deepEqual(types.filter((t) => t !== 'agent/inbox/spliced'), ['turn/start', 'step/start', 'user/message', 'assistant/message', 'step/end', 'turn/end'])
      // The only other splice is the claim, inside the turn and before its first step.
      const claim = agent.session.events.filter((e) => e.type === 'agent/inbox/spliced').slice(1)
      for (const e of claim) assert.ok(e.seq > seqOf(agent, (x) => x.type === 'turn/start') && e.seq < seqOf(agent, (x) => x.type === 'step/start'))
      assert.deepEqual(turnEnds(agent), [COMPLETED])
    },
  },
  {
    group: GROUP, clause: 160, title: 'idle steer starts a turn synchronously; a second steer enters the next step of the same turn',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      agent.steer(h.msg('s1'))
      assert.equal(agent.status, 'running')
      assert.deepEqual(turnStarts(agent), [1], 'turn/start before steer() returned')
      agent.steer(h.msg('s2'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: ['s1', 's2'], steps: 2, reason: COMPLETED }])
      const events = agent.session.events
      assert.ok(userSeq(events, 's2') > seqOf(agent, (e) => e.type === 'step/start', 1), 's2 entered the second step')
      assert.ok(userSeq(events, 's1') < seqOf(agent, (e) => e.type === 'step/start', 1), 's1 entered the first step')
      assert.equal(h.model.requests.length, 2)
    },
  },
  {
    group: GROUP, clause: 161, title: 'steering sent during a step enters the next step of the same turn',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      let stopping = 0
      h.ctx.on('agent/turn-stopping', () => { stopping++ })
      h.model.push(script.fn(() => { agent.steer(h.msg('steer')); return script.text('first') }))
      agent.followup(h.msg('prompt'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: ['prompt', 'steer'], steps: 2, reason: COMPLETED }])
      // §10.1: turn-stopping only when the turn would stop (no next-step input pending): not after step 1.
      assert.equal(stopping, 1, 'agent/turn-stopping dispatched while steering was pending for the next step')
      assert.ok(userSeq(agent.session.events, 'steer') > seqOf(agent, (e) => e.type === 'step/start', 1))
      assert.equal(h.model.requests.length, 2)
      assert.deepEqual(h.model.requests[1]!.messages.map((m) => m.text), ['prompt', 'first', 'steer'])
    },
  },
  {
    group: GROUP, clause: 162, title: 'steering from an agent/turn-stopping listener produces another step in the same turn',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      let calls = 0
      h.ctx.on('agent/turn-stopping', ({ turn }) => {
        calls++
        if (calls === 1) { assert.equal(turn, 1); agent.steer(h.msg('more')) }
      })
      agent.followup(h.msg('prompt'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: ['prompt', 'more'], steps: 2, reason: COMPLETED }])
      assert.equal(calls, 2)
      assert.equal(h.model.requests.length, 2)
    },
  },
  {
    group: GROUP, clause: 163, title: 'a throwing agent/pre-step listener ends the turn (error), leaves later steering parked; the next wake runs it',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const errors: unknown[] = []
      h.ctx.on('agent/error', ({ error }) => { errors.push(error) })
      const failure = new Error('pre-step exploded')
      let thrown = false
      h.ctx.on('agent/pre-step', (_p, next) => {
        if (thrown) return next()
        thrown = true
        agent.steer(h.msg('parked steer'))
        throw failure
      })
      agent.followup(h.msg('first'))
      await agent.whenIdle()
      await settle()
      const [reason] = turnEnds(agent) as { kind: string; error?: { message?: string } }[]
      assert.equal(reason?.kind, 'error')
      assert.equal(reason?.error?.message, failure.message)
      assert.deepEqual(errors, [failure])
      assert.equal(count(agent, 'step/start'), 0)
      assert.equal(h.model.requests.length, 0)
      assert.deepEqual(agent.inbox.nextStep.map(textOf), ['parked steer'], 'parked, no new turn')
      assert.deepEqual(turnStarts(agent), [1])
      agent.followup(h.msg('second'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).map((t) => [t.turn, t.texts, t.reason]).slice(1), [[2, ['parked steer', 'second'], COMPLETED]])
    },
  },
  {
    group: GROUP, clause: 164, title: 'a pre-step enter with [] at the first step closes the turn completed with no step and no request',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      h.ctx.on('agent/pre-step', () => ({ kind: 'enter', messages: [] }))
      agent.followup(h.msg('x'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: [], steps: 0, reason: COMPLETED }])
      assert.equal(h.model.requests.length, 0)
      assert.equal(agent.inbox.hasPending, false, 'the claimed message does not return')
    },
  },
  {
    group: GROUP, clause: 165, title: 'a pre-step reject at a later step closes the turn blocked',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const steps: number[] = []
      h.ctx.on('agent/pre-step', ({ step }, next) => { steps.push(step); return step === 2 ? { kind: 'reject' } : next() })
      h.model.push(script.toolFollowUp(() => undefined))
      agent.followup(h.msg('x'))
      await agent.whenIdle()
      assert.deepEqual(steps, [1, 2])
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: ['x'], steps: 1, reason: { kind: 'blocked' } }])
      assert.equal(h.model.requests.length, 1)
      assert.equal(agent.status, 'idle')
    },
  },
  {
    group: GROUP, clause: 166, title: 'a send made from inside the model call lands in the following turn',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      h.model.push(script.fn(() => { agent.followup(h.msg('from inside')); return script.text('one') }))
      agent.followup(h.msg('outer'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).map((t) => [t.turn, t.texts, t.reason]), [[1, ['outer'], COMPLETED], [2, ['from inside'], COMPLETED]])
      assert.equal(h.model.requests.length, 2)
    },
  },
  {
    group: GROUP, clause: 167, title: 'a send one microtask after another yields two turns with independent sources',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      agent.followup(h.msg('by user'))
      await Promise.resolve()
      agent.followup(h.msg('by plugin', { kind: 'plugin', plugin: 'p1' }))
      await agent.whenIdle()
      assert.deepEqual(turnStarts(agent), [1, 2])
      const sources = eventsOf(agent, 'user/message').map((e) => (e.data as unknown as UserMessage).source)
      assert.deepEqual(sources, [{ kind: 'user' }, { kind: 'plugin', plugin: 'p1' }])
      assert.deepEqual(turnsWithTexts(agent).map((t) => t.texts), [['by user'], ['by plugin']])
    },
  },
  {
    group: GROUP, clause: 168, title: 'a model failure ends the turn {kind:error}, emits one agent/error, and the agent accepts the next turn',
    async run(target) {
      const h = await makeHarness(target, { script: [script.fail('model down')] })
      const { agent } = await h.create('s1')
      const errors: { turn: number; error: unknown }[] = []
      h.ctx.on('agent/error', ({ turn, error }) => { errors.push({ turn, error }) })
      agent.followup(h.msg('a'))
      await agent.whenIdle()
      const [reason] = turnEnds(agent) as { kind: string; error?: { message?: string } }[]
      assert.equal(reason?.kind, 'error')
      // §10.1/§10.2: the failure is normalized to {message, code:'UNKNOWN'} in turn/end.
      assert.deepEqual(reason?.error, { message: 'model down', code: 'UNKNOWN' })
      assert.equal(errors.length, 1)
      assert.equal(errors[0]!.turn, 1)
      assert.equal((errors[0]!.error as Error).message, 'model down')
      assert.equal(count(agent, 'step/end'), count(agent, 'step/start'), 'the failed step is closed')
      agent.followup(h.msg('b'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).map((t) => t.turn), [1, 2])
      assert.deepEqual(turnEnds(agent)[1], COMPLETED)
      assert.equal(errors.length, 1)
    },
  },
  {
    group: GROUP, clause: 169, title: "a forked session's agent continues turn numbering after the seed",
    async run(target) {
      const h = await makeHarness(target)
      const parent = await h.create('parent')
      for (const text of ['p1', 'p2']) {
        parent.agent.followup(h.msg(text))
        await parent.agent.whenIdle()
      }
      const seed = [...parent.agent.session.events]
      const child = await h.create('child', { seed, meta: { parentSession: 'parent', seedLength: seed.length } })
      assert.equal(child.agent.status, 'idle')
      child.agent.followup(h.msg('c1'))
      await child.agent.whenIdle()
      const live = child.agent.session.events.slice(seed.length)
      const starts = live.filter((e) => e.type === 'turn/start').map((e) => (e.data as { turn: number }).turn)
      assert.deepEqual(starts, [3])
      assert.deepEqual(turnEnds(child.agent).at(-1), COMPLETED)
      assert.deepEqual(h.model.requests.at(-1)!.messages.filter((m) => m.role === 'user').map((m) => m.text), ['p1', 'p2', 'c1'], 'the fork carries its history')
      assert.deepEqual(turnStarts(parent.agent), [1, 2], 'the parent is untouched')
    },
  },
  {
    group: GROUP, clause: 169, title: "a seed whose first event is the last turn/start: the agent's first turn continues after it",
    async run(target) {
      const h = await makeHarness(target)
      const seed: SessionEvent[] = [
        { type: 'turn/start', seq: 0, time: 1, data: { turn: 4 } },
        { type: 'turn/end', seq: 1, time: 2, data: { turn: 4, reason: { kind: 'completed' } } },
      ]
      const { agent } = await h.create('s1', { seed })
      agent.followup(h.msg('next'))
      await agent.whenIdle()
      assert.deepEqual(turnStarts(agent), [4, 5], 'numbering continues after the seed (the scan for the last turn/start reaches the first event)')
    },
  },
  {
    group: GROUP, clause: 165, title: 'a pre-step reject drops only the claimed batch: queued prompts stay pending and run on the next wake (catalog M37)',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      let rejected = false
      h.ctx.on('agent/pre-step', (_payload, next) => {
        if (rejected) return next()
        rejected = true
        return { kind: 'reject' }
      })
      agent.followup(h.msg('blocked'))
      agent.inject(h.msg('queued step input'))
      agent.send(h.msg('queued prompt'), 'next-turn', false)
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).map((t) => t.reason), [{ kind: 'blocked' }])
      assert.deepEqual(agent.inbox.nextTurn.map((m) => m.content[0]!.text), ['queued prompt'], 'a blocked admission must not cancel queued prompts')
      assert.deepEqual(agent.inbox.nextStep.map((m) => m.content[0]!.text), ['queued step input'], 'a blocked admission must not cancel queued step input')
      assert.equal(h.observed.filter((o) => o.name === 'agent/inbox/discarded').length, 0)
      agent.followup(h.msg('wake'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).map((t) => t.texts), [[], ['queued step input', 'queued prompt'], ['wake']])
    },
  },
  {
    group: GROUP, clause: 165, title: 'a pre-step reject in a later turn of the same driver stops it: the prompt still queued stays parked until the next wake',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      h.ctx.on('agent/pre-step', ({ turn }, next) => (turn === 2 ? { kind: 'reject' } : next()))
      // One driver runs turn 1 ('a') and, since input is pending, turn 2 ('b'), which is blocked.
      agent.followup(h.msg('a'))
      agent.followup(h.msg('b'))
      agent.followup(h.msg('c'))
      await agent.whenIdle()
      await settle()
      assert.deepEqual(turnsWithTexts(agent).map((t) => [t.turn, t.texts, t.reason]), [[1, ['a'], COMPLETED], [2, [], { kind: 'blocked' }]])
      assert.deepEqual(agent.inbox.nextTurn.map(textOf), ['c'], 'parked: a blocked turn returns the driver to idle, nothing re-wakes it')
      assert.equal(agent.status, 'idle')
      assert.equal(h.model.requests.length, 1)
      agent.followup(h.msg('d'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).slice(2).map((t) => t.texts), [['c'], ['d']])
    },
  },
  {
    group: GROUP, clause: 164, title: 'a pre-step enter with [] at a later step, after the model completed, ends the turn completed with no further request',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      // Steering sent during step 1 makes a step 2, whose pre-step enters nothing: the turn ends (§10.1).
      h.ctx.on('agent/pre-step', ({ step }, next) => (step === 2 ? { kind: 'enter', messages: [] } : next()))
      h.model.push(script.fn(() => { agent.steer(h.msg('steer')); return script.text('first') }))
      agent.followup(h.msg('prompt'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: ['prompt'], steps: 1, reason: COMPLETED }])
      assert.equal(h.model.requests.length, 1)
      assert.equal(agent.inbox.hasPending, false, 'the claimed steering does not return')
    },
  },
  {
    group: GROUP, clause: 159, title: 'a tool follow-up reply makes another step of the same turn, with no new input',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      h.model.push(script.toolFollowUp(() => undefined), script.text('done'))
      agent.followup(h.msg('prompt'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: ['prompt'], steps: 2, reason: COMPLETED }])
      assert.equal(h.model.requests.length, 2)
      assert.deepEqual(eventsOf(agent, 'step/start').map((e) => e.data), [{ turn: 1, step: 1 }, { turn: 1, step: 2 }])
    },
  },
]
