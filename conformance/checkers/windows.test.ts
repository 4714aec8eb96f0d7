/**
 * The operation windows the checkers share (`windows.ts`): computed once per analysis, and reading
 * the run as each checker used to read it alone.
 */
import { describe, expect, it } from 'vitest'
import { REFERENCE_ADAPTER, normalizeAdapter } from '../adapters/adapter.js'
import { DIRECTED_PROGRAMS } from '../programs/directed-programs.js'
import { randomProgram } from '../programs/random-programs.js'
import { runProgram } from '../../sim/run.js'
import type { Program } from '../../sim/program/program.js'
import { random } from '../../sim/strategies/index.js'
import type { TraceEntry } from '../../sim/trace/trace.js'
import { analyse } from './analysis.js'
import { invokeOfOutcome, windowsOf } from './windows.js'

type Entry<K extends TraceEntry['k']> = Extract<TraceEntry, { k: K }>

async function analysed(program: Program, seed: number) {
  const strategy = random({ seed })
  strategy.beginRun()
  const { trace } = await runProgram(program, strategy, { process: normalizeAdapter(REFERENCE_ADAPTER, 'reference').processFactory })
  return analyse(trace, program)
}

const programs = (): [string, Program][] => [
  ...DIRECTED_PROGRAMS.map((p): [string, Program] => [p.name, p.program]),
  ...Array.from({ length: 40 }, (_, seed): [string, Program] => [`random program ${seed}`, randomProgram(seed)]),
]

describe('invokeOfOutcome', () => {
  it('gives each outcome the run\'s last invoke of its world/actor/op, as a map of the run\'s invokes does', async () => {
    let outcomes = 0
    for (const [k, [name, program]] of programs().entries()) {
      const a = await analysed(program, k)
      // What the runtime and teardown checks each built for themselves before.
      const last = new Map<string, Entry<'invoke'>>()
      for (const e of a.entries) if (e.k === 'invoke') last.set(`${e.world}/${e.actor}/${e.op}`, e)
      for (const e of a.entries) {
        if (e.k !== 'outcome') continue
        outcomes++
        const invoke = invokeOfOutcome(a, e)
        expect(invoke, `${name}: outcome at ${e.i}`).toBe(last.get(`${e.world}/${e.actor}/${e.op}`))
        // Every outcome settles an operation the run invoked, before it.
        expect(invoke!.i, `${name}: outcome at ${e.i}`).toBeLessThan(e.i)
      }
    }
    expect(outcomes).toBeGreaterThan(500)
  }, 60_000)

  it('pairs the outcomes of the operation windows with the same invokes where no key repeats', async () => {
    let paired = 0
    for (const [k, [name, program]] of programs().entries()) {
      const a = await analysed(program, k)
      const keys = a.entries.filter((e) => e.k === 'invoke').map((e) => `${e.world}/${e.actor}/${e.op}`)
      if (new Set(keys).size !== keys.length) continue
      for (const w of windowsOf(a)) {
        if (!w.outcome) continue
        paired++
        expect(invokeOfOutcome(a, w.outcome), name).toBe(w.invoke)
      }
    }
    expect(paired).toBeGreaterThan(500)
  }, 60_000)
})
