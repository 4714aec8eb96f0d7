import { describe, expect, it } from 'vitest'
import { describeOperation } from './operations.js'
import type { Operation, Program } from '../program/program.js'
import { ProgramError, validateProgram } from '../program/program.js'
import { printProgram } from '../program/program-print.js'
import { SPLIT_MARK } from './registry-split.js'
import { runProgram } from '../run.js'
import { random } from '../strategies/index.js'
import type { TraceEntry } from '../trace/trace.js'

async function run(program: Program): Promise<readonly TraceEntry[]> {
  const strategy = random({ seed: 1 })
  strategy.beginRun()
  return (await runProgram(program, strategy)).trace.entries
}

const one = (...ops: Operation[]): Program => ({ v: 1, actors: [{ id: 'a1', ops }] })
const outcomes = (entries: readonly TraceEntry[]): string[] => entries.flatMap((e) => (e.k === 'outcome' ? [`${e.what} ${e.status} ${e.detail}`] : []))
const events = (entries: readonly TraceEntry[], id: string): string[] => entries.flatMap((e) => (e.k === 'event' && e.id === id ? [e.name] : []))

describe('the registry-split operations (enter, announce, detach)', () => {
  it('validate, print and describe; a detach\'s stale is true or absent', () => {
    const program = one({ op: 'enter', session: 'x1' }, { op: 'announce', session: 'x1' }, { op: 'detach', session: 'x1' }, { op: 'detach', session: 'x1', stale: true })
    validateProgram(program)
    expect(printProgram(program)).toContain("enter('x1'), announce('x1'), detach('x1'), detach('x1', { stale: true })")
    expect(() => validateProgram(one({ op: 'detach', session: 'x1', stale: false } as never))).toThrow(ProgramError)
    expect(() => validateProgram(one({ op: 'announce' } as never))).toThrow(/ops\[0\]\.session/)
    expect(describeOperation({ op: 'detach', session: 'x1', stale: true })).toBe('detach(x1,stale)')
    expect(describeOperation({ op: 'enter', session: 'x1' })).toBe('enter(x1)')
  })

  it('on the reference each step does what §4 says, and nothing is marked', async () => {
    const entries = await run(one(
      { op: 'announce', session: 'x1' }, { op: 'enter', session: 'x1' }, { op: 'enter', session: 'x1' }, { op: 'announce', session: 'x1' },
      { op: 'announce', session: 'x1' }, { op: 'detach', session: 'x1' }, { op: 'detach', session: 'x1' }, { op: 'announce', session: 'x1' },
      { op: 'enter', session: 'x1' }, { op: 'detach', session: 'x1', stale: true }, { op: 'detach', session: 'x1' },
    ))
    expect(outcomes(entries)).toEqual([
      'announce(x1) info nothing entered',
      'enter(x1) ok entered',
      'enter(x1) ok rejected already registered',
      'announce(x1) ok announced',
      'announce(x1) ok rejected already announced',
      'detach(x1) ok detached',
      'detach(x1) ok again',
      'announce(x1) ok rejected not live',
      'enter(x1) ok entered',
      'detach(x1,stale) ok again',
      'detach(x1) ok detached silently',
    ])
    expect(events(entries, 'x1')).toEqual(['agent/created', 'agent/disposed'])
    expect(entries.some((e) => e.k === 'mark' && e.label.startsWith(SPLIT_MARK))).toBe(false)
  })

  it('a detach from the entry\'s own agent/created listener is deferred until the dispatch ended', async () => {
    const entries = await run({
      ...one({ op: 'enter', session: 'x1' }, { op: 'announce', session: 'x1' }),
      env: { listeners: [{ event: 'agent/created', session: 'x1', action: { do: 'op', op: { op: 'detach', session: 'x1' } } }] },
    })
    expect(outcomes(entries)).toEqual(['enter(x1) ok entered', 'detach(x1) from env ok deferred', 'announce(x1) ok announced, then detached'])
    expect(events(entries, 'x1')).toEqual(['agent/created', 'agent/disposed'])
    expect(entries.some((e) => e.k === 'mark' && e.label.startsWith(SPLIT_MARK))).toBe(false)
  })
})
