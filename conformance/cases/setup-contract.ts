import assert from 'node:assert/strict'
import type { Agent, AgentHandle, AgentSetup, PreStepDecision, PreStepPayload } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import { script } from '../../core/scripted-model.js'
import type { CaseTarget, DirectedCase, Harness } from './harness.js'
import { gate, makeHarness, settle } from './harness.js'
import { assertEmpty, assertNothingPublished, lifecycle, persisted, rejection } from './lifecycle-helpers.js'

const GROUP = 'AGENT-SETUP-CONTRACT'

type Start = (setup: AgentSetup) => Promise<AgentHandle>

/** Run `body` once for a fresh create and once for a resume of a persisted session `id`. */
async function bothPaths(target: CaseTarget, id: string, body: (h: Harness, start: Start, path: 'create' | 'resume') => Promise<void>): Promise<void> {
  const fresh = await makeHarness(target)
  await body(fresh, (setup) => fresh.create(id, { setup }), 'create')
  await fresh.shutdown()
  const { h } = await persisted(target, id)
  await body(h, (setup) => h.ctx.agents.resume({ resumeSessionId: id, setup }), 'resume')
}

/** Record the calls made around one id: root listeners for the three publication edges. */
function recordPublication(h: Harness, id: string, log: string[]): void {
  h.ctx.on('session/created', (session) => { if (session.id === id) log.push('session/created') })
  h.ctx.on('agent/created', ({ agent }) => { if (agent.id === id) log.push('agent/created') })
  h.ctx.on('agent/session-start', ({ agent, source }) => { if (agent.id === id) log.push(`agent/session-start:${source}`) })
}

