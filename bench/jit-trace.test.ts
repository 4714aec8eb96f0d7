/**
 * Reading V8's `--trace-opt --trace-deopt` text (`jit-trace.ts`), on lines as Node 20's V8 prints them.
 */
import { describe, expect, it } from 'vitest'
import { parseJitTrace } from './jit-trace.js'

const TRACE = [
  '[marking 0x25a2edbe2651 <JSFunction isPosixPathSeparator (sfi = 0x786871e6061)> for optimization to TURBOFAN, ConcurrencyMode::kConcurrent, reason: small function]',
  '[compiling method 0x25a2edbe2651 <JSFunction isPosixPathSeparator (sfi = 0x786871e6061)> (target TURBOFAN), mode: ConcurrencyMode::kConcurrent]',
  '[completed compiling 0x25a2edbe2651 <JSFunction isPosixPathSeparator (sfi = 0x786871e6061)> (target TURBOFAN) - took 0.012, 0.640, 0.007 ms]',
  '[completed optimizing 0x25a2edbe2651 <JSFunction isPosixPathSeparator (sfi = 0x786871e6061)> (target TURBOFAN)]',
  '[completed compiling 0x1363d3861ef9 <JSFunction get protocol (sfi = 0x786871e45d1)> (target TURBOFAN) - took 0.006, 0.910, 0.026 ms]',
  '[completed compiling 0x2ed5b21c4fc9 <JSFunction snapshot (sfi = 0x36418e684c59)> (target TURBOFAN) - took 0.100, 10.000, 0.900 ms]',
  '[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x2ed5b21c4fc9 <JSFunction snapshot (sfi = 0x36418e684c59)>, 0x2883a8107b91 <Code TURBOFAN>, opt id 31, bytecode offset 0, deopt exit 25, FP to SP delta 136, caller SP 0x7f3a83fb9be8, pc 0x7f3a4c246391]',
  '[completed compiling 0x2ed5b21c4fc9 <JSFunction snapshot (sfi = 0x36418e684c59)> (target TURBOFAN) - took 0.200, 4.000, 0.800 ms]',
  '[bailout (kind: deopt-lazy, reason: (unknown)): begin. deoptimizing 0x1fa10f62f379 <JSFunction generate (sfi = 0x3dfc8da72739)>, 0x042418ab17d9 <Code TURBOFAN>, opt id 167, bytecode offset 39, deopt exit 49, FP to SP delta 88, caller SP 0x7f3a83fb99d8, pc 0x7f3a4c2ec491]',
  '[completed compiling 0x3d50f61cb409 <JSFunction (sfi = 0xfdc14f5ff19)> (target TURBOFAN) OSR - took 0.008, 2.477, 0.029 ms]',
  'fuzzing dsh-lifecycle-kit reference@0.1.0: random programs, guided by state coverage',
].join('\n')

describe('parseJitTrace', () => {
  const f = parseJitTrace(TRACE)

  it('counts completed compiles per function (a name with a space, an anonymous one and OSR included)', () => {
    expect(f.compiles).toBe(5)
    expect(f.functions).toBe(4)
    expect(f.recompiled).toBe(1)
    expect(f.recompiles).toBe(1)
  })

  it('sums the compile time V8 reports, and the part after a function\'s first compile', () => {
    expect(f.compileMs).toBeCloseTo(0.659 + 0.942 + 11 + 5 + 2.514, 6)
    expect(f.recompileMs).toBeCloseTo(5, 6)
    expect(f.byRecompileMs).toEqual([{ name: 'snapshot', compiles: 2, ms: 16, recompileMs: 5 }])
  })

  it('counts deoptimizations by kind and by reason, a reason in parentheses included', () => {
    expect(f.deopts).toBe(2)
    expect(f.deoptsByKind).toEqual({ 'deopt-eager': 1, 'deopt-lazy': 1 })
    expect(f.deoptsByReason).toEqual({ 'wrong map': 1, '(unknown)': 1 })
  })

  it('reads nothing from text without traces', () => {
    expect(parseJitTrace('no traces here\n')).toMatchObject({ compiles: 0, functions: 0, deopts: 0, compileMs: 0, byRecompileMs: [] })
  })
})
