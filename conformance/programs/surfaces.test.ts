/**
 * The surfaces of the contract and the process port a program drives (sim/README.md "Every surface
 * a program drives"): gates that end a wait at a point the program chooses, gated loads, persistence
 * preparations and their release, flush, a process without persistence, pause. Each new check is
 * proven by a runtime it catches: a factory that drops a late preparation unreleased (§9 50), a
 * store whose flush rejects at the first failure (p24, §9 87).
 */
import { describe, expect, it } from 'vitest'
import type { AgentOptions, Session, SessionPreparation } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import { creationAbortReason, fiberDying, ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { OwnerContext } from '../../core/contract.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { ReferenceAgent } from '../../core/agent.js'
import { KIT_PROCESS_ADAPTER } from '../adapters/kit-process-adapter.js'
import { normalizeAdapter, REFERENCE_ADAPTER, referenceAdapter } from '../adapters/adapter.js'
import type { Adapter } from '../adapters/adapter.js'
import { strategyFor } from '../certify/certify.js'
import { planCertify } from '../certify/plan.js'
import { checkRun } from '../checkers/index.js'
import p24 from '../mutants/process/p24-store-flush-fails-fast.js'
import type { Operation, Program } from '../../sim/program/program.js'
import { runProgram } from '../../sim/run.js'
import { random } from '../../sim/strategies/index.js'
import type { TraceEntry } from '../../sim/trace/trace.js'
import { DIRECTED_PROGRAMS } from './directed-programs.js'
import { programCapabilities } from './program-capabilities.js'

async function run(program: Program, seed = 1, adapter: Adapter = REFERENCE_ADAPTER): Promise<{ entries: readonly TraceEntry[]; kind: string; keys: string[] }> {
  const strategy = random({ seed })
  strategy.beginRun()
  const result = await runProgram(program, strategy, { process: normalizeAdapter(adapter).processFactory })
  return { entries: result.trace.entries, kind: result.outcome.kind, keys: [...new Set(checkRun(program, result.trace, result.outcome).map((v) => v.key))] }
}

const marks = (entries: readonly TraceEntry[]): string[] => entries.flatMap((e) => (e.k === 'mark' ? [e.label] : []))
const outcomes = (entries: readonly TraceEntry[]): string[] => entries.flatMap((e) => (e.k === 'outcome' ? [`${e.what} ${e.status} ${e.detail}`] : []))
const one = (...ops: Operation[]): Program['actors'] => [{ id: 'a1', ops }]
const persisted = [{ id: 's1', events: [{ type: 'turn/start', data: { turn: 1 } }, { type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } }] }]

/** Violation keys of a directed program over `schedules` schedules. */
async function directed(name: string, adapter: Adapter, schedules = 24): Promise<{ keys: string[]; runs: (readonly TraceEntry[])[] }> {
  const program = DIRECTED_PROGRAMS.find((p) => p.name === name)!.program
  const keys = new Set<string>()
  const runs: (readonly TraceEntry[])[] = []
  for (let k = 0; k < schedules; k++) {
    const strategy = strategyFor(k, 0)
    strategy.beginRun()
    const result = await runProgram(program, strategy, { process: normalizeAdapter(adapter).processFactory })
    for (const v of checkRun(program, result.trace, result.outcome)) keys.add(`${v.key}: ${v.message}`)
    runs.push(result.trace.entries)
  }
  return { keys: [...keys].sort(), runs }
}

/** The reference factory, except that a preparation arriving after its resume gave up is dropped, never released. */
class LeakyFactory extends ReferenceFactory {
  protected override async loadPreparation(ownerCtx: OwnerContext, id: string, signal: AbortSignal | undefined): Promise<SessionPreparation> {
    const persistence = ownerCtx.services.persistence!
    if (fiberDying(ownerCtx.fiber)) throw new Error(ERRORS.inactiveContext)
    if (!this.active) throw new Error(ERRORS.loopInactive)
    if (signal?.aborted) throw creationAbortReason(id, signal.reason)
    const load = new AbortController()
    const abort = (reason: unknown): void => { if (!load.signal.aborted) load.abort(reason) }
    signal?.addEventListener('abort', () => abort(creationAbortReason(id, signal.reason)))
    this.factorySignal.signal.addEventListener('abort', () => abort(this.factorySignal.signal.reason))
    let settled = false
    const temporary = ownerCtx.effect(() => () => { if (!settled) abort(new Error(ERRORS.ownerDisposed(id))) }, `agentLoop.resume(${id})`)
    const aborted = new Promise<never>((_, reject) => { load.signal.addEventListener('abort', () => reject(load.signal.reason), { once: true }) })
    aborted.catch(() => undefined)
    const loading = new Promise<SessionPreparation>((resolve) => resolve(persistence.prepare(id, load.signal)))
    loading.catch(() => undefined)
    try {
      // BUG: the race lost, a preparation that arrives later is never released (§3.1 R3).
      return await Promise.race([loading, aborted])
    } finally {
      settled = true
      void temporary()
    }
  }

  protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
    return new ReferenceAgent(session, agentOptions, this.ctx)
  }
}

