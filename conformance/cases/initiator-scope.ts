/**
 * AGENT-INITIATOR-API 129–132 and AGENT-INITIATOR-DRAIN 133–138: the initiator scope of the runtime
 * under test (`ctx.agents.withInitiator/withoutInitiator/currentInitiator/requireInitiator`) and its
 * drain when the process shuts down (the registry's disposal), with stub agents.
 * @module
 */
import assert from 'node:assert/strict'
import { runInNewContext } from 'node:vm'
import type { Agent } from '../../core/contract.js'
import type { CaseTarget, DirectedCase } from './harness.js'
import { gate, makeHarness, settle } from './harness.js'

const NO_INITIATOR = /no initiating agent is active/
const DISPOSED = /agent initiator scope is disposed/

/** A fresh process and two stub agents (the initiator scope only carries them). */
async function world(target: CaseTarget) {
  const h = await makeHarness(target)
  const stub = (id: string): Agent => ({ id, session: h.ctx.sessions.prepare(id) }) as unknown as Agent
  return { h, agents: h.ctx.agents, A: stub('A'), B: stub('B') }
}

/** Track whether a promise has settled. */
function track(promise: Promise<unknown>) {
  const state = { settled: false }
  promise.then(() => { state.settled = true }, () => { state.settled = true })
  return state
}

/** Let the event loop turn a few times, stopping early when `done()` holds. */
async function turns(done: () => boolean, max = 20): Promise<void> {
  for (let i = 0; i < max && !done(); i++) await settle()
}

