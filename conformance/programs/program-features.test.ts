import { describe, expect, it } from 'vitest'
import { normalizeAdapter } from '../adapters/adapter.js'
import a2 from '../mutants/a2-initiator-wrapper.js'
import m13 from '../mutants/m13-proxy-receiver.js'
import m32 from '../mutants/m32-dispose-is-stop-and-wait.js'
import type { InstallFactory } from '../../core/process.js'
import { describeOperation } from '../../sim/operations/operations.js'
import type { Operation, Program } from '../../sim/program/program.js'
import { ProgramError, validateProgram } from '../../sim/program/program.js'
import { runProgram } from '../../sim/run.js'
import { random } from '../../sim/strategies/index.js'
import type { TraceEntry } from '../../sim/trace/trace.js'

async function run(program: Program, install?: InstallFactory, seed = 1): Promise<{ entries: readonly TraceEntry[]; kind: string }> {
  const strategy = random({ seed })
  strategy.beginRun()
  const result = await runProgram(program, strategy, install ? { install } : {})
  return { entries: result.trace.entries, kind: result.outcome.kind }
}

const marks = (entries: readonly TraceEntry[]): string[] => entries.flatMap((e) => (e.k === 'mark' ? [e.label] : []))
const outcomes = (entries: readonly TraceEntry[]): string[] => entries.flatMap((e) => (e.k === 'outcome' ? [`${e.what} ${e.status} ${e.detail}`] : []))
const appends = (entries: readonly TraceEntry[], id: string): TraceEntry[] => entries.filter((e) => e.k === 'append' && e.id === id)
const one = (...ops: Operation[]): Program['actors'] => [{ id: 'a1', ops }]

