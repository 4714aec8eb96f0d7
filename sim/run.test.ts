import { describe, expect, it } from 'vitest'
import { PROBE_PROGRAM } from './determinism-probe.js'
import { Scheduler } from './engine/index.js'
import type { OpHandle, RunOutcome } from './engine/index.js'
import { OperationTracker } from './engine/operations.js'
import type { RunDriver } from './world/ports.js'
import type { Program } from './program/program.js'
import { runProgram, runProgramWith } from './run.js'
import { random } from './strategies/index.js'
import { traceHash } from './trace/trace.js'

/** A driver that lets points through first-in-first-out, one per macrotask turn, and records them. */
class FifoDriver implements RunDriver {
  readonly labels: string[] = []
  readonly #pending: { label: string; resolve: () => void }[] = []
  readonly #ops = new OperationTracker()

  get decisionCount(): number { return this.labels.length }
  point(label: string): Promise<void> {
    return new Promise((resolve) => this.#pending.push({ label, resolve }))
  }
  block(): Promise<never> { return new Promise(() => {}) }
  beginOp(actor: string, description: string): OpHandle { return this.#ops.begin(actor, description) }
  random(): number { return 0 }
  async run(main: () => Promise<void>): Promise<RunOutcome> {
    const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
    void main()
    await turn()
    for (let next = this.#pending.shift(); next; next = this.#pending.shift()) {
      this.labels.push(next.label)
      next.resolve()
      await turn()
    }
    const decisions = { v: 1 as const, strategy: 'fifo', decisions: this.labels.map((label) => ({ kind: 'pick' as const, label })) }
    return this.#ops.openCount > 0 ? { kind: 'deadlock', steps: this.labels.length, blocked: this.#ops.report(), decisions } : { kind: 'ok', steps: this.labels.length, decisions }
  }
}

const TWO_CREATES: Program = {
  v: 1,
  actors: [
    { id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 2 } }] },
    { id: 'a2', ops: [{ op: 'create', session: 's2', setup: { steps: 1 } }] },
  ],
}

describe('run: the driver seam', () => {
  it('runProgramWith runs the world on the driver it is given: its points, its decision count on trace entries', async () => {
    const driver = new FifoDriver()
    const result = await runProgramWith(TWO_CREATES, driver)
    expect(result.outcome.kind).toBe('ok')
    // FIFO: both operations' points first, then the setups' steps in the order they were reached.
    expect(driver.labels.slice(0, 2)).toEqual(['a1:create(s1)', 'a2:create(s2)'])
    expect(driver.labels).toContain('a1:create(s1)@setup.2')
    const outcomes = result.trace.entries.filter((e) => e.k === 'outcome')
    expect(outcomes.map((e) => e.k === 'outcome' && `${e.actor} ${e.status}`)).toEqual(expect.arrayContaining(['a1 ok', 'a2 ok']))
    // Entries are stamped with the driver's decision count, so the last outcome comes after the last decision.
    expect(Math.max(...outcomes.map((e) => e.d))).toBe(driver.labels.length)
  })

  it('runProgram is runProgramWith on the kit Scheduler: same seed, same trace hash', async () => {
    const a = random({ seed: 5 })
    a.beginRun()
    const b = random({ seed: 5 })
    b.beginRun()
    const viaDefault = await runProgram(PROBE_PROGRAM, a)
    const viaSeam = await runProgramWith(PROBE_PROGRAM, new Scheduler(b))
    expect(viaSeam.hash).toBe(viaDefault.hash)
    expect(viaSeam.decisions.decisions.length).toBeGreaterThan(5)
  })

  it('the lazily computed hash is the trace hash, and stable across reads', async () => {
    const s = random({ seed: 9 })
    s.beginRun()
    const result = await runProgram(PROBE_PROGRAM, s)
    expect(result.hash).toBe(traceHash(result.trace))
    expect(result.hash).toBe(result.hash)
    expect(JSON.parse(JSON.stringify({ hash: result.hash })).hash).toMatch(/^[0-9a-f]{16}$/)
  })
})
