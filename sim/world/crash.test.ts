import { describe, expect, it } from 'vitest'
import { installReferenceFactory } from '../../core/factory/reference-factory.js'
import { kitProcess } from '../../core/process.js'
import type { ProcessFactory } from '../../core/process.js'
import { describeOperation } from '../operations/operations.js'
import type { Operation, Program } from '../program/program.js'
import { validateProgram } from '../program/program.js'
import { runProgram } from '../run.js'
import { random } from '../strategies/index.js'
import type { TraceEntry } from '../trace/trace.js'

async function run(program: Program, options: { process?: ProcessFactory; seed?: number } = {}): Promise<{ entries: readonly TraceEntry[]; kind: string }> {
  const strategy = random({ seed: options.seed ?? 1 })
  strategy.beginRun()
  const result = await runProgram(program, strategy, options.process ? { process: options.process } : {})
  return { entries: result.trace.entries, kind: result.outcome.kind }
}

const outcomes = (entries: readonly TraceEntry[]): string[] => entries.flatMap((e) => (e.k === 'outcome' ? [`${e.actor} ${e.what} ${e.status} ${e.detail}`] : []))
const crashAt = (entries: readonly TraceEntry[]): number => entries.findIndex((e) => e.k === 'invoke' && e.spec.op === 'crash')

/** A turn that hangs in the model, with a steer and an inject accepted during it, then a crash and a resume. */
const midTurn = (after: Operation[] = []): Program => ({
  v: 1,
  actors: [
    { id: 'a1', ops: [
      { op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'steer', session: 's1' }, { op: 'inject', session: 's1' },
      { op: 'crash' }, { op: 'resume', session: 's1' }, ...after,
    ] },
  ],
  env: { model: { s1: [{ reply: 'hang' }] } },
})

