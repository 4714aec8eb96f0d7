import { describe, expect, it } from 'vitest'
import type { Program } from '../../sim/program/program.js'
import { runProgram } from '../../sim/run.js'
import { random } from '../../sim/strategies/index.js'
import type { Trace } from '../../sim/trace/trace.js'
import { act, actor, create, dispose, followup, on, program, setup } from '../../sim/program/build.js'
import { drawForSeed } from '../campaign/draw.js'
import { stateTransitionKeys, stateTransitions, stateTransitionSet } from './state-coverage.js'
import { transitionKeys } from './transition-table.js'

async function transitionsOf(p: Program, seed = 1): Promise<string[]> {
  const strategy = random({ seed })
  strategy.beginRun()
  return stateTransitions((await runProgram(p, strategy)).trace)
}

describe('state coverage: abstract transitions from the trace', () => {
  it('follows one agent through creation, publication, a turn and teardown', async () => {
    const t = await transitionsOf(program([actor('a1', create('s1', { setup: setup(1) }), followup('s1'), dispose('s1'))]))
    expect(t).toContain('-|idle|--|-|-|- +create -|idle|--|-|-|invoked')
    expect(t).toContain('-|idle|--|-|-|invoked #setup -|idle|--|-|-|setup')
    expect(t).toContain('-|idle|--|-|-|commit *session/created -|idle|--|-|-|session')
    expect(t).toContain('-|idle|--|-|-|session *agent/created live|idle|--|-|-|agent')
    expect(t).toContain('live|idle|--|-|-|started =create:ok live|idle|--|-|-|-')
    // The followup's splice makes next-turn non-empty; the turn claims it.
    expect(t).toContain('live|idle|--|-|-|- .splice:next-turn+ live|idle|T-|-|-|-')
    expect(t.some((x) => / \.turn\/start live\|run\|[T-]-\|turn\|/.test(x))).toBe(true)
    expect(t.some((x) => / \+dispose live\|(idle|run)\|..\|[-a-z]+\|req\|-$/.test(x))).toBe(true)
    expect(t.some((x) => / \*agent\/disposed gone\|/.test(x))).toBe(true)
    // Nothing ran inside a dispatch.
    expect(t.filter((x) => x.includes('@'))).toEqual([])
    expect(t).toEqual([...new Set(t)].sort())
  })

  it('tells a reentrant shape from a flat one: an operation from inside a publication event, and the events it dispatches', async () => {
    const reentrant = program([actor('a1', create('s1'))], { listeners: [on('agent/created', act(dispose('s1')), { session: 's1' })] })
    const t = await transitionsOf(reentrant)
    expect(t).toContain('listener agent/created op')
    expect(t.some((x) => x.includes(' +dispose!@agent/created/1 '))).toBe(true)
    expect(t.some((x) => /^dispatch agent\/created>\S+ same$/.test(x))).toBe(true)
    const flat = await transitionsOf(program([actor('a1', create('s1'), dispose('s1'))]))
    expect(flat.some((x) => x.startsWith('dispatch ') && x.includes('>'))).toBe(false)
    expect(flat.some((x) => x.includes('!'))).toBe(false)
  })

  it('is a function of the trace: the same run gives the same list, another schedule may give another', async () => {
    const p = program([actor('a1', create('s1', { setup: setup(2) }), followup('s1')), actor('a2', create('s1'), dispose('s1'))])
    expect(await transitionsOf(p, 3)).toEqual(await transitionsOf(p, 3))
    const seen = new Set<string>()
    for (let seed = 1; seed <= 8; seed++) seen.add(JSON.stringify(await transitionsOf(p, seed)))
    expect(seen.size).toBeGreaterThan(1)
  })

  it('ignores trace entries it does not know (newer kinds) and marks without an id', () => {
    const trace = {
      v: 1,
      entries: [
        { k: 'probe', i: 0, d: 0, world: 0 },
        { k: 'mark', i: 1, d: 0, label: 'something else', world: 0 },
        { k: 'event', i: 2, d: 0, name: 'agent/created', id: 's1', detail: '', snap: { agents: ['s1'], sessions: ['s1'] }, world: 0 },
      ],
    } as unknown as Trace
    expect(stateTransitions(trace)).toEqual(['-|idle|--|-|-|- *agent/created live|idle|--|-|-|-', 'dispatch agent/created'])
  })

  it('hashes the transitions as it walks them: the keys of the texts, for one run or the union of several', async () => {
    const traces: Trace[] = []
    for (let r = 0; r < 60; r++) {
      const strategy = random({ seed: r })
      strategy.beginRun()
      traces.push((await runProgram(drawForSeed(r, {}, []).program, strategy)).trace)
    }
    for (const trace of traces) expect([...stateTransitionKeys([trace])]).toEqual([...transitionKeys(stateTransitionSet(trace))])
    const union = new Set(traces.slice(0, 5).flatMap((t) => [...stateTransitionSet(t)]))
    expect([...stateTransitionKeys(traces.slice(0, 5))]).toEqual([...transitionKeys(union)])
  })
})
