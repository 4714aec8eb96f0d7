import assert from 'node:assert/strict'
import type { DirectedCase } from './harness.js'
import { gate, makeHarness } from './harness.js'

const GROUP = 'AGENT-ATOMIC-TEST'

/** Two same-id creates whose setups are held behind gates. */
async function sameIdRace(install: Parameters<DirectedCase['run']>[0]) {
  const h = makeHarness(install)
  const gates = [gate(), gate()]
  const entered: number[] = []
  const creates = gates.map((g, i) => h.create('s1', { setup: async () => { entered.push(i); await g.promise } }))
  return { h, gates, entered, creates }
}

export const atomicCases: DirectedCase[] = [
  {
    group: GROUP, clause: 63, title: 'two concurrent same-id creates can both enter setup; while gated both registries are empty',
    async run(install) {
      const { h, gates, entered, creates } = await sameIdRace(install)
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
    async run(install) {
      const { gates, creates } = await sameIdRace(install)
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
    async run(install) {
      const { h, gates, creates } = await sameIdRace(install)
      gates.reverse().forEach((g) => g.open())
      const results = await Promise.allSettled(creates)
      const winner = results.find((r) => r.status === 'fulfilled')!.value
      assert.deepEqual(h.ctx.agents.list(), [winner.agent])
      assert.deepEqual(h.ctx.sessions.list(), [winner.agent.session])
    },
  },
  {
    group: GROUP, clause: 66, title: 'after the winner disposes both lists are empty',
    async run(install) {
      const { h, gates, creates } = await sameIdRace(install)
      gates.forEach((g) => g.open())
      const results = await Promise.allSettled(creates)
      await results.find((r) => r.status === 'fulfilled')!.value.dispose()
      assert.deepEqual(h.ctx.agents.list(), [])
      assert.deepEqual(h.ctx.sessions.list(), [])
    },
  },
]
