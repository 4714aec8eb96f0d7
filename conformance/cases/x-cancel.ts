/**
 * X-CANCEL (§9 142–158): `cancel(cause, {keepInbox})`, wake latching across an abort convergence and
 * cooperative cancellation windows. Slow convergences are held behind gates (no timers).
 */
import assert from 'node:assert/strict'
import type { Agent, AgentCancelCause, ModelRequest } from '../../core/contract.js'
import { script } from '../../core/scripted-model.js'
import {
  aborted, COMPLETED, count, eventsOf, hangAt, slowConvergence, textOf, turnEnds, turnStarts, turnsWithTexts, untilAborted, USER, userTexts,
} from './driving-helpers.js'
import type { DirectedCase, Harness } from './harness.js'
import { gate, makeHarness, settle } from './harness.js'

const GROUP = 'X-CANCEL'

/** Ids of the messages discarded (live notification) for any agent. */
function discards(h: Harness): string[] {
  const out: string[] = []
  h.ctx.on('agent/inbox/discarded', ({ message }) => { out.push(message.id) })
  return out
}

/** The `agent/inbox/spliced` payloads carrying `outcome:'canceled'`. */
function canceledSplices(agent: Agent): unknown[] {
  return eventsOf(agent, 'agent/inbox/spliced').filter((e) => (e.data as { outcome?: string }).outcome === 'canceled').map((e) => e.data)
}

