/**
 * The checks of the settled state, each on a small program aimed at it: the mutant that proves it
 * violates its clause, and the reference factory runs the same program clean under every schedule
 * tried. (The regression corpus, scenarios/regressions/, holds each mutant's shrunk fuzz finding;
 * A10's, a cancel landing in one checkpoint, needs a schedule only a campaign finds.)
 */
import { describe, expect, it } from 'vitest'
import type { Adapter } from '../adapters/adapter.js'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../adapters/adapter.js'
import a9 from '../mutants/a9-wake-decided-before-insert.js'
import a11 from '../mutants/a11-cause-recorded-after-abort.js'
import a12 from '../mutants/a12-driver-start-failure-keeps-running.js'
import a13 from '../mutants/a13-live-session-crash-repaired.js'
import a14 from '../mutants/a14-rollback-keeps-scope.js'
import a15 from '../mutants/a15-teardown-rethrows-deferred-clear.js'
import m51 from '../mutants/m51-final-turn-end-deferred.js'
import * as build from '../../sim/program/build.js'
import type { Program } from '../../sim/program/program.js'
import { runProgram } from '../../sim/run.js'
import { pct } from '../../sim/strategies/index.js'
import { checkRun } from './index.js'

/** The violation keys of `program` on `adapter` under schedules 0..n-1 (pct d=2). */
async function keys(adapter: Adapter, program: Program, n = 4): Promise<string[][]> {
  const { processFactory } = normalizeAdapter(adapter)
  const out: string[][] = []
  for (let seed = 0; seed < n; seed++) {
    const strategy = pct({ seed, depth: 2 })
    strategy.beginRun()
    const result = await runProgram(program, strategy, { process: processFactory })
    out.push(checkRun(program, result.trace, result.outcome).map((v) => v.key))
  }
  return out
}

async function proves(mutant: Adapter, key: string, program: Program): Promise<void> {
  expect(await keys(REFERENCE_ADAPTER, program)).toEqual([[], [], [], []])
  const found = await keys(mutant, program)
  expect(found.some((k) => k.includes(key)), JSON.stringify(found)).toBe(true)
}

describe('checks of the settled state', () => {
  it('AGENT-RUNTIME-SCOPE 31 (idle-pending): a followup latched behind maintenance its own insertion started is run (A9)', async () => {
    await proves(a9, 'AGENT-RUNTIME-SCOPE 31', build.program([build.actor('a1', build.create('s1'), build.followup('s1'))], {
      listeners: [build.on('agent/inbox/inserted', build.act(build.runMaintenance('s1')))],
    }))
  })

  it('X-INPUT 159 (turns-closed): a quiescent agent has closed every turn it opened (M51)', async () => {
    await proves(m51, 'X-INPUT 159', build.program([build.actor('a1', build.create('s1'), build.followup('s1'), build.whenIdle('s1'))]))
  })

  it('X-CANCEL 156 (cancel-cause): a cancel from an abort observer does not replace the first cause (A11)', async () => {
    await proves(a11, 'X-CANCEL 156', build.program([build.actor('a1', build.create('s1'), build.followup('s1'))], {
      model: { s1: [{ reply: 'tool', op: build.cancel('s1') }] },
      listeners: [build.on('agent/pre-step', build.SLOW, { onAbort: build.act(build.cancel('s1', { cause: 'hook', keepInbox: true })) })],
    }))
  })

  it('AGENT-RUNTIME-SCOPE 27 / AGENT-PUBLIC-INTERFACE 11 (status-activity): an agent whose driver could not start reads idle again (A12)', async () => {
    await proves(a12, 'AGENT-PUBLIC-INTERFACE 11', build.program([build.actor('a1', build.create('s1'), build.shutdown())], {
      effects: [{ on: 'root', disposer: build.act(build.followup('s1')) }],
    }))
  })

  it('AGENT-CREATE-RESUME 43 (stored-log): a racing resume leaves the stored log of a live session alone (A13, a process adapter)', async () => {
    await proves(a13, 'AGENT-CREATE-RESUME 43', build.program([build.actor('a1', build.create('s1'), build.followup('s1'), build.resume('s1'))], {
      model: { s1: [{ reply: 'hang' }] },
    }))
  })

  it('AGENT-RUNTIME-SCOPE 16 (teardown-completes): a rollback unwinds what setup registered (A14)', async () => {
    await proves(a14, 'AGENT-RUNTIME-SCOPE 16', build.program([build.actor('a1', build.create('s1', { setup: build.setup(1, { rejectAt: 1, effects: [{ disposer: build.SLOW }] }) }))]))
  })

  it('AGENT-TEARDOWN-TEST 112 (teardown-completes): a teardown requested from inside an append observer with work pending resolves (A15)', async () => {
    await proves(a15, 'AGENT-TEARDOWN-TEST 112', build.program([build.actor('a1', build.create('s1'), build.inject('s1'), build.inject('s1'))], {
      listeners: [build.on('session/event', build.act(build.dispose('s1')), { eventType: 'agent/inbox/spliced', where: { pending: true } })],
    }))
  })
})
