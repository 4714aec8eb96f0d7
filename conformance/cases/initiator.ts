/**
 * AGENT-INITIATOR (§9 139–141): the initiator as observed from inside the drivers a factory runs.
 * (The InitiatorScope unit properties 129–138 live in `core/initiator.test.ts`.)
 */
import assert from 'node:assert/strict'
import type { Agent, ModelRequest } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import { script } from '../../core/scripted-model.js'
import { aborted, COMPLETED, turnEnds, untilAborted } from './driving-helpers.js'
import type { DirectedCase } from './harness.js'
import { gate, makeHarness, settle } from './harness.js'


export const initiatorCases: DirectedCase[] = [
  {
    group: 'AGENT-INITIATOR-API', clause: 139, title: 'two concurrently driven agents observe themselves as initiator inside their model calls, before and after awaits',
    async run(target) {
      const h = await makeHarness(target)
      const a = (await h.create('a')).agent
      const b = (await h.create('b')).agent
      const shared = gate()
      const both = gate()
      const seen: Record<string, (Agent | undefined)[]> = { a: [], b: [] }
      let entered = 0
      const body = async (request: ModelRequest): Promise<void> => {
        const cur = (): Agent | undefined => h.ctx.agents.currentInitiator()
        seen[request.sessionId]!.push(cur())
        if (++entered === 2) both.open()
        await shared.promise
        seen[request.sessionId]!.push(cur())
        await Promise.resolve()
        seen[request.sessionId]!.push(cur())
      }
      h.model.push(script.toolFollowUp(body), script.toolFollowUp(body))
      a.followup(h.msg('a'))
      b.followup(h.msg('b'))
      assert.equal(h.ctx.agents.currentInitiator(), undefined, 'the sender is not inside any boundary')
      await both.promise
      shared.open()
      await Promise.all([a.whenIdle(), b.whenIdle()])
      assert.deepEqual(seen.a!.map((x) => x?.id), ['a', 'a', 'a'])
      assert.deepEqual(seen.b!.map((x) => x?.id), ['b', 'b', 'b'])
      assert.ok(seen.a!.every((x) => x === a) && seen.b!.every((x) => x === b), 'the exact agent objects')
      assert.equal(h.ctx.agents.currentInitiator(), undefined)
      assert.deepEqual(turnEnds(a), [COMPLETED])
      assert.deepEqual(turnEnds(b), [COMPLETED])
    },
  },
  {
    group: 'AGENT-INITIATOR-API', clause: 140, title: 'a parent driver regains the parent initiator right after creating/awaiting a child whose driver observes the child',
    async run(target) {
      const h = await makeHarness(target)
      const parent = (await h.create('parent')).agent
      const cur = (): string | undefined => h.ctx.agents.currentInitiator()?.id
      const trace: [string, string | undefined][] = []
      let child: Agent | undefined
      h.model.push(
        // Parent's step: create a child through its own context, drive it, await it.
        script.toolFollowUp(async () => {
          trace.push(['parent:before', cur()])
          const handle = await parent.ctx.agents.create({ sessionId: 'child', setup: () => { trace.push(['child:setup', cur()]) } })
          child = handle.agent
          trace.push(['parent:after-create', cur()])
          handle.agent.followup(h.msg('child work'))
          trace.push(['parent:after-send', cur()])
          await handle.agent.whenIdle()
          trace.push(['parent:after-await', cur()])
        }),
        // Child's model call.
        script.fn(() => { trace.push(['child:model', cur()]); return script.text('child done') }),
      )
      parent.followup(h.msg('spawn'))
      await parent.whenIdle()
      assert.deepEqual(trace, [
        ['parent:before', 'parent'],
        ['child:setup', 'parent'],
        ['parent:after-create', 'parent'],
        ['parent:after-send', 'parent'],
        ['child:model', 'child'],
        ['parent:after-await', 'parent'],
      ])
      assert.ok(child && h.ctx.agents.isOwnedBy('child', parent))
      assert.deepEqual(turnEnds(parent), [COMPLETED])
      assert.deepEqual(turnEnds(child!), [COMPLETED])
    },
  },
  {
    group: 'AGENT-INITIATOR-DRAIN', clause: 141, title: 'Q8: waking sends racing a shutdown (from an effect of the unloading root) leave no agent running; every whenIdle and the shutdown settle',
    async run(target) {
      const h = await makeHarness(target)
      const refused: unknown[] = []
      let agent: Agent | undefined
      let idle: Promise<void> | undefined
      const send = (text: string): void => {
        try {
          agent!.followup(h.msg(text))
        } catch (error) {
          refused.push(error)
        }
      }
      // Runs once the root began unloading (its initiator scope is closing) and, registered before
      // the agent's own lifecycle effect, before its teardown began: the sends race the shutdown.
      h.ctx.effect(() => () => { send('racing 1'); send('racing 2'); idle = agent!.whenIdle() }, 'q8.sender')
      agent = (await h.create('s1')).agent
      let done = false
      const down = h.shutdown().then(() => { done = true })
      for (let i = 0; i < 20 && !done; i++) await settle()
      assert.ok(done, 'the shutdown settled')
      await down
      assert.ok(idle !== undefined, 'the sender ran during the shutdown')
      await idle
      assert.equal(agent.status, 'idle', 'no agent left running with nothing to run')
      // §12 Q3: a send after teardown began may be refused as disposed; nothing else may fail it.
      for (const error of refused) assert.match(String((error as Error)?.message), /disposed/, `a racing send failed with ${String(error)}`)
    },
  },
  {
    group: 'AGENT-INITIATOR-DRAIN', clause: 141, title: 'registry restart drains the old driver (it still reads its initiator while aborting) before disabling the old scope',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const reached = gate()
      const inside: { phase: string; id: string | undefined; error?: string }[] = []
      const read = (phase: string): void => {
        try {
          inside.push({ phase, id: h.ctx.agents.currentInitiator()?.id })
        } catch (error) {
          inside.push({ phase, id: undefined, error: (error as Error).message })
        }
      }
      h.model.push(script.toolFollowUp(async (request) => {
        reached.open()
        await untilAborted(request.signal)
        read('aborting')
        await Promise.resolve()
        await Promise.resolve()
        read('after-await')
      }))
      agent.followup(h.msg('x'))
      await reached.promise
      let disabledBeforeDriverEnded = false
      h.ctx.on('session/event', (_s, e) => {
        if (e.type !== 'turn/end') return
        try { h.ctx.agents.currentInitiator() } catch { disabledBeforeDriverEnded = true }
      })
      const restarted = h.restart()
      // Closing: new boundaries are refused while the old driver is still draining.
      assert.throws(() => h.ctx.agents.withInitiator(agent, () => 1), { message: ERRORS.initiatorDisposed })
      const h2 = await restarted
      assert.deepEqual(inside, [{ phase: 'aborting', id: 's1' }, { phase: 'after-await', id: 's1' }])
      assert.equal(disabledBeforeDriverEnded, false, 'the scope was still readable when the driver closed its turn')
      assert.deepEqual(turnEnds(agent), [aborted({ kind: 'disposed' })])
      assert.throws(() => h.ctx.agents.currentInitiator(), { message: ERRORS.initiatorDisposed })
      // The new process has its own working scope.
      const resumed = (await h2.ctx.agents.resume({ resumeSessionId: 's1' })).agent
      let seen: Agent | undefined
      h2.model.push(script.fn(() => { seen = h2.ctx.agents.currentInitiator(); return script.text('again') }))
      resumed.followup(h2.msg('y'))
      await resumed.whenIdle()
      assert.equal(seen, resumed)
      assert.deepEqual(turnEnds(resumed).at(-1), COMPLETED)
    },
  },
  {
    group: 'AGENT-INITIATOR-API', clause: 130, title: 'withInitiator reached through an agent\'s ctx returns the exact Promise object and sync value (catalog A2)',
    async run(target) {
      const h = await makeHarness(target)
      let checked = false
      await h.create('s1', {
        setup: (agentCtx) => {
          const agent = agentCtx.agent!
          const promise = Promise.resolve(7)
          assert.equal(agentCtx.agents.withInitiator(agent, () => promise), promise, 'the exact Promise object')
          const value = { v: 1 }
          assert.equal(agentCtx.agents.withInitiator(agent, () => value), value, 'the exact sync value')
          assert.equal(agentCtx.agents.withoutInitiator(() => promise), promise)
          checked = true
        },
      })
      assert.ok(checked)
    },
  },
]
