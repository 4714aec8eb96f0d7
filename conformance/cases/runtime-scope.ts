/**
 * AGENT-RUNTIME-SCOPE (§9 16–33): the agent's scoped world, the status trace, `whenIdle` and
 * `runMaintenance`, driven and observed only through the public contract.
 */
import assert from 'node:assert/strict'
import type { Agent, AgentStatus, Context, Disposer, SessionEvent } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import { script } from '../../core/scripted-model.js'
import { aborted, COMPLETED, count, hangAt, tracked, turnEnds, turnStarts, turnsWithTexts, untilAborted, USER, userTexts } from './driving-helpers.js'
import type { DirectedCase, Harness } from './harness.js'
import { gate, makeHarness, settle } from './harness.js'

const GROUP = 'AGENT-RUNTIME-SCOPE'

/**
 * A trivial scoped key/value tool registry (§10.2: "a trivial scoped key/value registry suffices"):
 * a registration is an effect on the registering context, attributed to that context's agent, so it
 * unwinds with the context's fiber. An agent's view lists the tools registered through its context.
 */
class ToolRegistry {
  readonly #entries = new Set<{ owner: Agent | undefined; name: string }>()
  register(ctx: Context, name: string): Disposer {
    return ctx.effect(() => {
      const entry = { owner: ctx.agent, name }
      this.#entries.add(entry)
      return () => { this.#entries.delete(entry) }
    }, `tool:${name}`)
  }
  view(agent: Agent | undefined): string[] {
    return [...this.#entries].filter((e) => e.owner !== undefined && e.owner === agent).map((e) => e.name)
  }
  all(): string[] { return [...this.#entries].map((e) => e.name) }
}

/** No two consecutive equal values. */
function assertNoRepeat(trace: readonly string[], label: string): void {
  for (let i = 1; i < trace.length; i++) assert.notEqual(trace[i], trace[i - 1], `${label}: "${trace[i]}" twice in a row (changes ${i} and ${i + 1} of ${trace.join(',')})`)
}

async function twoAgents(h: Harness): Promise<{ a: Agent; b: Agent; disposeA(): Promise<void> }> {
  const ha = await h.create('a')
  const hb = await h.create('b')
  return { a: ha.agent, b: hb.agent, disposeA: () => ha.dispose() }
}

export const runtimeScopeCases: DirectedCase[] = [
  {
    group: GROUP, clause: 16, title: 'a tool/prompt registered through agent.ctx is visible only in that agent\'s view and gone after disposal',
    async run(target) {
      const h = await makeHarness(target)
      const { a, b, disposeA } = await twoAgents(h)
      const tools = new ToolRegistry()
      tools.register(a.ctx, 'toolA')
      tools.register(b.ctx, 'toolB')
      // A prompt contribution registered through a.ctx: participates only in a's pre-step.
      const prompted: string[] = []
      a.ctx.on('agent/pre-step', (payload, next) => { prompted.push(payload.agent.id); return next() })
      // The view an agent's step sees, read inside its model call through the initiator.
      const viewInCall: Record<string, string[]> = {}
      h.model.push(
        script.fn((request) => { viewInCall[request.sessionId] = tools.view(h.ctx.agents.currentInitiator()); return script.text('a') }),
        script.fn((request) => { viewInCall[request.sessionId] = tools.view(h.ctx.agents.currentInitiator()); return script.text('b') }),
      )
      a.followup(h.msg('to a'))
      await a.whenIdle()
      b.followup(h.msg('to b'))
      await b.whenIdle()
      assert.deepEqual(viewInCall, { a: ['toolA'], b: ['toolB'] })
      assert.deepEqual(prompted, ['a'], "a's prompt contribution is not part of b's steps")
      await disposeA()
      assert.deepEqual(tools.all(), ['toolB'], "a's registration unwound with its scope; b's is untouched")
      b.followup(h.msg('again'))
      await b.whenIdle()
      assert.deepEqual(prompted, ['a'], "a's prompt contribution is gone after a's disposal")
      assert.throws(() => tools.register(a.ctx, 'late'), { message: ERRORS.inactiveContext })
      assert.deepEqual(tools.all(), ['toolB'])
    },
  },
  {
    group: GROUP, clause: 17, title: 'listeners registered through a.ctx hear agent/status and session/event of a only, never of b',
    async run(target) {
      const h = await makeHarness(target)
      const { a, b } = await twoAgents(h)
      const statuses: [string, AgentStatus][] = []
      const events: [string, string][] = []
      a.ctx.on('agent/status', ({ agent, status }) => { statuses.push([agent.id, status]) })
      a.ctx.on('session/event', (session, event) => { events.push([session.id, event.type]) })
      const aFrom = a.session.seq
      const bFrom = b.session.seq
      b.followup(h.msg('b1'))
      a.followup(h.msg('a1'))
      await Promise.all([a.whenIdle(), b.whenIdle()])
      b.inject(h.msg('b2'))
      assert.ok(count(b, 'turn/end') === 1 && b.session.seq > bFrom, 'b did work')
      assert.deepEqual(statuses, [['a', 'running'], ['a', 'idle']])
      const aTypes = a.session.events.slice(aFrom).map((e: SessionEvent) => e.type)
      assert.deepEqual(events, aTypes.map((t) => ['a', t]), "exactly a's session events, none of b's")
    },
  },
  {
    group: GROUP, clause: 18, title: 'an event emitted for agent x is not delivered to listeners scoped to a different agent',
    needs: ['agentEvents'],
    async run(target) {
      const h = await makeHarness(target)
      const { a, b } = await twoAgents(h)
      const heard: string[] = []
      a.ctx.on('agent/error', ({ agent }) => { heard.push(`a-scoped:${agent.id}`) })
      b.ctx.on('agent/error', ({ agent }) => { heard.push(`b-scoped:${agent.id}`) })
      h.ctx.on('agent/error', ({ agent }) => { heard.push(`plain:${agent.id}`) })
      const error = new Error('synthetic')
      // Emitted through a's own context, carried with b's key: only b's and unscoped listeners hear it.
      const emit = h.process.agentEvents!
      emit(a.ctx, b).emit('agent/error', { agent: b, turn: 0, step: 0, error })
      assert.deepEqual(heard, ['b-scoped:b', 'plain:b'])
      heard.length = 0
      emit(b.ctx, a).emit('agent/error', { agent: a, turn: 0, step: 0, error })
      assert.deepEqual(heard, ['a-scoped:a', 'plain:a'])
    },
  },
  {
    group: GROUP, clause: 19, title: "one followup from idle produces the status trace exactly ['running','idle']",
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      assert.deepEqual(h.statuses('s1'), [])
      agent.followup(h.msg('hello'))
      assert.equal(agent.status, 'running')
      await agent.whenIdle()
      await settle()
      assert.deepEqual(h.statuses('s1'), ['running', 'idle'])
      assert.equal(agent.status, 'idle')
      assert.deepEqual(turnEnds(agent), [COMPLETED])
    },
  },
  {
    group: GROUP, clause: 20, title: "a synchronous burst of N followups gives ['running','idle'] and N turns 1..N, one user message each, in order",
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const N = 4
      for (let i = 1; i <= N; i++) agent.followup(h.msg(`m${i}`))
      await agent.whenIdle()
      await settle()
      assert.deepEqual(h.statuses('s1'), ['running', 'idle'])
      assert.deepEqual(turnsWithTexts(agent), [1, 2, 3, 4].map((turn) => ({ turn, texts: [`m${turn}`], steps: 1, reason: COMPLETED })))
      assert.equal(h.model.requests.length, N)
    },
  },
  {
    group: GROUP, clause: 21, title: 'sequential settled followups produce turns 1..N in order',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      for (let i = 1; i <= 3; i++) {
        agent.followup(h.msg(`m${i}`))
        await agent.whenIdle()
        assert.equal(agent.status, 'idle')
      }
      assert.deepEqual(turnStarts(agent), [1, 2, 3])
      assert.deepEqual(userTexts(agent), ['m1', 'm2', 'm3'])
      assert.deepEqual(turnEnds(agent), [COMPLETED, COMPLETED, COMPLETED])
      assert.deepEqual(h.statuses('s1'), ['running', 'idle', 'running', 'idle', 'running', 'idle'])
    },
  },
  {
    group: GROUP, clause: 22, title: 'no agent ever emits the same agent/status value twice in a row (mixed workload)',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const scoped: string[] = []
      agent.ctx.on('agent/status', ({ status }) => { scoped.push(status) })
      // A cancel + resend from a running listener (aborted start then latched replay).
      let resent = false
      h.ctx.on('agent/status', ({ agent: a, status }) => {
        if (status === 'running' && !resent && a === agent && count(agent, 'turn/end') === 2) {
          resent = true
          agent.cancel(USER)
          agent.followup(h.msg('resent'))
        }
      })
      const reached = gate()
      const slow = gate()
      h.model.push(
        script.text('one'),
        script.fail('boom'),
        // Turn 3 (the resent one) runs normally; then a held abort convergence with a latched wake.
        script.text('resent'),
        script.toolFollowUp(async (request) => { reached.open(); await untilAborted(request.signal); await slow.promise }),
      )
      agent.followup(h.msg('a'))
      agent.followup(h.msg('b'))
      await agent.whenIdle()
      agent.followup(h.msg('c'))
      await agent.whenIdle()
      agent.steer(h.msg('d'))
      await reached.promise
      agent.cancel(USER)
      agent.followup(h.msg('latched'))
      slow.open()
      await agent.whenIdle()
      await agent.runMaintenance(() => 'm')
      agent.inject(h.msg('parked'))
      await settle()
      const trace = h.statuses('s1')
      assertNoRepeat(trace, 'agent/status as a process listener heard it')
      assertNoRepeat(scoped, 'agent/status as a listener registered through agent.ctx heard it')
      // Not a repetition, but the workload did not run as the contract says, so there is too little to check.
      assert.ok(trace.length >= 8, `no status repeated, but the workload (two followups, a failing turn, a steer canceled mid-step with a latched followup, a cancel and resend from a running listener, maintenance, an idle inject) produced only ${trace.length} status changes (${trace.join(',')}); at least 8 are needed to check for repeats`)
      assert.deepEqual(scoped, trace, `no status repeated, but a listener registered through agent.ctx heard ${scoped.join(',')} while a process listener heard ${trace.join(',')}; both must hear every agent/status of the agent`)
      assert.equal(trace.at(-1), 'idle', `the last agent/status after the workload settled was "${trace.at(-1)}", not "idle"`)
      assert.equal(agent.status, 'idle', `agent.status read "${agent.status}" after the workload settled; the last agent/status was "idle"`)
    },
  },
  {
    group: GROUP, clause: 23, title: 'a throwing agent/status listener (either transition) is contained, logged, and the agent still reaches idle',
    needs: ['warnings'],
    async run(target) {
      for (const failing of ['running', 'idle'] as const) {
        const h = await makeHarness(target)
        const { agent } = await h.create('s1')
        const syncError = new Error(`sync ${failing}`)
        const asyncError = new Error(`async ${failing}`)
        h.ctx.on('agent/status', ({ status }) => { if (status === failing) throw syncError })
        agent.ctx.on('agent/status', async ({ status }) => { if (status === failing) throw asyncError })
        const later: string[] = []
        h.ctx.on('agent/status', ({ status }) => { later.push(status) })
        agent.followup(h.msg('x'))
        await agent.whenIdle()
        await settle()
        assert.equal(agent.status, 'idle', `throwing on ${failing}`)
        assert.deepEqual(later, ['running', 'idle'], 'later listeners still heard both transitions')
        assert.deepEqual(turnEnds(agent), [COMPLETED])
        assert.ok(h.logged(syncError), `sync throw on ${failing} logged`)
        assert.ok(h.logged(asyncError), `async rejection on ${failing} logged`)
        agent.followup(h.msg('y'))
        await agent.whenIdle()
        assert.deepEqual(turnEnds(agent), [COMPLETED, COMPLETED])
      }
    },
  },
  {
    group: GROUP, clause: 24, title: 'whenIdle() on a fresh agent resolves and status is idle',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      await agent.whenIdle()
      assert.equal(agent.status, 'idle')
      assert.deepEqual(h.statuses('s1'), [])
      assert.equal(h.model.requests.length, 0)
    },
  },
  {
    group: GROUP, clause: 25, title: 'whenIdle() stays pending while a hanging model call runs and resolves after cancel({kind:user})',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate()
      h.model.push(hangAt(reached))
      const { agent } = await h.create('s1')
      agent.followup(h.msg('x'))
      const idle = agent.whenIdle()
      const state = tracked(idle)
      await reached.promise
      await settle()
      assert.equal(state.done, false, 'pending during the hanging call')
      assert.equal(agent.status, 'running')
      agent.cancel(USER)
      await idle
      assert.equal(agent.status, 'idle')
      assert.deepEqual(turnEnds(agent), [aborted(USER)])
    },
  },
  {
    group: GROUP, clause: 26, title: 'whenIdle() registered before a pre-step cancel resolves (no hang)',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const entered = gate()
      const proceed = gate()
      h.ctx.on('agent/pre-step', async (_payload, next) => {
        entered.open()
        await proceed.promise
        agent.cancel(USER)
        return next()
      })
      agent.followup(h.msg('x'))
      await entered.promise
      const idle = agent.whenIdle()
      proceed.open()
      await idle
      assert.equal(agent.status, 'idle')
      assert.deepEqual(turnEnds(agent), [aborted(USER)])
      assert.equal(count(agent, 'step/start'), 0)
      assert.equal(h.model.requests.length, 0)
    },
  },
  {
    group: GROUP, clause: 27, title: 'whenIdle() follows replacement work sent by an idle listener',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const reached = gate()
      const release = gate()
      h.model.push(script.text('first'), script.toolFollowUp(async () => { reached.open(); await release.promise }))
      let sent = false
      h.ctx.on('agent/status', ({ status }) => {
        if (status === 'idle' && !sent) { sent = true; agent.followup(h.msg('second')) }
      })
      agent.followup(h.msg('first'))
      let endsAtResolve = -1
      const idle = agent.whenIdle().then(() => { endsAtResolve = count(agent, 'turn/end') })
      await reached.promise
      await settle()
      assert.equal(endsAtResolve, -1, 'the earlier waiter still waits for the replacement work')
      release.open()
      await idle
      assert.equal(endsAtResolve, 2)
      assert.equal(agent.status, 'idle')
      assert.deepEqual(turnEnds(agent), [COMPLETED, COMPLETED])
      assert.deepEqual(h.statuses('s1'), ['running', 'idle', 'running', 'idle'])
    },
  },
  {
    group: GROUP, clause: 28, title: 'whenIdle() resolves (does not reject) when the awaited run failed',
    async run(target) {
      const h = await makeHarness(target, { script: [script.fail('model down')] })
      const { agent } = await h.create('s1')
      agent.followup(h.msg('x'))
      await agent.whenIdle()
      assert.equal(agent.status, 'idle')
      const [reason] = turnEnds(agent) as { kind: string; error?: { message?: string } }[]
      assert.equal(reason?.kind, 'error')
      assert.equal(reason?.error?.message, 'model down')
    },
  },
  {
    group: GROUP, clause: 29, title: 'runMaintenance while running or during another maintenance throws already has active work synchronously',
    async run(target) {
      const h = await makeHarness(target)
      const reached = gate()
      h.model.push(hangAt(reached))
      const { agent } = await h.create('s1')
      let calls = 0
      const task = (): string => { calls++; return 'done' }
      agent.followup(h.msg('x'))
      await reached.promise
      assert.throws(() => agent.runMaintenance(task), { message: ERRORS.activeWork('s1') })
      agent.cancel(USER)
      await agent.whenIdle()
      const held = gate()
      const first = agent.runMaintenance(async () => { await held.promise; return 'first' })
      assert.throws(() => agent.runMaintenance(task), { message: ERRORS.activeWork('s1') })
      assert.equal(calls, 0, 'a refused task is never called')
      held.open()
      assert.equal(await first, 'first')
      assert.equal(await agent.runMaintenance(task), 'done', 'accepted again once idle')
      assert.equal(calls, 1)
    },
  },
  {
    group: GROUP, clause: 30, title: 'during maintenance status stays idle and no agent/status event is emitted',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const held = gate()
      const inside: AgentStatus[] = []
      const result = { value: 42 }
      const running = agent.runMaintenance(async (signal) => {
        inside.push(agent.status)
        await held.promise
        inside.push(agent.status)
        assert.equal(signal.aborted, false)
        return result
      })
      await settle()
      assert.equal(agent.status, 'idle')
      held.open()
      assert.equal(await running, result, 'the task\'s value is preserved')
      await settle()
      assert.deepEqual(inside, ['idle', 'idle'])
      assert.deepEqual(h.statuses('s1'), [])
      // A rejecting task's rejection is preserved too.
      const failure = new Error('maintenance failed')
      await assert.rejects(agent.runMaintenance(() => Promise.reject(failure)), (e) => e === failure)
      assert.deepEqual(h.statuses('s1'), [])
    },
  },
  {
    group: GROUP, clause: 31, title: 'a followup sent during maintenance runs only after the task settles, without another wake',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const held = gate()
      const maintenance = agent.runMaintenance(() => held.promise)
      const m = h.msg('during')
      agent.followup(m)
      const idle = agent.whenIdle()
      await settle()
      assert.equal(h.model.requests.length, 0)
      assert.equal(count(agent, 'turn/start'), 0)
      assert.deepEqual(agent.inbox.nextTurn.map((x) => x.id), [m.id])
      assert.equal(agent.status, 'idle')
      held.open()
      await maintenance
      await idle
      assert.equal(h.model.requests.length, 1, 'ran at convergence, and the earlier waiter followed it')
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: ['during'], steps: 1, reason: COMPLETED }])
      assert.deepEqual(h.statuses('s1'), ['running', 'idle'])
    },
  },
  {
    group: GROUP, clause: 30, title: 'a task that throws synchronously: runMaintenance returns a promise rejecting with it, and the agent is idle and usable',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const failure = new Error('thrown synchronously')
      let returned: Promise<unknown> | undefined
      assert.doesNotThrow(() => { returned = agent.runMaintenance(() => { throw failure }) }, 'a promise preserving the rejection (§7.6), not a synchronous throw')
      await assert.rejects(returned!, (e) => e === failure)
      await agent.whenIdle()
      assert.equal(await agent.runMaintenance(() => 'again'), 'again', 'the maintenance phase ended')
      agent.followup(h.msg('after'))
      await agent.whenIdle()
      assert.deepEqual(turnEnds(agent), [COMPLETED])
    },
  },
  {
    group: GROUP, clause: 31, title: 'input parked before the maintenance (an idle inject) does not run when the task settles: only a wake during it latches',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      agent.inject(h.msg('parked'))
      const held = gate()
      const maintenance = agent.runMaintenance(() => held.promise)
      held.open()
      await maintenance
      await agent.whenIdle()
      await settle()
      assert.equal(count(agent, 'turn/start'), 0, 'nothing woke the agent')
      assert.equal(h.model.requests.length, 0)
      assert.deepEqual(h.statuses('s1'), [])
      assert.equal(agent.inbox.nextStep.length, 1)
    },
  },
  {
    group: GROUP, clause: 32, title: 'a followup sent during maintenance and removed before it settles produces no turn',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const held = gate()
      const maintenance = agent.runMaintenance(() => held.promise)
      const m = h.msg('during')
      agent.followup(m)
      assert.equal(agent.inbox.remove(m.id), true)
      held.open()
      await maintenance
      await agent.whenIdle()
      await settle()
      assert.equal(count(agent, 'turn/start'), 0)
      assert.equal(h.model.requests.length, 0)
      assert.deepEqual(h.statuses('s1'), [])
      assert.equal(agent.inbox.hasPending, false)
    },
  },
  {
    group: GROUP, clause: 33, title: 'cancel during maintenance aborts its signal, drops earlier queued work, and a later waking send runs at convergence',
    async run(target) {
      const h = await makeHarness(target)
      const { agent } = await h.create('s1')
      const converge = gate()
      let signalSeen: AbortSignal | undefined
      const maintenance = agent.runMaintenance(async (signal) => {
        signalSeen = signal
        await untilAborted(signal)
        await converge.promise
        throw signal.reason
      })
      const discarded: string[] = []
      h.ctx.on('agent/inbox/discarded', ({ message }) => { discarded.push(message.id) })
      const before = h.msg('before')
      agent.followup(before)
      const cause = { kind: 'user' } as const
      agent.cancel(cause)
      assert.equal(signalSeen?.aborted, true)
      assert.equal(signalSeen?.reason, cause)
      assert.deepEqual(discarded, [before.id])
      agent.followup(h.msg('after'))
      await settle()
      assert.equal(h.model.requests.length, 0, 'nothing runs before the task converges')
      converge.open()
      await assert.rejects(maintenance, (e) => e === cause)
      await agent.whenIdle()
      assert.deepEqual(turnsWithTexts(agent), [{ turn: 1, texts: ['after'], steps: 1, reason: COMPLETED }])
      assert.equal(h.model.requests.length, 1)
    },
  },
]