const leaky = referenceAdapter({ name: 'test:late-preparation-dropped', version: '0.1.0', supports: { queue: true } }, LeakyFactory)

describe('gates: an async wait that ends at a point the program chooses', () => {
  it('a wait action holds its dispatch until openGate; a second openGate is info; an unopened gate at a deadlock is the program\'s own hang', async () => {
    let waitedFirst = 0
    for (let seed = 1; seed <= 8; seed++) {
      const { entries, kind, keys } = await run({
        v: 1, actors: [
          { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'flush', session: 's1' }, { op: 'dispose', session: 's1' }] },
          { id: 'a2', ops: [{ op: 'pause' }, { op: 'pause' }, { op: 'openGate', gate: 'k1' }, { op: 'openGate', gate: 'k1' }] },
        ],
        env: { listeners: [{ event: 'session/flush', action: { do: 'wait', gate: 'k1' } }] },
      }, seed)
      expect(kind).toBe('ok')
      expect(keys).toEqual([])
      const labels = marks(entries)
      if (labels.indexOf('gate:k1 wait listener:session/flush') < labels.indexOf('gate:k1 open')) waitedFirst++
      const done = outcomes(entries)
      expect(done).toContain('flush(s1) ok true')
      expect(done).toContain('openGate(k1) info already open')
      const flushed = entries.findIndex((e) => e.k === 'outcome' && e.what === 'flush(s1)')
      const opened = entries.findIndex((e) => e.k === 'mark' && e.label === 'gate:k1 open')
      expect(flushed).toBeGreaterThan(opened)
    }
    expect(waitedFirst).toBeGreaterThan(0)
    // The same program whose opener never comes: a deadlock, and no violation.
    const stuck = await run({ v: 1, actors: one({ op: 'create', session: 's1' }, { op: 'flush', session: 's1' }, { op: 'openGate', gate: 'k1' }), env: { listeners: [{ event: 'session/flush', action: { do: 'wait', gate: 'k1' } }] } })
    expect(stuck.kind).toBe('deadlock')
    expect(stuck.keys).toEqual([])
  })

  it('a gated load finishes, or fails, once its gate opens; an owner unload while it waits rejects the resume promptly', async () => {
    const ok = await run({ v: 1, actors: [{ id: 'a1', ops: [{ op: 'resume', session: 's1' }] }, { id: 'a2', ops: [{ op: 'pause' }, { op: 'openGate', gate: 'k1' }] }], env: { persisted, loads: { s1: { load: 'ok', gate: 'k1' } } } })
    expect(outcomes(ok.entries)).toContain('resume(s1) ok ')
    expect(marks(ok.entries)).toEqual(expect.arrayContaining(['gate:k1 wait load:s1', 'gate:k1 open', 'load:s1@end']))
    const failed = await run({ v: 1, actors: [{ id: 'a1', ops: [{ op: 'resume', session: 's1' }] }, { id: 'a2', ops: [{ op: 'openGate', gate: 'k1' }] }], env: { persisted, loads: { s1: { load: 'fail', gate: 'k1' } } } })
    expect(outcomes(failed.entries)).toContain('resume(s1) fail persistence load of "s1" failed')
    expect(failed.keys).toEqual([])
    const unloaded = await run({ v: 1, actors: [{ id: 'a1', ops: [{ op: 'resume', session: 's1', owner: 'o1' }] }, { id: 'a2', ops: [{ op: 'pause' }, { op: 'unloadOwner', owner: 'o1' }, { op: 'openGate', gate: 'k1' }] }], env: { persisted, loads: { s1: { load: 'ok', gate: 'k1' } } } }, 3)
    expect(outcomes(unloaded.entries)).toContain('resume(s1) fail agent "s1" setup aborted: owner disposed during setup')
    expect(marks(unloaded.entries)).toContain('load:s1@aborted')
    expect(unloaded.keys).toEqual([])
  })
})

