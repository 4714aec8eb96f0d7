import assert from 'node:assert/strict'
import type { Agent, AgentOptions, Context, SessionEvent } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import { script } from '../../core/scripted-model.js'
import type { DirectedCase, Harness } from './harness.js'
import { makeHarness } from './harness.js'
import { assertEmpty, assertNothingPublished, persisted, rejection } from './lifecycle-helpers.js'

/** `scopeOf(ctx)`: the process's own reader when it has one, else the contract's `ctx.scopeKey`. */
function scopeOf(h: Harness, ctx: Context): unknown {
  return h.process.scopeOf ? h.process.scopeOf(ctx) : ctx.scopeKey
}

const GROUP = 'AGENT-PUBLIC-INTERFACE'

/** How a promise settled, without throwing. */
async function outcomeOf(promise: Promise<unknown>): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise }
  } catch (error) {
    return { ok: false, error }
  }
}

const BAD_MAX_TOKENS = [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]

function assertStatus(agent: Agent): void {
  assert.ok(agent.status === 'idle' || agent.status === 'running', `unexpected status ${String(agent.status)}`)
}

export const publicInterfaceCases: DirectedCase[] = [
  {
    group: GROUP, clause: 9, title: 'agent.id equals agent.session.id for created, seeded, child and resumed agents',
    async run(target) {
      const { h } = await persisted(target, 'r1')
      const seed: SessionEvent[] = [{ type: 'note', seq: 0, time: 1, data: { n: 1 } }]
      const plain = await h.create('a1')
      const seeded = await h.create('a2', { seed })
      const child = await plain.agent.ctx.agents.create({ sessionId: 'a3' })
      const resumed = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      const expected = ['a1', 'a2', 'a3', 'r1']
      const agents = [plain, seeded, child, resumed].map((x) => x.agent)
      assert.deepEqual(agents.map((a) => a.id), expected)
      assert.deepEqual(agents.map((a) => a.session.id), expected)
      for (const agent of agents) assert.equal(h.ctx.agents.get(agent.id), agent)
    },
  },
  {
    group: GROUP, clause: 10, title: 'handle.agent.options is the exact agentOptions object (create and resume)',
    async run(target) {
      const { h } = await persisted(target, 'r1')
      const created: AgentOptions = { provider: 'p', model: 'm', maxTokens: 7 }
      const resumed: AgentOptions = { model: 'other' }
      const a = await h.create('a1', { agentOptions: created })
      const b = await h.ctx.agents.resume({ resumeSessionId: 'r1', agentOptions: resumed })
      assert.equal(a.agent.options, created)
      assert.equal(b.agent.options, resumed)
      assert.equal(h.ctx.agents.get('a1')!.options, created)
    },
  },
  {
    group: GROUP, clause: 11, title: 'status is idle or running; a disposed agent reads idle and is absent from get/list',
    async run(target) {
      const h = await makeHarness(target, { script: [script.hang()] })
      const handle = await h.create('s1')
      const other = await h.create('s2')
      const { agent } = handle
      assert.equal(agent.status, 'idle')
      agent.followup(h.msg('hang'))
      assert.equal(agent.status, 'running')
      await handle.dispose()
      assertStatus(agent)
      assert.equal(agent.status, 'idle', 'a disposed agent reads idle')
      assert.equal(h.ctx.agents.get('s1'), undefined)
      assert.deepEqual(h.ctx.agents.list(), [other.agent])
      const trace = h.statuses('s1')
      assert.deepEqual(trace, ['running', 'idle'])
      for (const status of trace) assert.ok(status === 'idle' || status === 'running')
    },
  },
  {
    group: GROUP, clause: 12, title: 'plain contexts carry no agent; agent.ctx.agent is the agent and its scope key is the agent',
    async run(target) {
      const h = await makeHarness(target)
      assert.equal(h.ctx.agent, undefined)
      assert.equal(h.owner().ctx.agent, undefined)
      let inSetup: Agent | undefined
      const handle = await h.create('s1', { setup: (ctx) => { inSetup = ctx.agent } })
      const { agent } = handle
      assert.equal(agent.ctx.agent, agent)
      assert.equal(scopeOf(h, agent.ctx), agent, 'scopeOf(agent.ctx) === agent')
      assert.equal(inSetup, agent, 'setup receives the agent context')
      const derived = h.process.createScope ? h.process.createScope(agent.ctx, { tool: 1 }, 'tool') : agent.ctx.createScope({ tool: 1 }, 'tool')
      assert.equal(derived.ctx.agent, agent, 'contexts derived from agent.ctx carry the agent')
      const child = await agent.ctx.agents.create({ sessionId: 'c1' })
      assert.equal(child.agent.ctx.agent, child.agent, 'the nearest agent tag wins')
      assert.equal(scopeOf(h, child.agent.ctx), child.agent)
    },
  },
  {
    group: GROUP, clause: 13, title: 'after disposal registering through agent.ctx throws inactive context',
    async run(target) {
      const h = await makeHarness(target)
      const handle = await h.create('s1')
      const { ctx } = handle.agent
      assert.doesNotThrow(() => ctx.effect(() => undefined, 'before'))
      await handle.dispose()
      assert.throws(() => ctx.effect(() => undefined, 'after'), { message: ERRORS.inactiveContext })
      assert.throws(() => ctx.on('agent/status', () => undefined), { message: ERRORS.inactiveContext })
    },
  },
  {
    group: GROUP, clause: 14, title: 'invalid maxTokens rejects with the exact TypeError and leaves both registries empty',
    async run(target) {
      const { h } = await persisted(target, 'r1')
      for (const [i, maxTokens] of BAD_MAX_TOKENS.entries()) {
        let setupCalled = false
        const id = `bad-${i}`
        const error = await rejection(h.create(id, { agentOptions: { maxTokens }, setup: () => { setupCalled = true } }))
        assert.ok(error instanceof TypeError, `maxTokens ${maxTokens}: expected a TypeError`)
        assert.equal(error.message, ERRORS.maxTokens, `maxTokens ${maxTokens}`)
        assert.equal(setupCalled, false)
        assertNothingPublished(h, id)
        assertEmpty(h)
      }
      for (const maxTokens of BAD_MAX_TOKENS) {
        const error = await rejection(h.ctx.agents.resume({ resumeSessionId: 'r1', agentOptions: { maxTokens } }))
        assert.ok(error instanceof TypeError)
        assert.equal(error.message, ERRORS.maxTokens, `resume maxTokens ${maxTokens}`)
        assertNothingPublished(h, 'r1')
        assertEmpty(h)
      }
      // The ids stay free.
      await h.create('bad-0', { agentOptions: { maxTokens: 1 } })
      await h.ctx.agents.resume({ resumeSessionId: 'r1', agentOptions: { maxTokens: Number.MAX_SAFE_INTEGER } })
      assert.deepEqual(h.ctx.agents.list().map((a) => a.id), ['bad-0', 'r1'])
    },
  },
  {
    group: GROUP, clause: 14, title: 'agentOptions that is not an object (a string, a number), if refused, is refused with a TypeError before any publication (create and resume)',
    async run(target) {
      // §3.1 step 3 / §3.5 row A validate agentOptions, but the contract makes only maxTokens a MUST:
      // a non-object is outside the AgentOptions type and a factory may accept it (§2 keeps the very
      // object it was given). What it may not do is refuse it late or with another kind of error.
      const { h } = await persisted(target, 'r1')
      for (const [i, agentOptions] of (['fast', 42] as unknown as AgentOptions[]).entries()) {
        const id = `odd-${i}`
        const created = await outcomeOf(h.create(id, { agentOptions }))
        if (created.ok) await (created.value as { dispose(): Promise<void> }).dispose()
        else {
          assert.ok(created.error instanceof TypeError, `agentOptions ${JSON.stringify(agentOptions)}: a refusal must be a TypeError, got ${String(created.error)}`)
          assertNothingPublished(h, id)
        }
        const resumed = await outcomeOf(h.ctx.agents.resume({ resumeSessionId: 'r1', agentOptions }))
        if (resumed.ok) await (resumed.value as { dispose(): Promise<void> }).dispose()
        else {
          assert.ok(resumed.error instanceof TypeError, `resume agentOptions ${JSON.stringify(agentOptions)}: a refusal must be a TypeError, got ${String(resumed.error)}`)
          assertNothingPublished(h, 'r1')
        }
        assertEmpty(h)
      }
    },
  },
  {
    group: GROUP, clause: 14, title: 'create or resume options that are not an object (a string, a number), if refused, are refused with an Error before anything is minted',
    async run(target) {
      // §2 obliges a factory to validate its options, but names no error and no shape check: a
      // runtime may read a string's missing sessionId as "pick one" (the kit's store does). What it
      // may not do is mint or publish something for options it then refuses (§3.5 row A).
      const { h } = await persisted(target, 'r1')
      for (const options of ['s1', 42] as unknown[]) {
        const before = h.observed.filter((o) => o.name === 'session/created').length
        const created = await outcomeOf(h.ctx.agents.create(options as never))
        if (created.ok) await (created.value as { dispose(): Promise<void> }).dispose()
        else {
          assert.ok(created.error instanceof Error, `create(${JSON.stringify(options)}): a refusal must be an Error, got ${String(created.error)}`)
          assert.equal(h.observed.filter((o) => o.name === 'session/created').length, before, `create(${JSON.stringify(options)}) was refused after a session was minted and published`)
        }
        const resumed = await outcomeOf(h.ctx.agents.resume(options as never))
        if (resumed.ok) await (resumed.value as { dispose(): Promise<void> }).dispose()
        else assert.ok(resumed.error instanceof Error, `resume(${JSON.stringify(options)}): a refusal must be an Error, got ${String(resumed.error)}`)
        assertEmpty(h)
        assert.deepEqual(h.names('r1'), [], 'nothing published on r1')
      }
    },
  },
  {
    group: GROUP, clause: 15, title: 'a valid maxTokens reaches the first model request unchanged',
    async run(target) {
      const h = await makeHarness(target)
      const handle = await h.create('s1', { agentOptions: { maxTokens: 1234 } })
      handle.agent.followup(h.msg('hi'))
      await handle.agent.whenIdle()
      assert.equal(h.model.requests.length, 1)
      assert.equal(h.model.requests[0]!.maxTokens, 1234)
      assert.equal(h.model.requests[0]!.sessionId, 's1')
    },
  },
]