export const xCancelCases: DirectedCase[] = [
  {
    group: GROUP, clause: 142, title: 'idle cancel with an empty inbox is a no-op; the next followup runs normally',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const gone = discards(h)
      const before = agent.session.seq
      agent.cancel(USER)
      agent.cancel({ kind: 'hook', reason: 'again' }, { keepInbox: true })
      await settle()
      assert.equal(agent.session.seq, before, 'nothing appended')
      assert.deepEqual(gone, [])
      assert.deepEqual(h.statuses('s1'), [])
      agent.followup(h.msg('x'))
      await agent.whenIdle()
      assert.deepEqual(turnEnds(agent), [COMPLETED], 'idle cancellation armed nothing')
      assert.equal(h.model.requests.length, 1)
      assert.equal(h.model.requests[0]!.signal.aborted, false)
    },
  },
  {
    group: GROUP, clause: 143, title: 'followup then immediate keepInbox cancel: no canceled splice, no request, turn/end {aborted,user}; a later followup runs',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      agent.followup(h.msg('first'))
      agent.cancel(USER, { keepInbox: true })
      await agent.whenIdle()
      await settle()
      assert.deepEqual(canceledSplices(agent), [])
      assert.equal(h.model.requests.length, 0)
      assert.deepEqual(turnEnds(agent), [aborted(USER)])
      assert.equal(agent.inbox.hasPending, false, 'the claimed item is not restored by keepInbox')
      agent.followup(h.msg('second'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).map((t) => [t.turn, t.texts, t.reason]), [[1, [], aborted(USER)], [2, ['second'], COMPLETED]])
      assert.equal(h.model.requests.length, 1)
    },
  },
  {
    group: GROUP, clause: 144, title: 'keepInbox during an active turn: the queued item survives and runs only after the next wake',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate()
      h.model.push(hangAt(reached))
      const { agent } = await h.create('s1')
      agent.followup(h.msg('a'))
      const queued = h.msg('b')
      agent.followup(queued)
      await reached.promise
      agent.cancel(USER, { keepInbox: true })
      await agent.whenIdle()
      await settle()
      assert.deepEqual(agent.inbox.nextTurn.map((m) => m.id), [queued.id], 'parked, not discarded')
      assert.deepEqual(canceledSplices(agent), [])
      assert.equal(h.model.requests.length, 1)
      assert.deepEqual(turnEnds(agent), [aborted(USER)], 'nothing ran without a wake')
      agent.followup(h.msg('c'))
      await agent.whenIdle()
      assert.equal(h.model.requests.length, 3, 'two more requests')
      assert.deepEqual(turnsWithTexts(agent).map((t) => [t.turn, t.texts]), [[1, ['a']], [2, ['b']], [3, ['c']]])
      assert.deepEqual(turnEnds(agent), [aborted(USER), COMPLETED, COMPLETED])
    },
  },
  {
    group: GROUP, clause: 145, title: 'keepInbox then a waking send during convergence runs without another wake; reasons [aborted(user), completed]',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate()
      const slow = gate()
      h.model.push(slowConvergence(reached, slow))
      const { agent } = await h.create('s1')
      agent.followup(h.msg('a'))
      await reached.promise
      agent.cancel(USER, { keepInbox: true })
      agent.followup(h.msg('b'))
      await settle()
      assert.equal(h.model.requests.length, 1, 'held in convergence')
      slow.open()
      await agent.whenIdle()
      assert.deepEqual(turnEnds(agent), [aborted(USER), COMPLETED])
      assert.deepEqual(turnsWithTexts(agent).map((t) => t.texts), [['a'], ['b']])
      assert.equal(h.model.requests.length, 2)
    },
  },
  {
    group: GROUP, clause: 146, title: 'keepInbox + latched send + plain cancel: the latch and the item are dropped; nothing runs until the next send',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate()
      const slow = gate()
      h.model.push(slowConvergence(reached, slow))
      const { agent } = await h.create('s1')
      const gone = discards(h)
      agent.followup(h.msg('a'))
      await reached.promise
      agent.cancel(USER, { keepInbox: true })
      const latched = h.msg('b')
      agent.followup(latched)
      agent.cancel(USER)
      assert.deepEqual(gone, [latched.id])
      // Non-waking input after the plain cancel: it would run at convergence only if the latch survived.
      const parked = h.msg('parked')
      agent.send(parked, 'next-turn', false)
      slow.open()
      await agent.whenIdle()
      await settle()
      assert.deepEqual(turnEnds(agent), [aborted(USER)])
      assert.equal(h.model.requests.length, 1)
      assert.deepEqual(agent.inbox.nextTurn.map((m) => m.id), [parked.id], 'parked, not run')
      assert.deepEqual(h.statuses('s1'), ['running', 'idle'])
      agent.followup(h.msg('c'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).map((t) => t.texts), [['a'], ['parked'], ['c']])
    },
  },
  {
    group: GROUP, clause: 147, title: 'a steer latched after an abort and then removed produces no further turn',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate()
      const slow = gate()
      h.model.push(slowConvergence(reached, slow))
      const { agent } = await h.create('s1')
      agent.followup(h.msg('a'))
      await reached.promise
      agent.cancel(USER)
      const steer = h.msg('steer')
      agent.steer(steer)
      assert.deepEqual(agent.inbox.nextTurn.map((m) => m.id), [steer.id], 'reclassified to next-turn')
      assert.deepEqual(agent.inbox.nextStep, [])
      assert.equal(agent.inbox.remove(steer.id), true)
      slow.open()
      await agent.whenIdle()
      await settle()
      assert.deepEqual(turnStarts(agent), [1])
      assert.equal(h.model.requests.length, 1)
      assert.deepEqual(h.statuses('s1'), ['running', 'idle'])
      assert.deepEqual(userTexts(agent), ['a'])
    },
  },
  {
    group: GROUP, clause: 148, title: 'a wake landing inside a slow abort convergence is still latched and runs',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate()
      const abortSeen = gate()
      const slow = gate()
      h.model.push(slowConvergence(reached, slow, abortSeen))
      const { agent } = await h.create('s1')
      agent.followup(h.msg('a'))
      await reached.promise
      agent.cancel(USER)
      // The convergence has begun (the call saw its abort) but is held: the wake lands inside it.
      await abortSeen.promise
      await settle()
      assert.equal(agent.status, 'running')
      agent.followup(h.msg('late'))
      await settle()
      assert.equal(h.model.requests.length, 1)
      slow.open()
      await agent.whenIdle()
      assert.deepEqual(turnEnds(agent), [aborted(USER), COMPLETED])
      assert.deepEqual(turnsWithTexts(agent).map((t) => t.texts), [['a'], ['late']])
      assert.deepEqual(h.statuses('s1'), ['running', 'idle', 'running', 'idle'])
    },
  },
  {
    group: GROUP, clause: 148, title: 'a wake latched in an abort convergence still runs when a listener of the exit\'s idle starts a maintenance: the maintenance holds the latch',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate()
      const abortSeen = gate()
      const slow = gate()
      h.model.push(slowConvergence(reached, slow, abortSeen))
      const { agent } = await h.create('s1')
      agent.followup(h.msg('a'))
      await reached.promise
      agent.cancel(USER)
      await abortSeen.promise
      await settle()
      agent.followup(h.msg('late'))
      const held = gate()
      let maintained: Promise<unknown> | undefined
      h.ctx.on('agent/status', ({ status }) => {
        if (status === 'idle' && maintained === undefined) maintained = agent.runMaintenance(() => held.promise)
      })
      slow.open()
      await settle()
      assert.ok(maintained, 'the idle listener started a maintenance at the exit')
      assert.equal(h.model.requests.length, 1, 'nothing runs while the maintenance holds the agent')
      held.open()
      await maintained
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).map((t) => t.texts), [['a'], ['late']], 'the latched wake ran at the maintenance\'s convergence')
    },
  },
  {
    group: GROUP, clause: 149, title: 'two followups then cancel: one turn, no step, turn/end {aborted,user}, status idle',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const gone = discards(h)
      agent.followup(h.msg('a'))
      const second = h.msg('b')
      agent.followup(second)
      agent.cancel(USER)
      await agent.whenIdle()
      await settle()
      assert.deepEqual(turnStarts(agent), [1])
      assert.equal(count(agent, 'step/start'), 0)
      assert.deepEqual(turnEnds(agent), [aborted(USER)])
      assert.equal(agent.status, 'idle')
      assert.equal(h.model.requests.length, 0)
      assert.deepEqual(gone, [second.id])
    },
  },
  {
    group: GROUP, clause: 150, title: 'cancel from a synchronous agent/status(running) listener: no turn/start at all',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      let done = false
      h.ctx.on('agent/status', ({ status }) => { if (status === 'running' && !done) { done = true; agent.cancel(USER) } })
      agent.followup(h.msg('a'))
      await agent.whenIdle()
      await settle()
      assert.equal(count(agent, 'turn/start'), 0)
      assert.equal(count(agent, 'turn/end'), 0)
      assert.equal(h.model.requests.length, 0)
      assert.equal(agent.status, 'idle')
      assert.equal(agent.inbox.hasPending, false)
      assert.deepEqual(h.statuses('s1'), ['running', 'idle'])
    },
  },
  {
    group: GROUP, clause: 151, title: 'cancel + resend from a running listener: only the resent message runs, then later sends run normally',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      let done = false
      h.ctx.on('agent/status', ({ status }) => {
        if (status === 'running' && !done) { done = true; agent.cancel(USER); agent.followup(h.msg('resent')) }
      })
      agent.followup(h.msg('original'))
      await agent.whenIdle()
      assert.equal(h.model.requests.length, 1)
      assert.deepEqual(userTexts(agent), ['resent'])
      assert.deepEqual(turnEnds(agent), [COMPLETED])
      agent.followup(h.msg('later'))
      await agent.whenIdle()
      assert.equal(h.model.requests.length, 2)
      assert.deepEqual(turnsWithTexts(agent).map((t) => [t.turn, t.texts, t.reason]), [[1, ['resent'], COMPLETED], [2, ['later'], COMPLETED]])
    },
  },
  {
    group: GROUP, clause: 152, title: 'a prompt sent right after a cancel that hit a just-started turn runs in the following turn',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      agent.followup(h.msg('a'))
      assert.deepEqual(turnStarts(agent), [1], 'turn 1 started inside followup()')
      agent.cancel(USER)
      agent.followup(h.msg('b'))
      await agent.whenIdle()
      agent.followup(h.msg('c'))
      await agent.whenIdle()
      assert.deepEqual(turnEnds(agent), [aborted(USER), COMPLETED, COMPLETED])
      assert.deepEqual(turnsWithTexts(agent).map((t) => [t.turn, t.texts]), [[1, []], [2, ['b']], [3, ['c']]])
      assert.equal(h.model.requests.length, 2)
    },
  },
  {
    group: GROUP, clause: 153, title: 'cancel mid-step drops the queued tail; one turn/start; reasons [aborted(user)]',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate()
      h.model.push(hangAt(reached))
      const { agent } = await h.create('s1')
      const gone = discards(h)
      agent.followup(h.msg('a'))
      const tail = [h.msg('b'), h.msg('c')]
      tail.forEach((m) => agent.followup(m))
      await reached.promise
      agent.cancel(USER)
      await agent.whenIdle()
      await settle()
      assert.deepEqual(turnStarts(agent), [1])
      assert.deepEqual(turnEnds(agent), [aborted(USER)])
      assert.deepEqual(gone, tail.map((m) => m.id))
      assert.equal(agent.inbox.hasPending, false)
      assert.equal(h.model.requests.length, 1)
      assert.equal(h.model.requests[0]!.signal.reason, USER)
    },
  },
  {
    group: GROUP, clause: 154, title: 'steering pending at cancel is discarded, never re-enqueued as a turn',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate()
      h.model.push(hangAt(reached))
      const { agent } = await h.create('s1')
      const gone = discards(h)
      agent.followup(h.msg('a'))
      await reached.promise
      const steer = h.msg('steer')
      agent.steer(steer)
      assert.deepEqual(agent.inbox.nextStep.map((m) => m.id), [steer.id])
      agent.cancel(USER)
      await agent.whenIdle()
      await settle()
      assert.deepEqual(gone, [steer.id])
      assert.equal(agent.inbox.hasPending, false)
      assert.deepEqual(turnStarts(agent), [1])
      agent.followup(h.msg('b'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).map((t) => t.texts), [['a'], ['b']])
      assert.ok(!userTexts(agent).includes('steer'))
    },
  },
  {
    group: GROUP, clause: 155, title: 'work sent by an abort-signal observer is latched and runs after convergence',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate()
      const { agent } = await h.create('s1')
      h.model.push(script.fn((request) => {
        request.signal.addEventListener('abort', () => agent.followup(h.msg('from observer')), { once: true })
        reached.open()
        return script.hang()
      }))
      agent.followup(h.msg('a'))
      await reached.promise
      agent.cancel(USER)
      await agent.whenIdle()
      assert.deepEqual(turnEnds(agent), [aborted(USER), COMPLETED])
      assert.deepEqual(turnsWithTexts(agent).map((t) => t.texts), [['a'], ['from observer']])
      assert.equal(h.model.requests.length, 2)
    },
  },
  {
    group: GROUP, clause: 156, title: 'the first typed cause wins: signal.reason is the exact first cause; turn/end.reason = {aborted, <first cause>}',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate<ModelRequest>()
      h.model.push(hangAt(reached))
      const handle = await h.create('s1')
      const { agent } = handle
      agent.followup(h.msg('a'))
      const request = await reached.promise
      const first: AgentCancelCause = { kind: 'hook', reason: 'policy' }
      agent.cancel(first)
      agent.cancel({ kind: 'parent' })
      agent.cancel(USER)
      assert.equal(request.signal.reason, first)
      await agent.whenIdle()
      assert.deepEqual(turnEnds(agent), [aborted({ kind: 'hook', reason: 'policy' })])
      // Even disposal does not override an earlier cause of the same activity.
      const reached2 = gate<ModelRequest>()
      h.model.push(hangAt(reached2))
      agent.followup(h.msg('b'))
      const request2 = await reached2.promise
      const user = { kind: 'user' } as const
      agent.cancel(user)
      await handle.dispose()
      assert.equal(request2.signal.reason, user)
      assert.deepEqual(turnEnds(agent), [aborted({ kind: 'hook', reason: 'policy' }), aborted(USER)])
    },
  },
  {
    group: GROUP, clause: 157, title: 'cooperative cancellation at pre-step, assembly, request, turn-stopping and tool execution each ends {aborted,user}',
    async run(target) {
      type Window = 'pre-step' | 'assembly' | 'request' | 'turn-stopping' | 'tool'
      const windows: Window[] = ['pre-step', 'assembly', 'request', 'turn-stopping', 'tool']
      for (const where of windows) {
        const h = await makeHarness(target)
        const { agent } = await h.create('s1')
        if (where === 'pre-step') h.ctx.on('agent/pre-step', (_p, next) => { agent.cancel(USER); return next() })
        if (where === 'turn-stopping') h.ctx.on('agent/turn-stopping', async () => { agent.cancel(USER) })
        if (where === 'request') h.model.push(script.fn(() => { agent.cancel(USER); return script.text('never') }))
        if (where === 'tool') h.model.push(script.toolFollowUp(async (request) => { agent.cancel(USER); await untilAborted(request.signal) }))
        agent.followup(h.msg('x'))
        // Assembly: the turn is open and its first batch claimed; the driver awaits prompt assembly.
        if (where === 'assembly') agent.cancel(USER)
        await agent.whenIdle()
        assert.deepEqual(turnEnds(agent), [aborted(USER)], `cancelled at ${where}`)
        assert.equal(agent.status, 'idle', where)
        const steps = count(agent, 'step/start')
        assert.equal(steps, where === 'pre-step' || where === 'assembly' ? 0 : 1, `${where}: steps`)
        assert.equal(count(agent, 'assistant/message'), where === 'turn-stopping' ? 1 : 0, `${where}: assistant messages`)
        assert.equal(count(agent, 'step/end'), steps, `${where}: steps balanced`)
      }
    },
  },
  {
    group: GROUP, clause: 145, title: 'a waking send after a cancel with the {kind:disposed} cause is parked, never latched (disposal never latches)',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const reached = gate()
      const slow = gate()
      h.model.push(slowConvergence(reached, slow))
      agent.followup(h.msg('first'))
      await reached.promise
      agent.cancel({ kind: 'disposed' }, { keepInbox: true })
      agent.followup(h.msg('during convergence'))
      slow.open()
      await agent.whenIdle()
      await settle()
      // §7.2 step 4: a send while the aborted activity converges latches "unless the activity's abort
      // reason is {kind:'disposed'}"; §7.3: "(unless disposed) latches".
      assert.deepEqual(turnEnds(agent), [aborted({ kind: 'disposed' })], 'no turn ran the parked send')
      assert.deepEqual(agent.inbox.nextTurn.map(textOf), ['during convergence'])
      assert.equal(h.model.requests.length, 1)
      assert.equal(agent.status, 'idle')
    },
  },
  {
    group: GROUP, clause: 157, title: 'a cancel is observed at the next await: no pre-step after assembly, no blocked or late reply, no turn-stopping after the step',
    async run(target) {
      // §10.1 checks the activity signal after every await, before any further work of the turn.
      type Window = 'assembly' | 'pre-step then reject' | 'step/end observer' | 'reply after abort'
      const windows: Window[] = ['assembly', 'pre-step then reject', 'step/end observer', 'reply after abort']
      for (const where of windows) {
        const h = await makeHarness(target)
        const { agent } = await h.create('s1')
        let preSteps = 0
        let stopping = 0
        h.ctx.on('agent/pre-step', (_p, next) => {
          preSteps++
          if (where !== 'pre-step then reject') return next()
          agent.cancel(USER)
          return { kind: 'reject' }
        })
        h.ctx.on('agent/turn-stopping', () => { stopping++ })
        if (where === 'step/end observer') {
          h.ctx.on('session/event', (_session, event) => { if (event.type === 'step/end') agent.cancel(USER) })
        }
        if (where === 'reply after abort') h.model.push(script.unheeding(() => agent.cancel(USER), 'late reply'))
        agent.followup(h.msg('x'))
        if (where === 'assembly') agent.cancel(USER)
        await agent.whenIdle()
        assert.deepEqual(turnEnds(agent), [aborted(USER)], `cancelled at ${where}: the abort wins over the listener's decision`)
        assert.equal(preSteps, where === 'assembly' ? 0 : 1, `${where}: agent/pre-step dispatches`)
        assert.equal(stopping, 0, `${where}: no agent/turn-stopping for an aborted step`)
        const late = eventsOf(agent, 'assistant/message').filter((e) => (e.data as { interrupted?: unknown }).interrupted !== true)
        // The step/end observer cancels after the step's reply was logged; everywhere else none may be.
        assert.equal(late.length, where === 'step/end observer' ? 1 : 0, `${where}: a reply that arrives after the abort is not logged as a completed assistant/message`)
        assert.equal(count(agent, 'step/end'), count(agent, 'step/start'), `${where}: steps balanced`)
      }
    },
  },
  {
    group: GROUP, clause: 150, title: 'keepInbox cancel from a turn/start observer: the turn closes aborted before claiming; the item stays parked and the next wake runs it',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      let done = false
      h.ctx.on('session/event', (_session, event) => {
        if (event.type === 'turn/start' && !done) { done = true; agent.cancel(USER, { keepInbox: true }) }
      })
      agent.followup(h.msg('a'))
      await agent.whenIdle()
      await settle()
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: [], steps: 0, reason: aborted(USER) }])
      assert.deepEqual(h.names('s1', (o) => o.name === 'agent/inbox/claimed'), [], 'nothing claimed by the aborted turn')
      assert.deepEqual(agent.inbox.nextTurn.map(textOf), ['a'], 'keepInbox: the pending item stays parked (§7.3)')
      assert.equal(h.model.requests.length, 0)
      agent.followup(h.msg('b'))
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent).slice(1).map((t) => [t.texts, t.reason]), [[['a'], COMPLETED], [['b'], COMPLETED]])
    },
  },
  {
    group: GROUP, clause: 158, title: 'cancel during agent/turn-stopping ends the turn aborted with only one step',
    async run(target) {
      // Plain cancel (nothing left to run: only the post-stopping abort check can end it aborted), and
      // keepInbox with steering added by the listener (which would otherwise enter a second step).
      for (const variant of ['plain', 'keepInbox+steer'] as const) {
        const h = await makeHarness(target)
        const { agent } = await h.create('s1')
        const entered = gate()
        const proceed = gate()
        let calls = 0
        h.ctx.on('agent/turn-stopping', async ({ signal }) => {
          calls++
          entered.open()
          await proceed.promise
          if (variant === 'plain') agent.cancel(USER)
          else { agent.steer(h.msg('steer')); agent.cancel(USER, { keepInbox: true }) }
          assert.equal(signal.aborted, true)
        })
        agent.followup(h.msg('x'))
        await entered.promise
        assert.equal(agent.status, 'running')
        proceed.open()
        await agent.whenIdle()
        await settle()
        assert.equal(calls, 1, variant)
        assert.equal(count(agent, 'step/start'), 1, variant)
        assert.equal(count(agent, 'step/end'), 1, variant)
        assert.deepEqual(turnEnds(agent), [aborted(USER)], variant)
        assert.equal(h.model.requests.length, 1, variant)
        assert.deepEqual(agent.inbox.nextStep.map(textOf), variant === 'plain' ? [] : ['steer'], `${variant}: parked, not run in a second step`)
      }
    },
  },
]
