import assert from 'node:assert/strict'
import type { Agent, AgentFactory, AgentHandle, Context, CreateAgentOptions, ResumeAgentOptions } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import type { DirectedCase, Harness } from './harness.js'
import { makeHarness } from './harness.js'
import { persisted, rejectsWith } from './lifecycle-helpers.js'

const GROUP = 'AGENT-FACTORY-SEAM'

/** A stub factory recording every call; it returns stub handles (no loop involved). */
function stubFactory() {
  const calls: { kind: 'create' | 'resume'; ownerCtx: Context; options: CreateAgentOptions | ResumeAgentOptions; handle: AgentHandle }[] = []
  const handleFor = (id: string): AgentHandle => {
    const agent = { id, status: 'idle' } as unknown as Agent
    return { agent, dispose: async () => undefined }
  }
  const factory: AgentFactory = {
    async createAgent(ownerCtx, options) {
      const handle = handleFor(options.sessionId)
      calls.push({ kind: 'create', ownerCtx, options, handle })
      return handle
    },
    async resume(ownerCtx, options) {
      const handle = handleFor(options.resumeSessionId)
      calls.push({ kind: 'resume', ownerCtx, options, handle })
      return handle
    },
  }
  return { factory, calls }
}

/** `create` and `resume` both reject (asynchronously) with the no-factory error. */
async function assertNoFactory(h: Harness): Promise<void> {
  let create!: Promise<unknown>
  let resume!: Promise<unknown>
  assert.doesNotThrow(() => { create = h.create('s1') }, 'create must reject, not throw')
  assert.doesNotThrow(() => { resume = h.ctx.agents.resume({ resumeSessionId: 's1' }) }, 'resume must reject, not throw')
  await rejectsWith(create, ERRORS.noFactory)
  await rejectsWith(resume, ERRORS.noFactory)
}