export const setupContractCases: DirectedCase[] = [
  {
    group: GROUP, clause: 34, title: 'while async setup is gated neither registry holds the id (create and resume)',
    async run(target) {
      await bothPaths(target, 's1', async (h, start) => {
        const g = gate()
        const entered = gate()
        const pending = start(async () => { entered.open(); await g.promise })
        await entered.promise
        await settle()
        assert.equal(h.ctx.sessions.get('s1'), undefined)
        assert.equal(h.ctx.agents.get('s1'), undefined)
        assertEmpty(h)
        assert.deepEqual(lifecycle(h, 's1'), [])
        g.open()
        const handle = await pending
        assert.equal(h.ctx.agents.get('s1'), handle.agent)
      })
    },
  },
  {
    group: GROUP, clause: 35, title: 'commit() runs after setup settled and observes both registries still empty (create and resume)',
    async run(target) {
      await bothPaths(target, 's1', async (h, start) => {
        const log: string[] = []
        const seen: unknown[] = []
        recordPublication(h, 's1', log)
        const handle = await start(async () => {
          await Promise.resolve()
          log.push('setup:end')
          return {
            commit() {
              log.push('commit')
              seen.push(h.ctx.sessions.get('s1'), h.ctx.agents.get('s1'), h.ctx.sessions.list().length, h.ctx.agents.list().length)
            },
          }
        })
        assert.deepEqual(seen, [undefined, undefined, 0, 0])
        assert.deepEqual(log.slice(0, 3), ['setup:end', 'commit', 'session/created'])
        assert.equal(h.ctx.agents.get('s1'), handle.agent)
      })
    },
  },
  {
    group: GROUP, clause: 36, title: 'setup start/end, commit, created edges with setup listeners, then session-start: exact order',
    async run(target) {
      await bothPaths(target, 's1', async (h, start, path) => {
        const log: string[] = []
        recordPublication(h, 's1', log)
        const g = gate()
        const pending = start(async (ctx) => {
          log.push('setup:start')
          await g.promise
          ctx.on('session/created', () => { log.push('setup-listener session/created') })
          ctx.on('agent/created', () => { log.push('setup-listener agent/created') })
          log.push('setup:end')
          return { commit: () => { log.push('setup:commit') } }
        })
        await settle()
        assert.deepEqual(log, ['setup:start'])
        g.open()
        await pending
        log.push('resolved')
        assert.deepEqual(log, [
          'setup:start', 'setup:end', 'setup:commit',
          'session/created', 'setup-listener session/created',
          'agent/created', 'setup-listener agent/created',
          `agent/session-start:${path === 'create' ? 'startup' : 'resume'}`,
          'resolved',
        ])
        assert.deepEqual(h.statuses('s1'), [], 'no agent/status during creation')
      })
    },
  },
  {
    group: GROUP, clause: 37, title: 'Q6: a waking send from setup is either accepted or rejected (supports.rejectsSendBeforePublication says which); the creation completes either way',
    async run(target) {
      const h = await makeHarness(target)
      let threw: unknown
      const handle = await h.create('s1', {
        setup: (ctx) => {
          try { ctx.agent!.followup(h.msg('from setup')) } catch (error) { threw = error }
        },
      })
      // §12 Q6: "compose, never drive" is contractual only; the suite requires neither behaviour, only
      // the one the adapter declares, and a creation that completes with a usable agent.
      if (target.supports.rejectsSendBeforePublication) assert.ok(threw !== undefined, 'supports.rejectsSendBeforePublication: the send before publication must throw')
      assert.equal(h.ctx.agents.get('s1'), handle.agent)
      await handle.agent.whenIdle()
      assert.equal(handle.agent.status, 'idle')
      handle.agent.followup(h.msg('after publication'))
      await handle.agent.whenIdle()
      assert.ok(handle.agent.session.events.some((e) => e.type === 'turn/start'), 'the published agent runs a turn')
    },
  },
  {
    group: GROUP, clause: 37, title: 'inside setup agentCtx.agent.id is the session id; on resume the session already holds the persisted log',
    async run(target) {
      const h = await makeHarness(target)
      let created: Agent | undefined
      const handle = await h.create('s1', { setup: (ctx) => { created = ctx.agent } })
      assert.equal(created?.id, 's1')
      assert.equal(created, handle.agent)
      await h.shutdown()

      const { h: h2, events } = await persisted(target, 'r1')
      let seen: { id: string; events: unknown[] } | undefined
      const resumed = await h2.ctx.agents.resume({
        resumeSessionId: 'r1',
        setup: (ctx) => { seen = { id: ctx.agent!.id, events: [...ctx.agent!.session.events] } },
      })
      assert.ok(events.length > 0)
      assert.equal(seen?.id, 'r1')
      assert.equal(seen!.events.length, events.length + 1)
      assert.deepEqual(seen!.events.slice(0, events.length), events)
      assert.equal((seen!.events[events.length] as { type: string }).type, 'session/end-seed')
      assert.equal(resumed.agent.id, 'r1')
    },
  },
  {
    group: GROUP, clause: 38, title: 'a prompt contribution registered by async setup is visible to an assembly started from session-start',
    async run(target) {
      const h = await makeHarness(target)
      const g = gate()
      const section = h.msg('SECTION: registered by setup')
      // The "prompt section": a scoped pre-step contribution registered after an await in setup.
      const setup: AgentSetup = async (ctx) => {
        await g.promise
        ctx.on('agent/pre-step', (async (_payload: PreStepPayload, next: () => Promise<PreStepDecision>) => {
          const decision = await next()
          return decision.kind === 'enter' ? { kind: 'enter', messages: [section, ...decision.messages] } : decision
        }) as never)
      }
      // The assembly is started from an agent/session-start listener.
      h.ctx.on('agent/session-start', ({ agent }) => { if (agent.id === 's1') agent.followup(h.msg('go')) })
      const pending = h.create('s1', { setup })
      await settle()
      g.open()
      const handle = await pending
      await handle.agent.whenIdle()
      assert.equal(h.model.requests.length, 1)
      assert.deepEqual(h.model.requests[0]!.messages.map((m) => m.text), ['SECTION: registered by setup', 'go'])
    },
  },
  {
    group: GROUP, clause: 39, title: 'a rejecting (or throwing) setup publishes nothing, leaves the id free, and a retry succeeds',
    async run(target) {
      const h = await makeHarness(target)
      for (const mode of ['reject', 'throw'] as const) {
        const failure = new Error(`setup ${mode}`)
        let disposed = false
        const error = await rejection(h.create('s1', {
          setup: (ctx) => {
            ctx.effect(() => () => { disposed = true }, 'probe')
            if (mode === 'throw') throw failure
            return Promise.reject(failure)
          },
        }))
        assert.equal(error, failure, 'the setup error is the exact rejection value')
        assert.equal(disposed, true, 'setup registrations were unwound before the rejection')
        assertNothingPublished(h, 's1')
        assert.deepEqual(lifecycle(h, 's1'), [])
        assertEmpty(h)
      }
      const retry = await h.create('s1')
      assert.equal(h.ctx.agents.get('s1'), retry.agent)
      assert.deepEqual(lifecycle(h, 's1'), ['session/created', 'agent/created', 'agent/session-start'])
    },
  },
  {
    group: GROUP, clause: 40, title: 'a throwing commit() publishes nothing and the id is reusable (create and resume)',
    async run(target) {
      await bothPaths(target, 's1', async (h, start) => {
        const failure = new Error('commit failed')
        const error = await rejection(start(() => ({ commit: () => { throw failure } })))
        assert.equal(error, failure)
        assertNothingPublished(h, 's1')
        assertEmpty(h)
        const retry = await start(() => undefined)
        assert.equal(h.ctx.agents.get('s1'), retry.agent)
        assert.deepEqual(lifecycle(h, 's1'), ['session/created', 'agent/created', 'agent/session-start'])
      })
    },
  },
  {
    group: GROUP, clause: 40, title: 'a setup that returns or resolves nothing (sync or async) has no commit: the creation publishes normally',
    async run(target) {
      // §3.1 step 6: commit() runs "if returned". §1.8 types a setup's result as
      // void | AgentSetupCommit (or a promise of one); other values (null, {}, a string) are outside
      // the seam, so how a factory treats them is left open and not tested.
      const h = await makeHarness(target)
      const setups: [string, AgentSetup][] = [['sync', () => undefined], ['async', async () => undefined]]
      for (const [i, [kind, setup]] of setups.entries()) {
        const id = `s${i}`
        const handle = await h.create(id, { setup })
        assert.equal(h.ctx.agents.get(id), handle.agent, `a ${kind} setup returning nothing`)
        assert.deepEqual(lifecycle(h, id), ['session/created', 'agent/created', 'agent/session-start'])
      }
    },
  },
  {
    group: GROUP, clause: 41, title: "setup runs under the parent's initiator when created from the parent's driver; agentCtx.agent is the child",
    async run(target) {
      const h = await makeHarness(target)
      const seen: { initiator: Agent | undefined; agent: Agent | undefined }[] = []
      const setup: AgentSetup = (ctx) => { seen.push({ initiator: ctx.agents.currentInitiator(), agent: ctx.agent }) }
      let child: AgentHandle | undefined
      const parent = await h.create('p')
      h.model.push(script.toolFollowUp(async () => {
        child = await parent.agent.ctx.agents.create({ sessionId: 'c', setup })
      }))
      parent.agent.followup(h.msg('spawn'))
      await parent.agent.whenIdle()
      assert.ok(child, 'the child was created from the driver')
      assert.equal(seen.length, 1)
      assert.equal(seen[0]!.initiator, parent.agent, "setup runs under the parent's initiator")
      assert.equal(seen[0]!.agent, child.agent, 'agentCtx.agent is the child')
      assert.equal(h.ctx.agents.isOwnedBy('c', parent.agent), true)
      // Control: created outside any driver, setup sees no initiator.
      const loose = await h.create('q', { setup })
      assert.equal(seen[1]!.initiator, undefined)
      assert.equal(seen[1]!.agent, loose.agent)
      assert.equal(h.ctx.agents.currentInitiator(), undefined)
    },
  },
]
