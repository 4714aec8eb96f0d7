import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { programArbitrary } from './index.js'
import * as build from '../../sim/program/build.js'
import { Scheduler } from '../../sim/engine/index.js'
import type { QuiescenceProbe } from '../../sim/world/ports.js'
import type { Program } from '../../sim/program/program.js'
import { runProgram, runProgramWith } from '../../sim/run.js'
import { pct, random } from '../../sim/strategies/index.js'
import type { QuiescentProbe } from '../../sim/trace/trace.js'
import { traceHash } from '../../sim/trace/trace.js'

/** The kit's scheduler with its quiescence hook switched off: runs without probes. */
class Unprobed extends Scheduler {
  override onSettled(_probe: QuiescenceProbe): void {}
}

async function probes(program: Program, seed = 1): Promise<readonly QuiescentProbe[]> {
  const strategy = random({ seed })
  strategy.beginRun()
  return (await runProgram(program, strategy)).trace.probes ?? []
}

describe('quiescence probes', () => {
  it('probing changes nothing a run does: 150 generated programs give the same trace hashes and decisions with probes off', async () => {
    const samples = fc.sample(programArbitrary(), { numRuns: 150, seed: 23 })
    for (const [i, program] of samples.entries()) {
      const a = pct({ seed: i, depth: 2 })
      a.beginRun()
      const probed = await runProgram(program, a)
      const b = pct({ seed: i, depth: 2 })
      b.beginRun()
      const plain = await runProgramWith(program, new Unprobed(b))
      expect(plain.trace.probes ?? []).toEqual([])
      expect(probed.hash, `program ${i}`).toBe(plain.hash)
      expect(probed.decisions).toEqual(plain.decisions)
    }
  }, 60_000)

  it('the trace hash covers the entries only', async () => {
    const strategy = random({ seed: 2 })
    strategy.beginRun()
    const { trace, hash } = await runProgram(build.program([build.actor('a1', build.create('s1'), build.followup('s1'))]), strategy)
    expect(trace.probes!.length).toBeGreaterThan(0)
    expect(hash).toBe(traceHash({ v: trace.v, entries: trace.entries }))
  })

  it('a probe sees each live agent through its public surface: status, a settled whenIdle, pending input, maintenance', async () => {
    const parked = await probes(build.program([build.actor('a1', build.create('s1'), build.inject('s1'))]))
    expect(parked.at(-1)!.agents).toEqual([{ id: 's1', status: 'idle', idle: true, nextStep: ['m1'] }])
    // A hanging model call: running (its whenIdle, asked once, has not settled: no idleWhileRunning).
    const hung = await probes(build.program([build.actor('a1', build.create('s1'), build.followup('s1'))], { model: { s1: [{ reply: 'hang' }] } }))
    expect(hung.at(-1)!.agents).toEqual([{ id: 's1', status: 'running' }])
    // whenIdle is asked of an idle agent with something pending, a turn open, at the end, or when
    // something happened to it since it was last asked (here its publication); never twice for one state.
    expect(parked.at(-1)!.last).toBe(true)
    expect(parked.slice(0, -1).flatMap((p) => p.agents).filter((a) => a.idle !== undefined && !a.nextStep)).toEqual([{ id: 's1', status: 'idle', idle: true }])
    const quiet = await probes(build.program([build.actor('a1', build.create('s1'), build.whenIdle('s1'), build.whenIdle('s1'))]))
    expect(quiet.slice(0, -1).flatMap((p) => p.agents).filter((a) => a.idle !== undefined)).toHaveLength(1)
    const maintaining = await probes(build.program([build.actor('a1', build.create('s1'), build.runMaintenance('s1', 2))]))
    expect(maintaining.some((p) => p.agents.some((a) => a.maintenance === true && a.status === 'idle' && !a.idle))).toBe(true)
    expect(maintaining.at(-1)!.agents).toEqual([{ id: 's1', status: 'idle', idle: true }])
    // Stub agents the program registers are not probed; a torn-down agent leaves the probes.
    const stub = await probes(build.program([build.actor('a1', build.register('s2'), build.create('s1'), build.dispose('s1'))]))
    expect(stub.flatMap((p) => p.agents.map((a) => a.id))).not.toContain('s2')
    expect(stub.at(-1)!.agents).toEqual([])
  })

  it('a probe follows the run: entries recorded before it, its process, nothing recorded twice without a change but the last', async () => {
    const list = await probes(build.program([build.actor('a1', build.create('s1'), build.restart(), build.resume('s1'))]))
    const before = list.slice(0, -1)
    expect(before.map((p) => p.at)).toEqual([...new Set(before.map((p) => p.at))])
    expect(list.filter((p) => p.last)).toEqual([list.at(-1)])
    expect(list.at(-1)!.world).toBe(1)
    expect(list.every((p, i) => i === 0 || p.at >= list[i - 1]!.at)).toBe(true)
  })
})
