/**
 * `defineConformanceSuite` on a recording test framework: what it declares for each clause (a test,
 * `skip` or `todo` with the reason), that old frameworks without `skip`/`todo` still get one
 * passing test per clause, and that a run whose framework context selects some clauses certifies
 * only those.
 */
import { describe, expect, it } from 'vitest'
import { ReferenceFactory } from '../../core/index.js'
import type { CreateAgentOptions, OwnerContext } from '../../core/contract.js'
import { referenceAdapter, REFERENCE_ADAPTER } from '../adapters/adapter.js'
import NO_MINTING from '../testing/no-minting-adapter.js'
import { DIRECTED_CASES } from '../cases/index.js'
import { CLAUSES } from '../clauses/clauses.js'
import { declaredClauses, defineConformanceSuite } from './define-suite.js'
import type { TestBody, TestFunction } from './define-suite.js'
import type { Report } from './report.js'

interface Recorded { name: string; kind: 'test' | 'skip' | 'todo'; body?: TestBody; path: string[] }

/** A describe/it framework that records declarations; `withSkip` adds `it.skip`/`it.todo`. */
function recorder(withSkip: boolean): { describe(name: string, body: () => void): void; it: TestFunction; tests: Recorded[] } {
  const tests: Recorded[] = []
  const path: string[] = []
  const it = ((name: string, body: TestBody) => { tests.push({ name, kind: 'test', body, path: [...path] }) }) as TestFunction
  if (withSkip) {
    it.skip = (name) => { tests.push({ name, kind: 'skip', path: [...path] }) }
    it.todo = (name) => { tests.push({ name, kind: 'todo', path: [...path] }) }
  }
  const describe = (name: string, body: () => void): void => { path.push(name); body(); path.pop() }
  return { describe, it, tests }
}

/** A vitest-like test context in which only the tests named `selected` run. */
function contextSelecting(tests: readonly Recorded[], selected: (name: string) => boolean): unknown {
  const root: { name: string; tasks: unknown[]; suite?: unknown } = { name: tests[0]!.path[0]!, tasks: [] }
  const groups = new Map<string, { name: string; tasks: unknown[]; suite: unknown }>()
  for (const t of tests) {
    const group = t.path[1]!
    if (!groups.has(group)) {
      const suite = { name: group, tasks: [] as unknown[], suite: root }
      groups.set(group, suite)
      root.tasks.push(suite)
    }
    groups.get(group)!.tasks.push({ type: 'test', name: t.name, mode: t.kind === 'todo' ? 'todo' : t.kind === 'skip' || !selected(t.name) ? 'skip' : 'run' })
  }
  return { task: { suite: [...groups.values()][0] } }
}