export const initiatorScopeCases: DirectedCase[] = [
  {
    group: 'AGENT-INITIATOR-API', clause: 129, title: 'outside any boundary currentInitiator() is undefined and requireInitiator() throws',
    async run(target) {
      const { agents } = await world(target)
      assert.equal(agents.currentInitiator(), undefined)
      assert.throws(() => agents.requireInitiator(), NO_INITIATOR)
    },
  },
  {
    group: 'AGENT-INITIATOR-API', clause: 130, title: 'withInitiator returns the exact sync value and the exact Promise; the initiator is visible before and after an await',
    async run(target) {
      const { agents, A } = await world(target)
      const value = { v: 1 }
      assert.equal(agents.withInitiator(A, () => value), value)
      assert.equal(agents.withInitiator(A, () => agents.requireInitiator()), A)
      const g = gate()
      const seen: (Agent | undefined)[] = []
      let inner: Promise<string> | undefined
      const returned = agents.withInitiator(A, () => {
        inner = (async () => {
          seen.push(agents.currentInitiator())
          await g.promise
          seen.push(agents.currentInitiator())
          return 'done'
        })()
        return inner
      })
      assert.equal(returned, inner, 'the exact Promise object')
      assert.equal(agents.currentInitiator(), undefined, 'the caller context is restored as soon as the call returns')
      g.open()
      assert.equal(await returned, 'done')
      assert.deepEqual(seen, [A, A])
    },
  },
  {
    group: 'AGENT-INITIATOR-API', clause: 131, title: 'overlapping boundaries for A and B each see their own agent after awaiting a shared gate; outside, none',
    async run(target) {
      const { agents, A, B } = await world(target)
      const shared = gate()
      const run = (agent: Agent) => agents.withInitiator(agent, async () => {
        const before = agents.requireInitiator()
        await shared.promise
        await Promise.resolve()
        return [before, agents.requireInitiator()]
      })
      const pa = run(A)
      const pb = run(B)
      assert.equal(agents.currentInitiator(), undefined)
      shared.open()
      assert.deepEqual(await pa, [A, A])
      assert.deepEqual(await pb, [B, B])
      assert.equal(agents.currentInitiator(), undefined)
    },
  },
  {
    group: 'AGENT-INITIATOR-API', clause: 132, title: 'nested boundaries restore the outer agent after return, sync throw and async rejection; withoutInitiator hides it',
    async run(target) {
      const { agents, A, B } = await world(target)
      const parent = A
      const child = B
      const trace: unknown[] = []
      await agents.withInitiator(parent, async () => {
        trace.push(agents.withInitiator(child, () => agents.currentInitiator()))
        trace.push(agents.currentInitiator())
        agents.withoutInitiator(() => {
          trace.push(agents.currentInitiator())
          assert.throws(() => agents.requireInitiator(), NO_INITIATOR)
        })
        trace.push(agents.currentInitiator())
        assert.throws(() => agents.withInitiator(child, () => { throw new Error('sync') }), /sync/)
        trace.push(agents.currentInitiator())
        await assert.rejects(agents.withInitiator(child, async () => {
          await Promise.resolve()
          trace.push(agents.currentInitiator())
          throw new Error('async')
        }), /async/)
        trace.push(agents.currentInitiator())
        await agents.withoutInitiator(async () => {
          await Promise.resolve()
          trace.push(agents.currentInitiator())
        })
        trace.push(agents.currentInitiator())
      })
      assert.deepEqual(trace, [child, parent, undefined, parent, parent, child, parent, undefined, parent])
      assert.equal(agents.currentInitiator(), undefined)
    },
  },
  {
    group: 'AGENT-INITIATOR-API', clause: 133, title: 'a Promise with an overridden then is returned unchanged, tracked without calling it, and disposal waits for it',
    async run(target) {
      const { h, agents, A } = await world(target)
      const g = gate()
      const p = g.promise.then(() => 'v')
      let thenCalls = 0
      Object.defineProperty(p, 'then', { value: () => { thenCalls++; throw new Error('overridden then called') } })
      assert.equal(agents.withInitiator(A, () => p), p)
      assert.equal(thenCalls, 0)
      const shutdown = track(h.shutdown())
      await turns(() => shutdown.settled, 5)
      assert.equal(shutdown.settled, false, 'disposal waits for the tracked promise')
      g.open()
      await turns(() => shutdown.settled)
      assert.equal(shutdown.settled, true)
      assert.equal(thenCalls, 0, 'the overridden then was never called')
    },
  },
  {
    group: 'AGENT-INITIATOR-API', clause: 134, title: 'a Promise whose species getter throws is returned unchanged and does not block disposal',
    async run(target) {
      const { h, agents, A } = await world(target)
      const g = gate()
      const p = g.promise
      const hostile = Object.defineProperty({}, Symbol.species, { get() { throw new Error('hostile species') } })
      Object.defineProperty(p, 'constructor', { value: hostile })
      assert.equal(agents.withInitiator(A, () => p), p)
      const shutdown = track(h.shutdown())
      await turns(() => shutdown.settled)
      assert.equal(shutdown.settled, true, 'disposal did not wait for the unobservable promise')
      assert.equal(g.opened, false)
    },
  },
  {
    group: 'AGENT-INITIATOR-DRAIN', clause: 135, title: 'during disposal new boundaries throw while a pending boundary still reads its agent; disposal completes only after it settles; afterwards reads throw',
    async run(target) {
      const { h, agents, A } = await world(target)
      const g = gate()
      const reads: unknown[] = []
      const pending = agents.withInitiator(A, async () => {
        await g.promise
        reads.push(agents.currentInitiator())
      })
      const shutdown = track(h.shutdown())
      // Closing begins synchronously with the unload.
      assert.throws(() => agents.withInitiator(A, () => 1), DISPOSED)
      assert.throws(() => agents.withoutInitiator(() => 1), DISPOSED)
      assert.equal(agents.currentInitiator(), undefined, 'reads still work while closing')
      await turns(() => shutdown.settled, 5)
      assert.equal(shutdown.settled, false)
      g.open()
      await pending
      assert.deepEqual(reads, [A], 'the pending boundary still reads its agent')
      await turns(() => shutdown.settled)
      assert.equal(shutdown.settled, true)
      assert.throws(() => agents.currentInitiator(), DISPOSED)
      assert.throws(() => agents.requireInitiator(), DISPOSED)
      assert.throws(() => agents.withInitiator(A, () => 1), DISPOSED)
      assert.throws(() => agents.withoutInitiator(() => 1), DISPOSED)
    },
  },
  {
    group: 'AGENT-INITIATOR-DRAIN', clause: 135, title: 'disposal waits for every pending boundary, not only the first to settle',
    async run(target) {
      const { h, agents, A, B } = await world(target)
      const first = gate()
      const second = gate()
      track(agents.withInitiator(A, () => first.promise))
      track(agents.withInitiator(B, () => second.promise))
      const shutdown = track(h.shutdown())
      // Let the unload reach the drain before either boundary settles.
      await turns(() => shutdown.settled, 5)
      assert.equal(shutdown.settled, false)
      first.open()
      await turns(() => shutdown.settled, 5)
      assert.equal(shutdown.settled, false, 'one boundary is still pending')
      second.open()
      await turns(() => shutdown.settled)
      assert.equal(shutdown.settled, true)
    },
  },
  {
    group: 'AGENT-INITIATOR-DRAIN', clause: 135, title: 'a sync boundary and a non-promise result are released at once (disposal does not wait for them)',
    async run(target) {
      const { h, agents, A } = await world(target)
      agents.withInitiator(A, () => 42)
      assert.throws(() => agents.withInitiator(A, () => { throw new Error('x') }))
      agents.withInitiator(A, () => ({ then: () => undefined }))
      const shutdown = track(h.shutdown())
      await turns(() => shutdown.settled)
      assert.equal(shutdown.settled, true)
    },
  },
  {
    group: 'AGENT-INITIATOR-DRAIN', clause: 136, title: 'cross-realm Promise boundaries are returned unchanged and drained',
    async run(target) {
      const { h, agents, A } = await world(target)
      const foreign = runInNewContext('(() => { let resolve; const promise = new Promise((r) => { resolve = r }); return { promise, resolve } })()') as {
        promise: Promise<number>
        resolve: (v: number) => void
      }
      assert.equal(foreign.promise instanceof Promise, false, 'really another realm')
      assert.equal(agents.withInitiator(A, () => foreign.promise), foreign.promise)
      const settledForeign = runInNewContext('Promise.resolve(1)') as Promise<number>
      assert.equal(agents.withInitiator(A, () => settledForeign), settledForeign)
      const shutdown = track(h.shutdown())
      await turns(() => shutdown.settled, 5)
      assert.equal(shutdown.settled, false, 'the pending cross-realm promise is awaited')
      foreign.resolve(1)
      await turns(() => shutdown.settled)
      assert.equal(shutdown.settled, true)
    },
  },
  {
    group: 'AGENT-INITIATOR-DRAIN', clause: 137, title: 'a boundary whose operation returns the root (ancestor fiber) shutdown completes promptly',
    async run(target) {
      const { h, agents, A } = await world(target)
      const p = agents.withInitiator(A, () => h.shutdown())
      const state = track(p)
      await turns(() => state.settled)
      assert.equal(state.settled, true, 'no self-deadlock')
      assert.throws(() => agents.currentInitiator(), DISPOSED)
    },
  },
  {
    group: 'AGENT-INITIATOR-DRAIN', clause: 137, title: 'nested boundaries (parent and child runs) around the shutdown are all released',
    async run(target) {
      const { h, agents, A, B } = await world(target)
      const p = agents.withInitiator(A, async () => {
        await Promise.resolve()
        return agents.withInitiator(B, () => h.shutdown())
      })
      const state = track(p)
      await turns(() => state.settled)
      assert.equal(state.settled, true)
    },
  },
  {
    group: 'AGENT-INITIATOR-DRAIN', clause: 138, title: 'an async boundary that starts the unload is excluded from the drain while unrelated boundaries are still awaited',
    async run(target) {
      const { h, agents, A, B } = await world(target)
      const unrelated = gate()
      const other = track(agents.withInitiator(B, () => unrelated.promise))
      let shutdown: Promise<void> | undefined
      const starter = track(agents.withInitiator(A, async () => {
        await Promise.resolve()
        shutdown = h.shutdown()
        await shutdown
      }))
      await turns(() => starter.settled, 5)
      assert.ok(shutdown)
      const done = track(shutdown)
      assert.equal(done.settled, false, 'the unrelated boundary is still awaited')
      assert.equal(starter.settled, false)
      unrelated.open()
      await turns(() => done.settled && starter.settled)
      assert.equal(other.settled, true)
      assert.equal(done.settled, true)
      assert.equal(starter.settled, true)
    },
  },
]
