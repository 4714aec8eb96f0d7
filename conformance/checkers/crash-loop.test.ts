/**
 * A program whose listeners crash every process they are registered in loops through new processes
 * by its own design (D68). The run ends as a livelock once it has booted {@link MAX_PROCESSES}
 * processes, long before its step budget (at 10,000 steps such a run recorded about 180,000 trace
 * entries and held a worker's thread past its busy limit), and the checkers charge it to no clause.
 */
import { describe, expect, it } from 'vitest'
import type { Program } from '../../sim/program/program.js'
import { MAX_PROCESSES, runProgram } from '../../sim/run.js'
import { pct } from '../../sim/strategies/index.js'
import { checkRun } from './index.js'

/** From a portfolio soundness campaign on the reference (run seed 19041609), cut to what loops. */
const CRASH_LOOP: Program = {
  v: 1,
  actors: [
    { id: 'a1', ops: [{ op: 'create', session: 's1' }] },
    { id: 'a2', ops: [{ op: 'openGate', gate: 'k2' }, { op: 'resume', session: 's1', setup: { steps: 0, commitThrows: true, hangAt: 0 } }] },
  ],
  env: {
    listeners: [
      { event: 'agent/inbox/inserted', times: 2, action: { do: 'op', op: { op: 'crash' } } },
      { event: 'agent/created', session: 's1', times: 3, action: { do: 'op', op: { op: 'boundary', session: 's1', ops: [{ op: 'pause' }, { op: 'create', session: 's1' }] } } },
      { event: 'agent/created', session: 's1', times: 1, action: { do: 'op', op: { op: 'steer', session: 's1' } } },
    ],
    preparations: { s1: { gate: 'k2' } },
  },
}

describe('a program that crashes every process it boots', () => {
  it(`ends as a livelock after ${MAX_PROCESSES} processes, and no clause is charged (D68)`, async () => {
    const strategy = pct({ seed: 19041609, depth: 1 })
    strategy.beginRun()
    const result = await runProgram(CRASH_LOOP, strategy)
    expect(result.outcome.kind).toBe('livelock')
    expect(result.outcome.kind === 'livelock' && result.outcome.reason).toMatch(`booted ${MAX_PROCESSES} processes`)
    expect(result.trace.entries.filter((e) => e.k === 'final').length).toBe(MAX_PROCESSES + 1)
    expect(checkRun(CRASH_LOOP, result.trace, result.outcome)).toEqual([])
  })
})
