/**
 * The trace's facts (`sim/trace/trace.ts`, `Fact`) are recorded beside the entries and change none
 * of them: a run with facts records exactly the entries (the hash) of the same run without, on the
 * reference and on the from-scratch example, over the directed programs and random programs. And each
 * kind of fact is recorded where the world knows it.
 */
import { describe, expect, it } from 'vitest'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../adapters/adapter.js'
import type { Adapter } from '../adapters/adapter.js'
import { DIRECTED_PROGRAMS } from '../programs/directed-programs.js'
import { randomProgram } from '../programs/random-programs.js'
import { runProgram } from '../../sim/run.js'
import type { Program } from '../../sim/program/program.js'
import { pct, random } from '../../sim/strategies/index.js'
import type { Fact } from '../../sim/trace/trace.js'
import { loadAdapter } from '../adapters/adapter-loader.js'

// Loaded as a user names it (`--adapter`): the example reaches the kit only by its package name.
const fromScratch = await loadAdapter('examples/from-scratch-factory/adapter.ts')

async function hashes(adapter: Adapter, program: Program, seed: number): Promise<{ on: string; off: string; facts: readonly Fact[] }> {
  const process = normalizeAdapter(adapter, adapter.name).processFactory
  const run = async (facts: boolean) => {
    const strategy = seed % 2 === 0 ? random({ seed }) : pct({ seed, depth: 1 + (seed % 3) })
    strategy.beginRun()
    return runProgram(program, strategy, { process, facts })
  }
  const on = await run(true)
  const off = await run(false)
  expect(off.trace.facts).toBeUndefined()
  return { on: on.hash, off: off.hash, facts: on.trace.facts ?? [] }
}

describe('trace facts', () => {
  for (const [name, adapter] of [['the reference', REFERENCE_ADAPTER], ['the from-scratch example', fromScratch]] as const) {
    it(`record the same entries as a run without them (${name}, directed programs)`, async () => {
      for (const [k, p] of DIRECTED_PROGRAMS.entries()) {
        if (adapter !== REFERENCE_ADAPTER && JSON.stringify(p.program).includes('"crash"')) continue
        const { on, off } = await hashes(adapter, p.program, 7 + k)
        expect(on, p.name).toBe(off)
      }
    }, 120_000)

    it(`record the same entries as a run without them (${name}, random programs)`, async () => {
      for (let seed = 0; seed < 60; seed++) {
        const program = randomProgram(seed)
        if (adapter !== REFERENCE_ADAPTER && JSON.stringify(program).includes('"crash"')) continue
        const { on, off } = await hashes(adapter, program, seed)
        expect(on, `random program ${seed}`).toBe(off)
      }
    }, 120_000)
  }

  it('record every kind where the world knows it', async () => {
    const kinds = new Set<string>()
    for (const [k, p] of DIRECTED_PROGRAMS.entries()) {
      for (const f of (await hashes(REFERENCE_ADAPTER, p.program, k)).facts) kinds.add(f.k)
    }
    for (let seed = 0; seed < 60 && kinds.size < 8; seed++) for (const f of (await hashes(REFERENCE_ADAPTER, randomProgram(seed), seed)).facts) kinds.add(f.k)
    expect([...kinds].sort()).toEqual(['abort', 'fault', 'from', 'hang', 'own', 'subject', 'sync', 'tail'])
  }, 120_000)

  it('a sync span holds what the operation recorded synchronously, and an inline operation names its dispatch', async () => {
    const program: Program = {
      v: 1,
      env: { listeners: [{ event: 'agent/created', action: { do: 'op', op: { op: 'followup', session: 's1' } } }] },
      actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'cancel', session: 's1' }] }],
    }
    const strategy = random({ seed: 1 })
    strategy.beginRun()
    const { trace } = await runProgram(program, strategy, { process: normalizeAdapter(REFERENCE_ADAPTER, 'reference').processFactory })
    const facts = trace.facts ?? []
    const entries = trace.entries
    const followup = entries.find((e) => e.k === 'invoke' && e.spec.op === 'followup')!
    const from = facts.find((f) => f.k === 'from' && f.op === followup.i)!
    const dispatch = entries[from.ref]!
    expect(dispatch.k === 'event' && dispatch.name).toBe('agent/created')
    // The followup's inserted event and its splice lie in its own synchronous span.
    const span = facts.find((f) => f.k === 'sync' && f.op === followup.i)!
    const inserted = entries.find((e) => e.k === 'event' && e.name === 'agent/inbox/inserted')!
    expect(inserted.i).toBeGreaterThanOrEqual(span.ref)
    expect(inserted.i).toBeLessThan(span.at)
  })
})
