import { describe, expect, it } from 'vitest'
import { normalizeAdapter } from '../../conformance/adapters/adapter.js'
import { checkRun } from '../../conformance/checkers/index.js'
import m01 from '../../conformance/mutants/m01-setup-after-publish.js'
import { validateProgram } from '../../sim/program/program.js'
import type { Program } from '../../sim/program/program.js'
import { runProgram } from '../../sim/run.js'
import { guidedReplay, replay } from '../../sim/strategies/index.js'
import { strategyForSeed } from './seed-strategy.js'
import { programForSeed } from './draw.js'
import { programCandidates, shrinkRun } from './shrink.js'

const mutant = normalizeAdapter(m01, 'm01').installFactory
const KEY = 'AGENT-SETUP-CONTRACT 36'

describe('shrinking', () => {
  it('keeps the same clause while dropping actors, operations, behaviours and decisions; the result replays strictly', async () => {
    // The first campaign run seed whose program (of several operations) trips M01: robust to generator changes.
    let found: { program: Program; original: Awaited<ReturnType<typeof runProgram>> } | undefined
    for (let r = 1; r < 40 && !found; r++) {
      const candidate = programForSeed(r)
      if (candidate.actors.reduce((n, a) => n + a.ops.length, 0) < 2) continue
      const strategy = strategyForSeed('portfolio', r)
      strategy.beginRun()
      const run = await runProgram(candidate, strategy, { install: mutant })
      if (checkRun(candidate, run.trace, run.outcome).some((v) => v.key === KEY)) found = { program: candidate, original: run }
    }
    expect(found, `no run seed below 40 trips ${KEY}`).toBeDefined()
    const { program, original } = found!

    const shrunk = await shrinkRun({ program, decisions: original.decisions, key: KEY, install: mutant })
    expect(shrunk.reproduced).toBe(true)
    expect(shrunk.violation?.key).toBe(KEY)
    expect(shrunk.after.actors).toBe(1)
    expect(shrunk.after.operations).toBe(1)
    expect(shrunk.after.behaviours).toBe(0)
    expect(shrunk.before.operations).toBeGreaterThan(shrunk.after.operations)
    expect(shrunk.before.decisions).toBeGreaterThan(shrunk.after.decisions)
    expect(shrunk.program.actors[0]!.ops[0]).toMatchObject({ op: 'create' })

    const strict = replay(shrunk.result.decisions)
    strict.beginRun()
    const again = await runProgram(shrunk.program, strict, { install: mutant })
    expect(again.hash).toBe(shrunk.result.hash)
    expect(checkRun(shrunk.program, again.trace, again.outcome).map((v) => v.key)).toContain(KEY)

    // Determinism: shrinking twice gives the same run.
    const twice = await shrinkRun({ program, decisions: original.decisions, key: KEY, install: mutant })
    expect(twice.result.hash).toBe(shrunk.result.hash)
  })

  it('drops every preemption the violation does not need', async () => {
    // Two creates with two-step setups: M01 publishes before setup, so the violation needs no
    // interleaving at all, and every preemption of a random schedule can go.
    const program: Program = {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 2 } }, { op: 'dispose', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'create', session: 's2', setup: { steps: 2 } }, { op: 'dispose', session: 's2' }] },
      ],
    }
    let found
    for (let seed = 0; seed < 50 && !found; seed++) {
      const s = strategyForSeed('random', seed)
      s.beginRun()
      const run = await runProgram(program, s, { install: mutant })
      const measured = guidedReplay(run.decisions)
      measured.beginRun()
      await runProgram(program, measured, { install: mutant })
      if (measured.steps.filter((x) => x.preemption).length >= 2) found = run
    }
    expect(found).toBeDefined()
    const shrunk = await shrinkRun({ program, decisions: found!.decisions, key: KEY, install: mutant })
    expect(shrunk.before.preemptions).toBeGreaterThanOrEqual(2)
    expect(shrunk.after.preemptions).toBe(0)
  })

  it('reports a failure that a guided replay does not reproduce as not shrunk, with the original run', async () => {
    const program = programForSeed(1)
    const strategy = strategyForSeed('portfolio', 1)
    strategy.beginRun()
    const original = await runProgram(program, strategy, { install: mutant })
    const shrunk = await shrinkRun({ program, decisions: original.decisions, key: 'AGENT-ATOMIC-TEST 64', install: mutant })
    expect(shrunk.reproduced).toBe(false)
    expect(shrunk.program).toBe(program)
    expect(shrunk.result.hash).toBe(original.hash)
  })

  it('candidates are valid programs, coarse edits first, each different from the program', () => {
    // An even seed draws from every feature at once (odd seeds draw a narrower swarm program).
    const program = programForSeed(8)
    const text = JSON.stringify(program)
    const candidates = [...programCandidates(program)]
    expect(candidates.length).toBeGreaterThan(10)
    for (const c of candidates) {
      validateProgram(c)
      expect(JSON.stringify(c)).not.toBe(text)
    }
    if (program.actors.length > 1) expect(candidates[0]!.actors.length).toBe(program.actors.length - 1)
    expect(new Set(candidates.map((c) => JSON.stringify(c))).size).toBe(candidates.length)
  })
})