describe('defineConformanceSuite', () => {
  it('declares a test per checked clause and todo (unchecked) with the reason for the others, as the plan says', () => {
    // Every clause of the reference is checked; without scopeMinting, §9 59 (cases only) is not.
    expect([...declaredClauses(REFERENCE_ADAPTER).values()].every((x) => x.kind === 'test')).toBe(true)
    const { describe: d, it: i, tests } = recorder(true)
    defineConformanceSuite(NO_MINTING, { describe: d, it: i })
    expect(tests).toHaveLength(CLAUSES.length)
    const declared = declaredClauses(NO_MINTING)
    for (const t of tests) {
      const key = /^(\S+ \d+): /.exec(t.name)![1]!
      expect(t.kind, t.name).toBe(declared.get(key)!.kind)
      if (t.kind === 'todo') expect(t.name).toMatch(/ — unchecked: needs capability scopeMinting$/)
    }
    expect(declared.get('AGENT-PREPARE-PUBLISH 59')!.kind).toBe('todo')
    expect(declared.get('AGENT-TEARDOWN-TEST 97')!.kind).toBe('test')
  })

  it('a clause whose directed cases resume is not a test for an adapter that does not support resume', () => {
    const noResume = referenceAdapter({ name: 'no-resume', version: '0', supports: { resume: false } })
    const resumeOnly = CLAUSES.filter((c) => {
      const cases = DIRECTED_CASES.filter((d) => d.clause === c.clause)
      return cases.length > 0 && cases.every((d) => /resume|restart/i.test(d.title))
    }).map((c) => `${c.group} ${c.clause}`)
    expect(resumeOnly.length).toBeGreaterThan(0)
    const declared = declaredClauses(noResume)
    for (const key of resumeOnly) {
      if (declared.get(key)!.kind === 'test') continue // a checker still covers it on every run
      expect(['skip', 'todo'], key).toContain(declared.get(key)!.kind)
    }
    expect(resumeOnly.some((key) => declared.get(key)!.kind !== 'test')).toBe(true)
  })

  it('a framework without skip/todo still gets one passing test per clause, the reason in its title, certifying nothing', async () => {
    const { describe: d, it: i, tests } = recorder(false)
    const reports: Report[] = []
    defineConformanceSuite(NO_MINTING, { describe: d, it: i, onReport: (r) => reports.push(r) })
    expect(tests).toHaveLength(CLAUSES.length)
    const unchecked = tests.find((t) => t.name.startsWith('AGENT-PREPARE-PUBLISH 59: '))!
    expect(unchecked.name).toMatch(/ — unchecked: needs capability scopeMinting$/)
    await unchecked.body!()
    expect(reports).toEqual([])
  })

  it('a run whose context selects one clause certifies only that clause\'s work, once for every selected test', async () => {
    const { describe: d, it: i, tests } = recorder(true)
    const reports: Report[] = []
    defineConformanceSuite(REFERENCE_ADAPTER, { describe: d, it: i, onReport: (r) => reports.push(r), outDir: '.dsh-kit/test-failures' })
    const selected = (name: string): boolean => /^AGENT-FACTORY-SEAM [12]: /.test(name)
    const context = contextSelecting(tests, selected)
    for (const t of tests.filter((x) => selected(x.name))) await t.body!(context)
    await Promise.resolve()
    expect(reports).toHaveLength(1)
    const report = reports[0]!
    expect(report.clauses.map((c) => c.key)).toEqual(['AGENT-FACTORY-SEAM 1', 'AGENT-FACTORY-SEAM 2'])
    expect(report.runs).toBe(0)
    expect(report.directedCases).toBe(DIRECTED_CASES.filter((c) => c.clause === 1 || c.clause === 2).length)
  })

  it('a failing clause\'s test throws its counterexample and names the clause', async () => {
    // A factory that hands the agent a copy of agentOptions: AGENT-PUBLIC-INTERFACE 10 fails.
    class CopiesOptions extends ReferenceFactory {
      override createAgent(ownerCtx: OwnerContext, options: CreateAgentOptions): ReturnType<ReferenceFactory['createAgent']> {
        return super.createAgent(ownerCtx, { ...options, ...(options.agentOptions ? { agentOptions: { ...options.agentOptions } } : {}) })
      }
    }
    const { describe: d, it: i, tests } = recorder(true)
    defineConformanceSuite(referenceAdapter({ name: 'copies-options', version: '0' }, CopiesOptions), { describe: d, it: i, outDir: '.dsh-kit/test-failures' })
    const selected = (name: string): boolean => name.startsWith('AGENT-PUBLIC-INTERFACE 10: ')
    const test = tests.find((t) => selected(t.name))!
    await expect(test.body!(contextSelecting(tests, selected))).rejects.toThrow(/^AGENT-PUBLIC-INTERFACE 10 violated: [^\n]*\n {2}Values have same structure but are not reference-equal:\n {2}\{[\s\S]*?\n {2}\}\n {2}the clause and what it rests on: npx dsh-kit list --clause "AGENT-PUBLIC-INTERFACE 10"/)
  })
})
