import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Program } from '../../sim/program/program.js'
import { validateProgram } from '../../sim/program/program.js'
import { createRng } from '../../sim/streams.js'
import { coverageOf, mergeCoverage, programArbitrary } from '../arbitraries/index.js'
import { drawForSeed } from '../campaign/draw.js'
import { MUTATIONS, mutateProgram, operationSlots, REENTRANT_EVENTS } from './mutate.js'
import type { MutationName } from './mutate.js'

const parents: Program[] = Array.from({ length: 120 }, (_, r) => drawForSeed(r, {}, []).program)

describe('mutateProgram', () => {
  it('always yields a valid program, leaves the parent unchanged, and applies every operator somewhere', () => {
    const applied = new Set<MutationName>()
    for (const [i, parent] of parents.entries()) {
      const before = JSON.stringify(parent)
      for (let k = 0; k < 4; k++) {
        const { program, mutations } = mutateProgram(parent, createRng(i, `m${k}`), { donors: [parents[(i + 1) % parents.length]!] })
        expect(() => validateProgram(program)).not.toThrow()
        mutations.forEach((m) => applied.add(m))
      }
      expect(JSON.stringify(parent)).toBe(before)
    }
    expect([...applied].sort()).toEqual(Object.keys(MUTATIONS).sort())
  })

  it('never writes into its parent or its donors, even nested pieces (a worker keeps them loaded for later mutants)', () => {
    const freeze = <T>(value: T): T => {
      if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
        Object.freeze(value)
        for (const v of Object.values(value)) freeze(v)
      }
      return value
    }
    const frozen = parents.map((p) => freeze(structuredClone(p)))
    let pool = frozen
    for (let i = 0; i < 600; i++) {
      const parent = pool[i % pool.length]!
      const donors = [pool[(i * 7 + 1) % pool.length]!, pool[(i * 13 + 2) % pool.length]!, pool[(i * 17 + 3) % pool.length]!]
      // A write into a frozen object throws (modules are strict code).
      const { program } = mutateProgram(parent, createRng(i, 'frozen'), { donors })
      if (i % 2 === 0) pool = pool.with(i % pool.length, freeze(structuredClone(program)))
    }
    expect(pool).not.toBe(frozen)
  })

  it('takes donors given as functions, calls one only when it splices from it, and makes the same mutant as with the programs', () => {
    let calls = 0
    let splices = 0
    for (const [i, parent] of parents.entries()) {
      const donors = [parents[(i + 1) % parents.length]!, parents[(i + 2) % parents.length]!]
      const lazy = donors.map((d) => () => { calls++; return d })
      const eager = mutateProgram(parent, createRng(i, 'lazy'), { donors })
      const made = mutateProgram(parent, createRng(i, 'lazy'), { donors: lazy })
      expect(made).toEqual(eager)
      splices += eager.mutations.filter((m) => m === 'splice').length
    }
    expect(calls).toBeGreaterThan(0)
    expect(calls).toBeLessThan(parents.length)
    expect(splices).toBeGreaterThan(0)
  })

  it('is a function of the parent and the stream: the same seed gives the same mutant, another seed another', () => {
    const parent = parents[7]!
    const a = mutateProgram(parent, createRng(1, 'x'), { donors: [parents[8]!] })
    const b = mutateProgram(parent, createRng(1, 'x'), { donors: [parents[8]!] })
    expect(b).toEqual(a)
    const others = new Set(Array.from({ length: 10 }, (_, s) => JSON.stringify(mutateProgram(parent, createRng(s + 2, 'x')).program)))
    expect(others.size).toBeGreaterThan(5)
  })

  it('keeps to the campaign options: no operation kind it excludes ever appears', () => {
    const operations = ['create', 'followup', 'dispose', 'cancel'] as const
    const allowed = fc.sample(programArbitrary({ operations: [...operations] }), { seed: 5, numRuns: 40 })
    for (const [i, parent] of allowed.entries()) {
      const { program } = mutateProgram(parent, createRng(i, 'ops'), { arbitrary: { operations: [...operations] }, count: 4 })
      // (a pause stands in for an operation left naming an id nothing creates: resolveReferences)
      for (const slot of operationSlots(program)) expect([...operations, 'pause']).toContain(slot.get().op)
    }
  })

  it('reaches every surface of the process port from programs that have none: flush, gates, gated loads, preparations, no persistence, sends through a kept handle', () => {
    const bare: Program = { v: 1, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'resume', session: 's1' }] }] }
    const total: Record<string, number> = {}
    // Mutants of mutants, as a guided campaign's corpus stacks them: a gate survives once both its
    // wait and its openGate were added.
    for (let i = 0; i < 150; i++) {
      let program = bare
      for (let generation = 0; generation < 6; generation++) {
        program = mutateProgram(program, createRng(i, `surfaces${generation}`), { count: 4 }).program
        expect(() => validateProgram(program)).not.toThrow()
        mergeCoverage(total, coverageOf(program))
      }
    }
    const wanted = ['op:flush', 'op:openGate', 'load:gate', 'preparation', 'preparation:gate', 'preparation:release', 'persistence:off', 'input:handle']
    expect(wanted.filter((k) => !(total[k]! > 0))).toEqual([])
    expect(Object.keys(total).some((k) => /^(listener|effect):.*:wait$/.test(k))).toBe(true)
  })

  it('favours reentrant shapes: moving an operation into a listener of a publication, teardown or inbox event', () => {
    let reentrant = 0
    for (const [i, parent] of parents.entries()) {
      const { program, mutations } = mutateProgram(parent, createRng(i, 'reentrant'), { count: 1 })
      if (mutations[0] !== 'moveIntoListener') continue
      const listeners = [...(program.env?.listeners ?? []), ...operationSlots(program).flatMap((s) => {
        const op = s.get()
        return op.op === 'create' || op.op === 'resume' ? op.setup?.listeners ?? [] : []
      })]
      expect(listeners.some((l) => l.action.do === 'op' && REENTRANT_EVENTS.includes(l.event))).toBe(true)
      reentrant++
    }
    // Its weight is the largest: about one mutation in six.
    expect(reentrant).toBeGreaterThan(parents.length / 10)
  })
})
