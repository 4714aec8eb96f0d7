/**
 * The program language reports print (`printProgram`) is exactly what the package's scenarios entry
 * exports: printed code evaluated with nothing but `dsh-lifecycle-kit/scenarios`'s exports in scope
 * (a name the entry does not export would throw) gives the same program back, for every named scenario, every directed program of the suite and
 * random programs of every feature. (`dsh-kit run` runs such code from a `.mjs` file: `cli/run.test.ts`.)
 */
import { deepStrictEqual } from 'node:assert/strict'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DIRECTED_PROGRAMS } from '../conformance/programs/directed-programs.js'
import type { Program } from '../sim/program/program.js'
import { printProgram } from '../sim/program/program-print.js'
import { programArbitrary } from './arbitraries/index.js'
import * as kit from './index.js'

/** Evaluate printed builder code with the scenarios entry's exports (and nothing else) in scope. */
function evaluate(code: string): Program {
  const names = Object.keys(kit)
  return new Function(...names, `'use strict'; return ${code}`)(...names.map((n) => (kit as Record<string, unknown>)[n])) as Program
}

describe('the program language: printProgram and the builders of dsh-lifecycle-kit/scenarios', () => {
  it('every named scenario prints to code that builds it again', () => {
    for (const s of kit.SCENARIOS) deepStrictEqual(evaluate(printProgram(s.program)), s.program, s.name)
  })

  it('every directed program of certify prints to code that builds it again', () => {
    for (const p of DIRECTED_PROGRAMS) deepStrictEqual(evaluate(printProgram(p.program)), p.program, p.name)
  })

  it('random programs of every feature print to code that builds them again (200 runs)', () => {
    fc.assert(fc.property(programArbitrary(), (p) => { deepStrictEqual(evaluate(printProgram(p)), p) }), { numRuns: 200, seed: 23 })
  })
})
