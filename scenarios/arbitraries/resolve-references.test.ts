/**
 * Generated pieces dropped into a program name whatever they like; `resolveReferences` (what the
 * generators and the mutator apply) must always turn that into a program `validateProgram` accepts.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { validateProgram, validateProgramShape } from '../../sim/program/program.js'
import { danglingReferences, hasDanglingReferences } from '../../sim/program/references.js'
import { resolveReferences } from '../../sim/program/resolve-references.js'
import { actor, create, program } from '../../sim/program/build.js'
import { listenerArbitrary, operationArbitrary, setupArbitrary } from './index.js'

describe('resolveReferences over generated pieces', () => {
  it('turns any well formed program into one that validates, leaves a valid one as it is, and is idempotent (300 runs)', () => {
    fc.assert(fc.property(fc.array(operationArbitrary(), { minLength: 1, maxLength: 4 }), fc.array(operationArbitrary(), { minLength: 1, maxLength: 3 }), setupArbitrary(), listenerArbitrary(), (ops1, ops2, s, l) => {
      const p = program([actor('a1', ...ops1, create('s2', { setup: s })), actor('a2', ...ops2)], { listeners: [l], model: { s3: [{ reply: 'hang' }] }, loads: { s1: { load: 'fail' } } })
      validateProgramShape(p)
      const resolved = resolveReferences(p)
      validateProgram(resolved)
      expect(resolveReferences(resolved)).toBe(resolved)
      // Actors keep their length: an operation naming nothing becomes a pause.
      expect(resolved.actors.map((a) => a.ops.length)).toEqual(p.actors.map((a) => a.ops.length))
    }), { numRuns: 300, seed: 29 })
  })

  it('hasDanglingReferences says what danglingReferences finds, with or without dangling names (300 runs)', () => {
    fc.assert(fc.property(fc.array(operationArbitrary(), { minLength: 1, maxLength: 4 }), setupArbitrary(), listenerArbitrary(), (ops, s, l) => {
      const p = program([actor('a1', ...ops, create('s2', { setup: s }))], { listeners: [l], loads: { s1: { load: 'ok', gate: 'k1' } }, preparations: { s2: { gate: 'k2' } } })
      expect(hasDanglingReferences(p)).toBe(danglingReferences(p).length > 0)
      expect(hasDanglingReferences(resolveReferences(p))).toBe(false)
    }), { numRuns: 300, seed: 31 })
  })
})