describe('the crash operation', () => {
  it('validates, prints and describes', () => {
    validateProgram({ v: 1, actors: [{ id: 'a1', ops: [{ op: 'crash' }] }] })
    expect(describeOperation({ op: 'crash' })).toBe('crash')
  })

  it('kills the process mid-turn without teardown: no disposal edge, no turn/end; the resume restores the durable log and the inbox it implies', async () => {
    const { entries, kind } = await run(midTurn([{ op: 'whenIdle', session: 's1' }, { op: 'dispose', session: 's1' }]))
    expect(kind).toBe('ok')
    const at = crashAt(entries)
    expect(at).toBeGreaterThan(0)
    const dead = entries.filter((e) => 'world' in e && e.world === 0)
    expect(dead.some((e) => e.k === 'event' && (e.name === 'agent/disposed' || e.name === 'session/disposed'))).toBe(false)
    const written = dead.flatMap((e) => (e.k === 'append' && e.id === 's1' ? [{ type: e.type, seq: e.seq }] : []))
    expect(written.map((e) => e.type)).toContain('turn/start')
    expect(written.map((e) => e.type)).not.toContain('turn/end')
    // The final state of the dead process is recorded at the crash: both entries still registered.
    const final = entries.find((e) => e.k === 'final' && e.world === 0)
    expect(final?.k === 'final' && final.snap).toEqual({ agents: ['s1'], sessions: ['s1'] })
    const resumed = entries.find((e) => e.k === 'resumed' && e.world === 1)
    expect(resumed?.k === 'resumed' && resumed.events.map((e) => ({ type: e.type, seq: e.seq }))).toEqual([...written, { type: 'session/end-seed', seq: written.length }])
    // The steer and the inject were accepted during the interrupted turn: both come back pending.
    expect(resumed?.k === 'resumed' && resumed.inbox).toEqual({ nextTurn: [], nextStep: ['m2', 'm3'] })
    expect(outcomes(entries)).toContain('a1 crash ok ')
  })

  it('nothing of the dead process runs on: no entry of its world after the crash, and its timers reach nothing', async () => {
    const program: Program = {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'crash' }, { op: 'resume', session: 's1' }] },
      ],
      env: {
        model: { s1: [{ reply: 'delay', ms: 50 }] },
        listeners: [{ event: 'session/event', session: 's1', eventType: 'assistant/message', action: { do: 'op', op: { op: 'create', session: 's9' } } }],
      },
    }
    for (let seed = 1; seed <= 20; seed++) {
      const { entries, kind } = await run(program, { seed })
      expect(kind).toBe('ok')
      const at = crashAt(entries)
      const crashed = entries.slice(at + 1).filter((e) => 'world' in e && e.world === 0 && e.k !== 'final' && !(e.k === 'outcome' && e.what === 'crash'))
      expect(crashed, `seed ${seed}`).toEqual([])
      // The listener of the dead process never acted on the new one.
      expect(entries.slice(at).some((e) => e.k === 'invoke' && e.what.startsWith('create(s9)') && e.world === 1), `seed ${seed}`).toBe(false)
    }
  })

  it('a crash from a listener of the dying process: nothing of its synchronous tail is recorded, and the operation whose dispatch it was ends unrecorded', async () => {
    // Both found by a reference campaign (seed 11) as false positives before the dead process's waits,
    // model calls and warnings were tied to its own generation.
    const status: Program = {
      v: 1, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'steer', session: 's1' }] }],
      env: { listeners: [{ event: 'agent/status', action: { do: 'op', op: { op: 'crash' } } }] },
    }
    const step: Program = {
      v: 1, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's2' }, { op: 'followup', session: 's2' }] }],
      env: { listeners: [{ event: 'session/event', eventType: 'step/start', action: { do: 'op', op: { op: 'crash' } } }] },
    }
    for (const [program, input] of [[status, 'steer(s1)'], [step, 'followup(s2)']] as const) {
      for (let seed = 1; seed <= 10; seed++) {
        const { entries, kind } = await run(program, { seed })
        expect(kind).toBe('ok')
        const at = crashAt(entries)
        expect(at, `seed ${seed}`).toBeGreaterThan(0)
        const late = entries.slice(at + 1).filter((e) => e.k !== 'final' && !(e.k === 'outcome' && e.what.startsWith('crash')))
        expect(late, `seed ${seed}`).toEqual([])
        if (program === status) expect(entries.some((e) => e.k === 'outcome' && e.what === input), `seed ${seed}`).toBe(false)
      }
    }
  })

  it('an operation in flight in the crashing process ends with it, unrecorded, and its actor goes on in the new process', async () => {
    const program: Program = {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'crash' }] },
        { id: 'a2', ops: [{ op: 'whenIdle', session: 's1' }, { op: 'create', session: 's2' }] },
      ],
      env: { model: { s1: [{ reply: 'hang' }] } },
    }
    let seen = false
    for (let seed = 1; seed <= 30 && !seen; seed++) {
      const { entries, kind } = await run(program, { seed })
      expect(kind).toBe('ok')
      const waited = entries.find((e) => e.k === 'invoke' && e.actor === 'a2' && e.what === 'whenIdle(s1)')
      const running = entries.find((e) => e.k === 'outcome' && e.what === 'followup(s1)')
      // A whenIdle on the hanging agent, invoked while it ran and before the crash, never settles.
      if (!waited || !running || waited.i < running.i || waited.i > crashAt(entries)) continue
      seen = true
      expect(entries.some((e) => e.k === 'outcome' && e.actor === 'a2' && e.what === 'whenIdle(s1)')).toBe(false)
      expect(outcomes(entries)).toContain('a2 create(s2) ok ')
      expect(entries.find((e) => e.k === 'outcome' && e.what === 'create(s2)')?.world).toBe(1)
    }
    expect(seen).toBe(true)
  })

  it('a process without crash() skips the operation as info and keeps running', async () => {
    const base = kitProcess((ctx) => installReferenceFactory(ctx))
    const noCrash: ProcessFactory = async (services) => {
      const { crash: _crash, ...handle } = await base(services)
      return handle
    }
    const { entries, kind } = await run(midTurn(), { process: noCrash })
    expect(kind).toBe('ok')
    expect(outcomes(entries)).toContain('a1 crash info crash not supported')
    expect(outcomes(entries).find((o) => o.startsWith('a1 resume(s1)'))).toMatch(/fail .*already exists/)
    expect(entries.some((e) => 'world' in e && e.world === 1)).toBe(false)
  })
})