describe('program format: new operations, action and environment behaviour', () => {
  it('validates them, naming the bad field', () => {
    validateProgram({ v: 1, actors: one({ op: 'remove', session: 's1', which: 'last' }, { op: 'register', session: 's1' }, { op: 'steer', session: 's1', mutate: true }) })
    validateProgram({ v: 1, actors: one({ op: 'create', session: 's1' }), env: { minting: [{ action: { do: 'block' }, times: 2 }], listeners: [{ event: 'agent/pre-step', action: { do: 'block' } }] } })
    const bad = (p: unknown): void => { expect(() => validateProgram(p)).toThrow(ProgramError) }
    expect(() => validateProgram({ v: 1, actors: one({ op: 'remove', session: 's1', which: 'middle' } as never) })).toThrow(/program\.actors\[0\]\.ops\[0\]\.which: expected one of first\|last/)
    expect(() => validateProgram({ v: 1, actors: one({ op: 'register' } as never) })).toThrow(/ops\[0\]\.session/)
    expect(() => validateProgram({ v: 1, actors: one({ op: 'followup', session: 's1', mutate: false } as never) })).toThrow(/ops\[0\]\.mutate: expected true or absent/)
    expect(() => validateProgram({ v: 1, actors: one({ op: 'create', session: 's1' }), env: { minting: {} } })).toThrow(/program\.env\.minting: expected an array/)
    expect(() => validateProgram({ v: 1, actors: one({ op: 'create', session: 's1' }), env: { minting: [{ action: { do: 'nap' } }] } })).toThrow(/program\.env\.minting\[0\]\.action: expected an action/)
    expect(() => validateProgram({ v: 1, actors: one({ op: 'create', session: 's1' }), env: { minting: [{ action: { do: 'op', op: { op: 'x' } } }] } })).toThrow(/env\.minting\[0\]\.action\.op\.op: unknown operation/)
    bad({ v: 1, actors: one({ op: 'create', session: 's1' }), env: { minting: [{ action: { do: 'block' }, times: 0 }] } })
    expect(describeOperation({ op: 'remove', session: 's1' })).toBe('remove(s1)')
    expect(describeOperation({ op: 'remove', session: 's1', which: 'last' })).toBe('remove(s1,last)')
    expect(describeOperation({ op: 'register', session: 's2' })).toBe('register(s2)')
  })

  it('block on an agent/pre-step listener rejects the step: no model call, the turn ends blocked', async () => {
    const { entries, kind } = await run({
      v: 1, actors: one({ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }),
      env: { listeners: [{ event: 'agent/pre-step', action: { do: 'block' } }] },
    })
    expect(kind).toBe('ok')
    expect(marks(entries)).toContain('env listener:agent/pre-step block')
    expect(marks(entries).some((m) => m.startsWith('model:s1:call'))).toBe(false)
    const types = appends(entries, 's1').map((e) => (e.k === 'append' ? e.type : ''))
    expect(types).not.toContain('step/start')
    const end = appends(entries, 's1').find((e) => e.k === 'append' && e.type === 'turn/end')
    expect(end?.k === 'append' && end.data).toEqual({ turn: 1, reason: { kind: 'blocked' } })
  })

  it('block anywhere else only marks', async () => {
    const { entries } = await run({
      v: 1, actors: one({ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }),
      env: { listeners: [{ event: 'agent/created', action: { do: 'block' } }], effects: [{ on: 'root', disposer: { do: 'block' } }] },
    })
    expect(marks(entries)).toContain('env listener:agent/created block')
    expect(appends(entries, 's1').some((e) => e.k === 'append' && e.type === 'assistant/message')).toBe(true)
  })

  it('remove takes the first or last pending message, and says when nothing is pending or the agent is not live', async () => {
    const { entries } = await run({
      v: 1,
      actors: one(
        { op: 'remove', session: 's1' },
        { op: 'create', session: 's1' }, { op: 'queue', session: 's1' }, { op: 'queue', session: 's1' }, { op: 'queue', session: 's1' },
        { op: 'remove', session: 's1', which: 'last' }, { op: 'remove', session: 's1' }, { op: 'remove', session: 's1' }, { op: 'remove', session: 's1' },
      ),
    })
    expect(outcomes(entries).filter((o) => o.startsWith('remove'))).toEqual([
      'remove(s1) info not live', 'remove(s1,last) ok m3', 'remove(s1) ok m1', 'remove(s1) ok m2', 'remove(s1) info nothing pending',
    ])
  })

  it('register holds the id with a stub: a create collides, inputs fail, dispose has no handle, nothing crashes; restart clears it', async () => {
    const { entries, kind } = await run({
      v: 1,
      actors: one(
        { op: 'register', session: 's1' }, { op: 'register', session: 's1' }, { op: 'create', session: 's1' }, { op: 'followup', session: 's1' },
        { op: 'cancel', session: 's1' }, { op: 'runMaintenance', session: 's1' }, { op: 'remove', session: 's1' }, { op: 'whenIdle', session: 's1' },
        { op: 'dispose', session: 's1' }, { op: 'create', session: 's2', parent: 's1' }, { op: 'restart' }, { op: 'create', session: 's1' },
      ),
    })
    expect(kind).toBe('ok')
    const stub = 'stub agent "s1" registered by the program'
    expect(outcomes(entries)).toEqual([
      'register(s1) ok ',
      'register(s1) fail agent "s1" is already registered',
      expect.stringMatching(/^create\(s1\) fail (agent "s1" is already registered|session "s1" already exists)/),
      `followup(s1) fail ${stub}`,
      `cancel(s1,user) fail ${stub}`,
      `runMaintenance(s1) fail ${stub}`,
      'remove(s1) info nothing pending',
      'whenIdle(s1) ok ',
      'dispose(s1) info no handle',
      `create(s2) fail ${stub}`,
      'restart ok ',
      'create(s1) ok ',
    ])
    const created = entries.find((e) => e.k === 'event' && e.name === 'agent/created')
    expect(created?.k === 'event' && created.snap.agents).toEqual(['s1'])
    expect(created?.k === 'event' && created.alias).toBeUndefined()
    expect(entries.some((e) => e.k === 'event' && e.name === 'agent/disposed' && e.id === 's1' && e.world === 0)).toBe(true)
  })

  it('mutate sends a mutable copy and changes it after the send: the durable record keeps the sent text', async () => {
    const { entries } = await run({
      v: 1, actors: one({ op: 'create', session: 's1' }, { op: 'followup', session: 's1', text: 'hello', mutate: true }, { op: 'whenIdle', session: 's1' }),
    })
    expect(outcomes(entries)).toContain('followup(s1) ok m1')
    const user = appends(entries, 's1').find((e) => e.k === 'append' && e.type === 'user/message')
    expect(user?.k === 'append' && user.data).toMatchObject({ id: 'm1', content: [{ type: 'text', text: 'hello' }] })
    expect(JSON.stringify(entries)).not.toContain('mutated after send')
  })

  it('minting plays its behaviours inside agent scope minting only, at most `times` times', async () => {
    const { entries } = await run({
      v: 1,
      actors: one({ op: 'create', session: 's1', owner: 'o1' }, { op: 'create', session: 's2', owner: 'o2' }, { op: 'create', session: 's3', owner: 'o2' }),
      env: { minting: [{ action: { do: 'op', op: { op: 'unloadOwner', owner: 'o1' } } }, { action: { do: 'block' }, times: 2 }] },
    })
    expect(marks(entries).filter((m) => m.startsWith('minting'))).toEqual(['minting scope:s1 op', 'minting scope:s1 block', 'minting scope:s2 block'])
    expect(outcomes(entries)).toEqual([
      'create(s1) fail agent "s1" setup aborted: owner disposed during setup',
      'create(s2) ok ',
      'create(s3) ok ',
      'unloadOwner(o1) from minting ok ',
    ])
  })

  it('marks a resume of a persisted session with its length, at the invoke and again after its load', async () => {
    const { entries } = await run({
      v: 1, actors: one({ op: 'resume', session: 's1' }, { op: 'resume', session: 's9' }),
      env: { persisted: [{ id: 's1', events: [{ type: 'note', data: 1 }, { type: 'note', data: 2 }] }] },
    })
    const invoked = entries.findIndex((e) => e.k === 'invoke' && e.what === 'resume(s1)')
    expect(entries[invoked + 1]).toMatchObject({ k: 'mark', label: 'resume:s1 persisted=2', tx: 't1', id: 's1' })
    const loaded = entries.findIndex((e) => e.k === 'mark' && e.label === 'load:s1@end')
    expect(entries[loaded + 1]).toMatchObject({ k: 'mark', label: 'resume:s1 persisted=2', id: 's1' })
    expect(marks(entries).filter((m) => m.includes('persisted='))).toHaveLength(2)
  })

  it('a hang aborted by a cancel marks the initiator seen while aborting', async () => {
    let seen = 0
    for (let seed = 0; seed < 5; seed++) {
      const { entries } = await run({
        v: 1, actors: one({ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }), env: { model: { s1: [{ reply: 'hang' }] } },
      }, undefined, seed)
      // The actor's whenIdle never resolves (a deadlock), so the block is released when the run ends: no mark.
      expect(marks(entries).filter((m) => m.includes('aborting'))).toEqual([])
    }
    const pad: Operation[] = Array.from({ length: 12 }, () => ({ op: 'pause' }))
    for (let seed = 0; seed < 10; seed++) {
      const { entries } = await run({
        v: 1, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }] }, { id: 'a2', ops: [...pad, { op: 'cancel', session: 's1' }] }],
        env: { model: { s1: [{ reply: 'hang' }] } },
      }, undefined, seed)
      // When the cancel lands before the call reached its hang, the call throws at its first check: no mark.
      const aborting = entries.filter((e) => e.k === 'mark' && e.label.includes('aborting'))
      seen += aborting.length
      for (const e of aborting) expect(e).toMatchObject({ label: 'model:s1:call1 aborting initiator=s1', id: 's1' })
    }
    expect(seen).toBeGreaterThan(0)
  })

  describe('observations a buggy factory trips and the reference does not', () => {
    const program: Program = {
      v: 1,
      actors: one({ op: 'create', session: 's1', setup: { steps: 1 } }, { op: 'followup', session: 's1' }, { op: 'dispose', session: 's1' }),
      env: { model: { s1: [{ reply: 'delay', ms: 5 }] } },
    }
    const observations = (entries: readonly TraceEntry[]): string[] => [
      ...marks(entries).filter((m) => /withInitiator|keeps|aborting/.test(m)),
      ...entries.flatMap((e) => (e.k === 'event' && e.alias ? [`alias ${e.name}`] : [])),
    ]

    it('the reference records none of them', async () => {
      for (let seed = 0; seed < 10; seed++) expect(observations((await run(program, undefined, seed)).entries)).toEqual([])
    })

    it('setup probe: withInitiator returning a wrapper (A2)', async () => {
      const { entries } = await run(program, normalizeAdapter(a2).installFactory)
      expect(observations(entries)).toEqual(['a1:create(s1) withInitiator returned another object'])
    })

    it('alias: agent/session-start with a proxy of the agent (M13)', async () => {
      const { entries } = await run(program, normalizeAdapter(m13).installFactory)
      expect(observations(entries)).toEqual(['alias agent/session-start'])
    })

    it('owner keeps the lifecycle effect after dispose resolved (M32)', async () => {
      const { entries } = await run(program, normalizeAdapter(m32).installFactory)
      expect(observations(entries)).toEqual(['owner a1 keeps 1 agentLoop.lifecycle(s1) after dispose'])
    })
  })
})
