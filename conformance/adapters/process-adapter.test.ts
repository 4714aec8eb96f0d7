/**
 * Process adapters (a foreign runtime booted whole) as the suite reports and checks them: the
 * kit-level clauses are checked by directed cases through the process port for them exactly as for
 * a factory adapter (a missing capability leaves a clause unchecked, saying why), and an agent that keeps emitting
 * after its own `agent/disposed` is reported as such, never attributed to a successor of its id.
 */
import { describe, expect, it } from 'vitest'
import type { Agent } from '../../core/contract.js'
import { kitProcess } from '../../core/process.js'
import type { ProcessFactory } from '../../core/process.js'
import type { Program } from '../../sim/program/program.js'
import { referenceInstall, runProgram } from '../../sim/run.js'
import { random } from '../../sim/strategies/index.js'
import { REFERENCE_ADAPTER } from './adapter.js'
import type { Adapter } from './adapter.js'
import { checkRun } from '../checkers/index.js'
import { certify } from '../certify/certify.js'

const referenceProcess: Adapter = { name: 'reference as a process', version: '0', process: kitProcess(referenceInstall) }

describe('process adapters', () => {
  it('kit-level clauses (store, registry, inbox ops, initiator, sessions) are checked by a case for a process adapter as for a factory adapter', async () => {
    const only = ['AGENT-REGISTRY-LIFECYCLE 71', 'AGENT-REGISTRY-TEST 88', 'AGENT-INBOX-REPLAY 116', 'AGENT-INITIATOR-DRAIN 135', 'X-SESSION 170']
    const factory = await certify(REFERENCE_ADAPTER, { only })
    const foreign = await certify(referenceProcess, { only })
    for (const key of only) {
      for (const report of [factory, foreign]) {
        const clause = report.clauses.find((c) => c.key === key)
        expect(clause?.status, `${report.adapter.name}: ${key}`).toBe('pass')
        expect(clause?.checkedBy, `${report.adapter.name}: ${key}`).toContain('case')
      }
    }
  }, 120_000) // two certifications in this thread: minutes on a loaded 2-core machine, and a timeout would leave the virtual clock installed for the next test

  it('a capability the process does not declare leaves the clauses of the cases needing it unchecked, with the reason', async () => {
    const only = ['AGENT-REGISTRY-TEST 81', 'AGENT-PREPARE-PUBLISH 59', 'AGENT-CREATE-RESUME 48']
    const report = await certify(referenceProcess, { only })
    expect(Object.fromEntries(report.clauses.map((c) => [c.key, [c.status, c.reason]]))).toEqual({
      'AGENT-REGISTRY-TEST 81': ['unchecked', 'needs capability warnings'],
      'AGENT-PREPARE-PUBLISH 59': ['unchecked', 'needs capability scopeMinting'],
      'AGENT-CREATE-RESUME 48': ['unchecked', 'needs capability noPersistence'],
    })
    const declared = await certify({ ...referenceProcess, supports: { warnings: true, scopeMinting: true, noPersistence: true } }, { only })
    expect(declared.clauses.map((c) => c.status)).toEqual(['pass', 'pass', 'pass'])
  })

  it('AGENT-TEARDOWN-TEST 111: events of an agent after its own agent/disposed are flagged stale, kept out of the successor lifecycle, and violate 111', async () => {
    // A process whose disposed agent emits one more agent/status once a successor with its id is
    // published, as a driver outliving its teardown does.
    const base = kitProcess(referenceInstall)
    const leaky: ProcessFactory = async (services) => {
      const handle = await base(services)
      const disposed = new Map<string, Agent>()
      handle.observe('agent/disposed', ({ agent }: { agent: Agent }) => { disposed.set(agent.id, agent) })
      handle.observe('agent/session-start', ({ agent }: { agent: Agent }) => {
        const old = disposed.get(agent.id)
        if (old) queueMicrotask(() => handle.ctx.events.contained('agent/status', old, { agent: old, status: 'idle' }))
      })
      return handle
    }
    const program: Program = { v: 1, actors: [{ id: 'a1', ops: [
      { op: 'create', session: 's1' }, { op: 'dispose', session: 's1' }, { op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' },
    ] }] }
    const strategy = random({ seed: 1 })
    strategy.beginRun()
    const run = await runProgram(program, strategy, { process: leaky })
    const stale = run.trace.entries.filter((e) => e.k === 'event' && e.stale)
    expect(stale.map((e) => e.k === 'event' && `${e.name} ${e.id} ${e.detail}`)).toEqual(['agent/status s1 idle'])
    const violations = checkRun(program, run.trace, run.outcome)
    expect(violations.map((v) => v.key)).not.toContain('AGENT-RUNTIME-SCOPE 22')
    expect(violations.filter((v) => v.key === 'AGENT-TEARDOWN-TEST 111').map((v) => v.message)).toContain('"s1": the detached agent emitted agent/status idle after its agent/disposed')
    // The same run with the flag dropped: the stray status lands in the successor's lifecycle (the misreport the flag prevents).
    const unflagged = { ...run.trace, entries: run.trace.entries.map((e) => (e.k === 'event' && e.stale ? { ...e, stale: undefined } : e)) }
    expect(checkRun(program, unflagged, run.outcome).map((v) => v.key)).toContain('AGENT-RUNTIME-SCOPE 22')
    // The reference itself never emits after agent/disposed.
    const clean = random({ seed: 1 })
    clean.beginRun()
    const reference = await runProgram(program, clean)
    expect(reference.trace.entries.some((e) => e.k === 'event' && e.stale)).toBe(false)
    expect(checkRun(program, reference.trace, reference.outcome)).toEqual([])
  })
})
