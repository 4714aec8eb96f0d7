import { describe, expect, it } from 'vitest'
import { runProgram } from '../../sim/run.js'
import { validateProgram } from '../../sim/program/program.js'
import { random } from '../../sim/strategies/index.js'
import { actor, pause, program, whenIdle } from '../../sim/program/build.js'
import { catalogScenario } from './scenario.js'
import { CLAUSE_GROUPS, defineScenario, findScenario, goal, reachGoals, ScenarioError, SCENARIOS } from '../index.js'

/**
 * Exploration budget per scenario: at most this many runs, rotating random, pct d=2 and pct d=3
 * (seed 0), to reach every goal. Every scenario also runs at least `MIN_RUNS` times so each
 * strategy gets 10 runs, whose outcomes must all be clean.
 */
const GOAL_BUDGET = 200
const MIN_RUNS = 30

describe('scenario catalogue', () => {
  it('holds at least 20 uniquely named scenarios, each aimed at known clause groups with valid programs', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(20)
    expect(new Set(SCENARIOS.map((s) => s.name)).size).toBe(SCENARIOS.length)
    for (const s of SCENARIOS) {
      expect(() => validateProgram(s.program), s.name).not.toThrow()
      for (const g of s.groups) expect(CLAUSE_GROUPS, s.name).toContain(g)
      expect(s.goals.length, s.name).toBeGreaterThan(0)
    }
  })

  it('findScenario returns a scenario by name and refuses an unknown one listing the valid names', () => {
    expect(findScenario('same-id-two-creates').name).toBe('same-id-two-creates')
    expect(() => findScenario('no-such-race')).toThrow(/unknown scenario "no-such-race"; expected one of: .*same-id-two-creates.*restart-mid-turn/)
  })

  it('defineScenario rejects a bad name, an unknown clause group, a duplicate goal and an invalid program', () => {
    const base = { name: 'ok-name', title: 't', groups: ['X-CANCEL' as const], program: program([actor('a1', pause())]), goals: [goal('g', () => true)] }
    expect(() => defineScenario(base)).not.toThrow()
    expect(() => defineScenario({ ...base, name: 'Not Kebab' })).toThrow(ScenarioError)
    expect(() => defineScenario({ ...base, groups: ['X-NOPE' as never] })).toThrow(/unknown clause group "X-NOPE"/)
    expect(() => defineScenario({ ...base, goals: [goal('g', () => true), goal('g', () => false)] })).toThrow(/duplicate goal "g"/)
    expect(() => defineScenario({ ...base, program: { v: 1, actors: [{ id: 'a1', ops: [{ op: 'explode' } as never] }] } }))
      .toThrow(/scenario "ok-name": program\.actors\[0\]\.ops\[0\]\.op: unknown operation "explode"/)
    // A program naming what nothing in it creates is invalid too.
    expect(() => defineScenario({ ...base, program: program([actor('a1', whenIdle('s1'))]) }))
      .toThrow(/scenario "ok-name": program\.actors\[0\]\.ops\[0\]\.session: no operation creates, resumes, registers or enters session "s1"/)
  })

  it('the catalog checks its scenarios\' names, groups and goals at import, and leaves their programs to the test above', () => {
    const base = { name: 'ok-name', title: 't', groups: ['X-CANCEL' as const], program: program([actor('a1', whenIdle('s1'))]), goals: [goal('g', () => true)] }
    expect(catalogScenario(base)).toBe(base)
    expect(() => catalogScenario({ ...base, name: 'Not Kebab' })).toThrow(ScenarioError)
    expect(() => catalogScenario({ ...base, groups: ['X-NOPE' as never] })).toThrow(/unknown clause group "X-NOPE"/)
    expect(() => catalogScenario({ ...base, goals: [goal('g', () => true), goal('g', () => false)] })).toThrow(/duplicate goal "g"/)
  })

  it('goals are not vacuous: each is false on the trace of a run where nothing of interest happens', async () => {
    const strategy = random({ seed: 0 })
    strategy.beginRun()
    const { trace } = await runProgram(program([actor('a1', pause())]), strategy)
    const vacuous = SCENARIOS.flatMap((s) => s.goals.filter((g) => g.reached(trace)).map((g) => `${s.name}/${g.name}`))
    expect(vacuous).toEqual([])
  })
})

describe(`every scenario runs clean and reaches each goal within ${GOAL_BUDGET} runs (random, pct d=2, pct d=3)`, () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: ${scenario.title}`, async () => {
      const report = await reachGoals(scenario, { budget: GOAL_BUDGET, minRuns: MIN_RUNS, seed: 0 })
      // No crash, no uncontrolled async work, no livelock; a deadlock only where the scenario hangs something on purpose.
      expect(report.unexpected, JSON.stringify(report.unexpected.slice(0, 3), null, 2)).toEqual([])
      expect(report.outcomes.ok, 'some runs end normally').toBeGreaterThan(0)
      expect(report.missed, `goals never reached in ${report.runs} runs`).toEqual([])
      expect(report.runs).toBeGreaterThanOrEqual(MIN_RUNS)
    })
  }

  it('a scenario that declares a deliberate hang does deadlock under some schedule (so the flag is needed)', async () => {
    for (const scenario of SCENARIOS.filter((s) => s.expectDeadlock)) {
      const report = await reachGoals(scenario, { budget: GOAL_BUDGET, exhaustBudget: true })
      expect(report.outcomes.deadlock, scenario.name).toBeGreaterThan(0)
    }
  })

  it('an undeclared deadlock is reported as unexpected', async () => {
    const hangs = SCENARIOS.find((s) => s.expectDeadlock)!
    const report = await reachGoals({ ...hangs, expectDeadlock: false }, { budget: 30, exhaustBudget: true })
    expect(report.unexpected.some((u) => u.kind === 'deadlock' && /whenIdle\(s1\) waits on/.test(u.detail))).toBe(true)
  })
})
