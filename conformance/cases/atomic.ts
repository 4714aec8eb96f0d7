import assert from 'node:assert/strict'
import type { Context } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import type { CaseTarget, DirectedCase } from './harness.js'
import { gate, makeHarness, settle } from './harness.js'
import { assertEmpty, assertNothingPublished, lifecycle, rejection, rejectsWith } from './lifecycle-helpers.js'

const GROUP = 'AGENT-ATOMIC-TEST'

/** Two same-id creates whose setups are held behind gates. */
async function sameIdRace(target: CaseTarget) {
  const h = await makeHarness(target)
  const gates = [gate(), gate()]
  const entered: number[] = []
  const creates = gates.map((g, i) => h.create('s1', { setup: async () => { entered.push(i); await g.promise } }))
  return { h, gates, entered, creates }
}

export const atomicCases: DirectedCase[] = [
  {
    group: GROUP, clause: 63, title: 'two concurrent same-id creates can both enter setup; while gated both registries are empty',
    async run(target) {
      const { h, gates, entered, creates } = await sameIdRace(target)
      await new Promise((r) => setImmediate(r))
      assert.deepEqual(entered.sort(), [0, 1], 'both setups should have started')
      assert.equal(h.ctx.sessions.get('s1'), undefined)
      assert.equal(h.ctx.agents.get('s1'), undefined)
      gates.forEach((g) => g.open())
      await Promise.allSettled(creates)
    },
  },
  {
    group: GROUP, clause: 64, title: 'exactly one same-id create wins; the loser rejects with already exists',
    async run(target) {
      const { gates, creates } = await sameIdRace(target)
      gates.forEach((g) => g.open())
      const results = await Promise.allSettled(creates)
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1)
      const losers = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      assert.equal(losers.length, 1)
      assert.match(String((losers[0]!.reason as Error)?.message), /already (exists|registered)/)
    },
  },
  {
    group: GROUP, clause: 65, title: 'after the race the registries hold exactly the winner and its session (no orphan)',
    async run(target) {
      const { h, gates, creates } = await sameIdRace(target)
      gates.reverse().forEach((g) => g.open())
      const results = await Promise.allSettled(creates)
      const winner = results.find((r) => r.status === 'fulfilled')!.value
      assert.deepEqual(h.ctx.agents.list(), [winner.agent])
      assert.deepEqual(h.ctx.sessions.list(), [winner.agent.session])
    },
  },
  {
    group: GROUP, clause: 66, title: 'after the winner disposes both lists are empty',
    async run(target) {
      const { h, gates, creates } = await sameIdRace(target)
      gates.forEach((g) => g.open())
      const results = await Promise.allSettled(creates)
      await results.find((r) => r.status === 'fulfilled')!.value.dispose()
      assert.deepEqual(h.ctx.agents.list(), [])
      assert.deepEqual(h.ctx.sessions.list(), [])
    },
  },
  {
    group: GROUP, clause: 67, title: 'aborting the creation signal during pending setup rejects with the reason and publishes nothing, even if setup never settles',
    async run(target) {
      const h = await makeHarness(target)
      const controller = new AbortController()
      const entered = gate<Context>()
      const never = gate()
      const pending = h.create('s1', { signal: controller.signal, setup: (ctx) => { entered.open(ctx); return never.promise } })
      const agentCtx = await entered.promise
      await settle()
      const reason = new Error('caller gave up')
      controller.abort(reason)
      assert.equal(await rejection(pending), reason)
      assert.equal(never.opened, false, 'rejected while setup is still pending')
      assertNothingPublished(h, 's1')
      assertEmpty(h)
      assert.throws(() => agentCtx.effect(() => undefined), { message: ERRORS.inactiveContext }, "the abandoned setup's scope is disposed")
      const retry = await h.create('s1')
      assert.equal(h.ctx.agents.get('s1'), retry.agent)
      never.open()
      await settle()
      assert.deepEqual(lifecycle(h, 's1'), ['session/created', 'agent/created', 'agent/session-start'])
    },
  },
  {
    group: GROUP, clause: 68, title: 'aborting the creation signal after the handle resolved leaves the agent registered and idle',
    async run(target) {
      const h = await makeHarness(target)
      const controller = new AbortController()
      const handle = await h.create('s1', { signal: controller.signal })
      controller.abort(new Error('too late'))
      await settle()
      assert.equal(h.ctx.agents.get('s1'), handle.agent)
      assert.equal(h.ctx.sessions.get('s1'), handle.agent.session)
      assert.equal(handle.agent.status, 'idle')
      assert.deepEqual(lifecycle(h, 's1'), ['session/created', 'agent/created', 'agent/session-start'])
      // Still fully usable: the signal has no effect on its work.
      handle.agent.followup(h.msg('still here'))
      await handle.agent.whenIdle()
      assert.deepEqual(h.statuses('s1'), ['running', 'idle'])
      assert.equal(h.model.requests.length, 1)
      assert.equal(h.model.requests[0]!.signal.aborted, false)
      assert.equal(h.ctx.agents.get('s1'), handle.agent)
    },
  },
  {
    group: GROUP, clause: 69, title: 'setup that synchronously aborts its own creation signal makes creation reject with that reason',
    async run(target) {
      const h = await makeHarness(target)
      const controller = new AbortController()
      const reason = new Error('setup aborted itself')
      let disposed = false
      const error = await rejection(h.create('s1', {
        signal: controller.signal,
        setup: (ctx) => {
          ctx.effect(() => () => { disposed = true }, 'probe')
          controller.abort(reason)
        },
      }))
      assert.equal(error, reason)
      assert.equal(disposed, true)
      assertNothingPublished(h, 's1')
      assertEmpty(h)
      await h.create('s1')
    },
  },
  {
    group: GROUP, clause: 70, title: 'a non-Error abort reason during setup is wrapped as creation aborted with the reason as cause',
    async run(target) {
      const h = await makeHarness(target)
      // Synchronously inside setup …
      const sync = new AbortController()
      const plain = { reason: 'plain object' }
      const first = await rejectsWith(h.create('s1', { signal: sync.signal, setup: () => { sync.abort(plain) } }), ERRORS.creationAborted('s1'))
      assert.equal(first.cause, plain)
      // … and while setup is pending.
      const later = new AbortController()
      const entered = gate()
      const pending = h.create('s1', { signal: later.signal, setup: async () => { entered.open(); await new Promise(() => undefined) } })
      await entered.promise
      later.abort('a string')
      const second = await rejectsWith(pending, ERRORS.creationAborted('s1'))
      assert.equal(second.cause, 'a string')
      assertNothingPublished(h, 's1')
      assertEmpty(h)
    },
  },
]