export const factorySeamCases: DirectedCase[] = [
  {
    group: GROUP, clause: 1, title: 'create and resume with no factory reject with the no-factory error',
    async run(target) {
      // A process whose factory was unloaded (the port boots every process with its factory).
      const h = await makeHarness(target)
      await h.unloadFactory()
      await assertNoFactory(h)
      assert.deepEqual(h.ctx.agents.list(), [])
      assert.deepEqual(h.ctx.sessions.list(), [])
    },
  },
  {
    group: GROUP, clause: 2, title: 'a second setFactory while one is registered throws; the registered factory keeps serving',
    async run(target) {
      const h = await makeHarness(target)
      const stub = stubFactory()
      assert.throws(() => h.ctx.agents.setFactory(stub.factory), { message: ERRORS.factoryOccupied })
      const handle = await h.create('s1')
      assert.equal(stub.calls.length, 0, 'the rejected factory must not be used')
      assert.equal(h.ctx.agents.get('s1'), handle.agent)
      // The same holds for a stub occupying the slot.
      await h.unloadFactory()
      h.ctx.agents.setFactory(stub.factory)
      assert.throws(() => h.ctx.agents.setFactory(stubFactory().factory), { message: ERRORS.factoryOccupied })
      await h.create('s2')
      assert.equal(stub.calls.length, 1)
    },
  },
  {
    group: GROUP, clause: 3, title: 'disposing the setFactory owner clears the slot; later creates reject with the no-factory error',
    async run(target) {
      const h = await makeHarness(target)
      await h.create('s1')
      await h.unloadFactory()
      await rejectsWith(h.create('s2'), ERRORS.noFactory)
      // Owner fiber unload clears a stub registration …
      const owner = h.owner()
      const stub = stubFactory()
      owner.ctx.agents.setFactory(stub.factory)
      await h.create('s3')
      assert.equal(stub.calls.length, 1)
      await owner.unload()
      await rejectsWith(h.create('s4'), ERRORS.noFactory)
      // … and so does the returned disposer; afterwards the slot accepts a new factory.
      const dispose = h.ctx.agents.setFactory(stub.factory)
      await dispose()
      await rejectsWith(h.ctx.agents.resume({ resumeSessionId: 's1' }), ERRORS.noFactory)
      assert.equal(stub.calls.length, 1)
      assert.doesNotThrow(() => h.ctx.agents.setFactory(stubFactory().factory))
    },
  },
  {
    group: GROUP, clause: 4, title: 'the factory receives the caller context (its fiber) as owner, for create and resume',
    async run(target) {
      // The registry hands the caller context to the factory (observed with a stub) …
      const s = await makeHarness(target)
      await s.unloadFactory()
      const stub = stubFactory()
      s.ctx.agents.setFactory(stub.factory)
      const caller = s.owner('caller')
      const createOptions: CreateAgentOptions = { sessionId: 'c1' }
      const resumeOptions: ResumeAgentOptions = { resumeSessionId: 'r1' }
      const created = await caller.ctx.agents.create(createOptions)
      const resumed = await caller.ctx.agents.resume(resumeOptions)
      assert.deepEqual(stub.calls.map((c) => c.kind), ['create', 'resume'])
      for (const call of stub.calls) {
        assert.equal(call.ownerCtx.fiber, caller.ctx.fiber, `${call.kind}: owner fiber must be the caller's fiber`)
        assert.equal(call.ownerCtx.agent, undefined)
      }
      assert.equal(stub.calls[0]!.options, createOptions)
      assert.equal(stub.calls[1]!.options, resumeOptions)
      assert.equal(created, stub.calls[0]!.handle)
      assert.equal(resumed, stub.calls[1]!.handle)
      await s.shutdown()

      // … and the factory under test binds the agent to that fiber: unloading the caller that
      // created (or resumed) an agent tears exactly that agent down.
      const { h } = await persisted(target, 'r1')
      const a = h.owner('a')
      const b = h.owner('b')
      const fresh = await a.ctx.agents.create({ sessionId: 'c1' })
      const back = await b.ctx.agents.resume({ resumeSessionId: 'r1' })
      const bystander = await h.create('c2')
      await a.unload()
      assert.equal(h.ctx.agents.get('c1'), undefined, 'unloading the creating caller tears its agent down')
      assert.equal(h.ctx.sessions.get('c1'), undefined)
      assert.equal(h.ctx.agents.get('r1'), back.agent)
      assert.equal(h.ctx.agents.get('c2'), bystander.agent)
      await b.unload()
      assert.equal(h.ctx.agents.get('r1'), undefined, 'unloading the resuming caller tears its agent down')
      assert.equal(h.ctx.sessions.get('r1'), undefined)
      assert.deepEqual(h.ctx.agents.list(), [bystander.agent])
      assert.equal(fresh.agent.id, 'c1')
    },
  },
  {
    group: GROUP, clause: 5, title: 'agents created through a root agent context are listed after it, not roots, and owned by it',
    async run(target) {
      const h = await makeHarness(target)
      const parent = await h.create('p')
      const other = await h.create('q')
      const child = await parent.agent.ctx.agents.create({ sessionId: 'c' })
      assert.deepEqual(h.ctx.agents.list().map((a) => a.id), ['p', 'q', 'c'])
      assert.deepEqual(h.ctx.agents.list(), [parent.agent, other.agent, child.agent])
      assert.deepEqual(h.ctx.agents.roots(), [parent.agent, other.agent])
      assert.equal(h.ctx.agents.isOwnedBy('c', parent.agent), true)
      assert.equal(h.ctx.agents.isOwnedBy('c', other.agent), false)
      assert.equal(child.agent.ctx.agents.isOwnedBy('c', parent.agent), true, 'the answer does not depend on the view')
    },
  },
  {
    group: GROUP, clause: 6, title: 'isOwnedBy is false for the root itself, for a missing id, and after the child detaches',
    async run(target) {
      const h = await makeHarness(target)
      const root = await h.create('p')
      const child = await root.agent.ctx.agents.create({ sessionId: 'c' })
      assert.equal(h.ctx.agents.isOwnedBy('c', root.agent), true)
      assert.equal(h.ctx.agents.isOwnedBy('p', root.agent), false)
      assert.equal(h.ctx.agents.isOwnedBy('missing', root.agent), false)
      await child.dispose()
      assert.equal(h.ctx.agents.isOwnedBy('c', root.agent), false)
      // A root replacement reusing the id is not owned by the old owner (current exact entry).
      await h.create('c')
      assert.equal(h.ctx.agents.isOwnedBy('c', root.agent), false)
      assert.deepEqual(h.ctx.agents.roots().map((a) => a.id), ['p', 'c'])
    },
  },
  {
    group: GROUP, clause: 7, title: 'a session created with meta.parentSession and resumed from a plain context is a runtime root',
    async run(target) {
      const first = await makeHarness(target)
      const parent = await first.create('p')
      const child = await parent.agent.ctx.agents.create({ sessionId: 'c', meta: { parentSession: 'p', origin: 'subagent' } })
      assert.deepEqual(first.ctx.agents.roots(), [parent.agent])
      assert.equal(child.agent.session.header.parentSession, 'p')
      const h = await first.restart()
      const p = await h.ctx.agents.resume({ resumeSessionId: 'p' })
      const c = await h.ctx.agents.resume({ resumeSessionId: 'c' })
      assert.equal(c.agent.session.header.parentSession, 'p', 'the lineage is preserved')
      assert.deepEqual(h.ctx.agents.roots(), [p.agent, c.agent])
      assert.equal(h.ctx.agents.isOwnedBy('c', p.agent), false)
    },
  },
  {
    group: GROUP, clause: 8, title: 'a stub factory returning stub handles satisfies the registry API (consumer needs only ctx.agents)',
    async run(target) {
      const h = await makeHarness(target)
      await h.unloadFactory()
      const stub = stubFactory()
      const failure = { stub: 'failure' }
      const factory: AgentFactory = {
        createAgent: (ownerCtx, options) => (options.sessionId === 'bad' ? Promise.reject(failure) : stub.factory.createAgent(ownerCtx, options)),
        resume: (ownerCtx, options) => stub.factory.resume(ownerCtx, options),
      }
      h.ctx.agents.setFactory(factory)
      const options: CreateAgentOptions = { sessionId: 'x', agentOptions: { maxTokens: 5 } }
      const handle = await h.ctx.agents.create(options)
      assert.equal(handle, stub.calls[0]!.handle, 'create returns the factory handle unchanged')
      assert.equal(stub.calls[0]!.options, options, 'create passes the options unchanged')
      assert.equal(stub.calls[0]!.ownerCtx.fiber, h.ctx.fiber)
      const resumed = await h.ctx.agents.resume({ resumeSessionId: 'y' })
      assert.equal(resumed, stub.calls[1]!.handle)
      assert.equal(await h.ctx.agents.create({ sessionId: 'bad' }).catch((e: unknown) => e), failure, 'factory rejections pass through')
      await handle.dispose()
      // The stub made no registry entries and published nothing: the registry only delegates.
      assert.deepEqual(h.ctx.agents.list(), [])
      assert.deepEqual(h.observed, [])
    },
  },
  {
    group: GROUP, clause: 8, title: 'a factory that throws synchronously: create and resume pass the thrown value to the caller (thrown or rejected)',
    async run(target) {
      const h = await makeHarness(target)
      await h.unloadFactory()
      const thrown = { stub: 'sync throw' }
      const factory: AgentFactory = {
        createAgent: () => { throw thrown },
        resume: () => { throw thrown },
      }
      h.ctx.agents.setFactory(factory)
      // The registry delegates (§1.7): whatever the factory throws reaches the caller, never a
      // silent undefined. Thrown at the call or rejected, both are delegation.
      const outcome = async (call: () => Promise<AgentHandle>): Promise<unknown> => {
        try {
          const result = await call()
          return { resolved: result }
        } catch (error) {
          return error
        }
      }
      assert.equal(await outcome(() => h.ctx.agents.create({ sessionId: 'x' })), thrown, 'create')
      assert.equal(await outcome(() => h.ctx.agents.resume({ resumeSessionId: 'x' })), thrown, 'resume')
      assert.deepEqual(h.ctx.agents.list(), [])
      assert.deepEqual(h.observed, [])
    },
  },
]
