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