describe('persistence preparations and their release (§1.4, §3.1 R3)', () => {
  it('marks each preparation handed out, arrived and released; a late one is released once it arrives, and its release plays the program\'s operation', async () => {
    const late: string[][] = []
    for (let seed = 1; seed <= 12; seed++) {
      const { entries, keys } = await run({
        v: 1, actors: [
          { id: 'a1', ops: [{ op: 'resume', session: 's1', owner: 'o1' }] },
          { id: 'a2', ops: [{ op: 'pause' }, { op: 'unloadOwner', owner: 'o1' }, { op: 'openGate', gate: 'k1' }] },
        ],
        env: { persisted, preparations: { s1: { gate: 'k1', onRelease: { do: 'op', op: { op: 'pause' } } } } },
      }, seed)
      expect(keys).toEqual([])
      const labels = marks(entries).filter((m) => m.startsWith('prepare:') || m.startsWith('gate:'))
      if (labels.includes('prepare:s1#1 arrived')) expect(outcomes(entries)).toContain('pause from prepare:s1.release ok ')
      if (outcomes(entries).includes('resume(s1) fail agent "s1" setup aborted: owner disposed during setup') && labels.includes('prepare:s1#1 handed out')) late.push(labels)
    }
    // Some schedule unloads the owner while the preparation waits: it arrives later and is released.
    expect(late).toContainEqual(['prepare:s1#1 handed out', 'gate:k1 wait prepare:s1', 'gate:k1 open', 'prepare:s1#1 arrived', 'prepare:s1#1 released'])
  })

  it('§9 50: late-preparation-after-owner-unload is clean on the reference and the kit process, and catches a factory that drops a late preparation', async () => {
    for (const adapter of [REFERENCE_ADAPTER, KIT_PROCESS_ADAPTER]) {
      const { keys, runs } = await directed('late-preparation-after-owner-unload', adapter)
      expect(keys).toEqual([])
      // Some schedule lets the preparation arrive after the resume gave up.
      expect(runs.some((entries) => {
        const rejected = entries.findIndex((e) => e.k === 'outcome' && e.what === 'resume(s1)' && e.status === 'fail')
        return rejected >= 0 && entries.some((e) => e.k === 'mark' && e.label === 'prepare:s1#1 arrived' && e.i > rejected)
      })).toBe(true)
    }
    const { keys } = await directed('late-preparation-after-owner-unload', leaky)
    expect(keys.some((k) => k.startsWith('AGENT-CREATE-RESUME 50: "s1": persistence preparation #1 reached the factory and was never released'))).toBe(true)
  })
})

describe('flush (§1.3)', () => {
  it('§9 87: flush-racing-teardown is clean on the reference, and catches a store whose flush rejects before its other listeners settled (p24)', async () => {
    const clean = await directed('flush-racing-teardown', REFERENCE_ADAPTER)
    expect(clean.keys).toEqual([])
    const all = clean.runs.flatMap(outcomes)
    expect(all.some((o) => /^flush\(s1\) fail listener:session\/flush \(env\) threw$/.test(o))).toBe(true)
    expect(all.some((o) => o === 'flush(s1) ok true')).toBe(true)
    const caught = await directed('flush-racing-teardown', p24)
    expect(caught.keys.some((k) => k.startsWith('AGENT-REGISTRY-TEST 87: "s1": flush rejected while a session/flush listener still waited on gate "k1"'))).toBe(true)
  })

  it('a flush of a session no longer live is info; one whose listener throws fails with it', async () => {
    const { entries, keys } = await run({
      v: 1, actors: one({ op: 'create', session: 's1' }, { op: 'flush', session: 's1' }, { op: 'flush', session: 's1' }, { op: 'dispose', session: 's1' }, { op: 'flush', session: 's1' }),
      env: { listeners: [{ event: 'session/flush', action: { do: 'throw' } }] },
    })
    expect(keys).toEqual([])
    expect(outcomes(entries).filter((o) => o.startsWith('flush'))).toEqual([
      'flush(s1) fail listener:session/flush (env) threw', 'flush(s1) ok true', 'flush(s1) info not live',
    ])
  })
})

describe('a process without persistence (§1.4, §3.1 R1)', () => {
  it('resume rejects with the not-configured error; resume-without-persistence is clean on the reference', async () => {
    const { entries } = await run({ v: 1, actors: one({ op: 'resume', session: 's1' }, { op: 'create', session: 's1' }), env: { persistence: false, persisted } })
    expect(outcomes(entries)[0]).toBe(`resume(s1) fail ${ERRORS.noPersistence}`)
    expect((await directed('resume-without-persistence', REFERENCE_ADAPTER)).keys).toEqual([])
  })
})

describe('the surfaces\' directed programs and the capabilities they need', () => {
  it('the other surfaces\' directed programs are clean on the reference and the kit process', async () => {
    for (const adapter of [REFERENCE_ADAPTER, KIT_PROCESS_ADAPTER]) {
      for (const name of ['scope-cleanup-ends-at-a-chosen-point', 'loads-finish-or-fail-at-a-chosen-point', 'unload-and-abort-during-scope-minting', 'turn-hooks-held-at-a-chosen-point']) {
        expect((await directed(name, adapter)).keys, `${name} on ${adapter.name}`).toEqual([])
      }
    }
  })

  it('a process adapter without a capability does not run the programs that need it; their clauses keep the reason', () => {
    const need = (name: string): string[] => programCapabilities(DIRECTED_PROGRAMS.find((p) => p.name === name)!.program)
    expect(need('late-preparation-after-owner-unload')).toEqual(['preparations'])
    expect(need('resume-without-persistence')).toEqual(['noPersistence'])
    expect(need('crash-mid-turn-and-resume')).toEqual(['crash'])
    expect(need('flush-racing-teardown')).toEqual([])
    expect(need('unload-and-abort-during-scope-minting')).toEqual(['scopeMinting'])
    const bare = normalizeAdapter({ ...KIT_PROCESS_ADAPTER, supports: { warnings: true } })
    const plan = planCertify(bare, { only: [50, 87] })
    expect(plan.programs.map((p) => p.name)).not.toContain('late-preparation-after-owner-unload')
    expect(plan.programs.map((p) => p.name)).toContain('flush-racing-teardown')
    expect(plan.skipped.get(50)).toBe('needs capability preparations')
  })
})
