/**
 * The vitest (or any describe/it framework) face of the suite, after abstract-level's
 * `suite({ test, factory })`: the framework is a parameter, one `describe` per clause group and one
 * `it` per clause, titled `AGENT-ATOMIC-TEST 64: …` so `vitest -t 'ATOMIC-TEST 64'` selects it.
 *
 * It tells the truth in the framework's own terms: a clause the certification checks for this
 * adapter is a test that passes or fails with its verdict; a kit-level clause is `skip`ped and an
 * unchecked one is `todo`, each with the reason, so the framework's totals are the CLI's. And a
 * filtered run does only the selected clauses' work: the tests that will run are read from the
 * framework's task tree (vitest's test context) and certified together with `only`.
 * @module
 */
import type { Adapter } from '../adapters/adapter.js'
import { normalizeAdapter } from '../adapters/adapter.js'
import { clauseNumberOf, planCertify } from './plan.js'
import { CHECKED_CLAUSES } from '../checkers/index.js'
import { CLAUSES, GROUPS } from '../clauses/clauses.js'
import type { Clause } from '../clauses/clauses.js'
import { formatFailure } from './failure-text.js'
import { certify } from './certify.js'
import type { CertifyOptions, ClauseResult, Report } from './report.js'

/** A test body; vitest passes its test context, which tells which tests a filtered run selected. */
export type TestBody = (context?: unknown) => Promise<void>

/** The `it` the suite needs, with the optional `skip`/`todo` of vitest, jest and mocha. */
export interface TestFunction {
  (name: string, body: TestBody, timeout?: number): void
  /** Declare a test reported as skipped. Without it, a kit-level clause is an empty passing test. */
  skip?: (name: string, body?: () => void) => void
  /** Declare a test reported as todo. Without it (or `skip`), an unchecked clause is an empty passing test. */
  todo?: (name: string) => void
}

/** The test framework functions the suite needs. */
export interface TestFramework {
  describe(name: string, body: () => void): void
  it: TestFunction
}

/** Options of {@link defineConformanceSuite}. */
export interface DefineSuiteOptions extends CertifyOptions, TestFramework {
  /** Called with each certificate the suite makes (one per distinct selection of clauses). */
  readonly onReport?: (report: Report) => void
}

/** How the suite declares one clause for an adapter, before anything runs. */
export type Declared =
  | { readonly kind: 'test' }
  | { readonly kind: 'skip' | 'todo'; readonly reason: string }

/**
 * What the certification of `adapter` with `options` will do with each clause: check it (a test),
 * or report it `kit` (skip) or `unchecked` (todo), as the certificate's statuses will say.
 */
export function declaredClauses(adapter: Adapter, options: CertifyOptions = {}): Map<string, Declared> {
  const normalized = normalizeAdapter(adapter)
  const plan = planCertify(normalized, { ...(options.profile ? { profile: options.profile } : {}), ...(options.only ? { only: options.only } : {}) })
  const cased = new Set(plan.cases.map((c) => c.clause))
  const declared = new Map<string, Declared>()
  for (const c of CLAUSES) {
    const key = `${c.group} ${c.clause}`
    if (c.group === 'X-RUN') {
      declared.set(key, plan.simulate ? { kind: 'test' } : { kind: 'skip', reason: 'no simulated run is planned (`only` names no clause a checker covers)' })
    } else if (plan.only && !plan.only.includes(c.clause)) {
      declared.set(key, { kind: 'skip', reason: 'not in `only`' })
    } else if (cased.has(c.clause) || (plan.simulate && CHECKED_CLAUSES.includes(c.clause))) {
      declared.set(key, { kind: 'test' })
    } else {
      declared.set(key, { kind: 'todo', reason: `unchecked: ${plan.skipped.get(c.clause) ?? 'no directed case or checker covers it for this adapter'}` })
    }
  }
  return declared
}

/**
 * Emit the conformance suite for `adapter` as describe/it blocks. A checked clause's test awaits
 * the certification of the clauses selected to run (lazily, once per selection) and fails with the
 * clause's counterexample; kit-level and unchecked clauses are `it.skip`/`it.todo` with the reason
 * (an empty passing test titled with the reason if the framework has neither).
 */
export function defineConformanceSuite(adapter: Adapter, options: DefineSuiteOptions): void {
  const { describe, it, onReport, ...certifyOptions } = options
  const declared = declaredClauses(adapter, certifyOptions)
  const tested = [...declared].filter(([, d]) => d.kind === 'test').map(([key]) => key).sort()
  const root = `conformance of ${adapter.name}@${adapter.version}`
  const reports = new Map<string, Promise<Report>>()
  const certificateFor = (selected: readonly string[]): Promise<Report> => {
    const id = selected.join('|')
    let report = reports.get(id)
    if (!report) {
      report = certify(adapter, { ...certifyOptions, ...onlyFor(selected, tested, certifyOptions.only) })
      report.then((r) => onReport?.(r), () => undefined)
      reports.set(id, report)
    }
    return report
  }
  describe(root, () => {
    for (const group of GROUPS) {
      describe(group, () => {
        for (const clause of CLAUSES.filter((c) => c.group === group)) {
          const key = `${clause.group} ${clause.clause}`
          const title = `${key}: ${clause.title}`
          const d = declared.get(key)!
          if (d.kind === 'test') {
            it(title, async (context) => {
              const selected = selectedClauses(context, root, new Set(tested)) ?? tested
              verdict(clause, await certificateFor(selected))
            }, 120_000)
          } else if (d.kind === 'todo' && it.todo) {
            it.todo(`${title} — ${d.reason}`)
          } else if (it.skip) {
            it.skip(`${title} — ${d.reason}`, () => undefined)
          } else {
            it(`${title} — ${d.reason}`, async () => undefined)
          }
        }
      })
    }
  })
}

/** Throw unless the certificate gives `clause` a passing verdict. */
function verdict(clause: Clause, report: Report): void {
  const key = `${clause.group} ${clause.clause}`
  const result: ClauseResult | undefined = report.clauses.find((c) => c.key === key)
  if (result?.status === 'fail') throw new Error(formatFailure(result, true))
  if (!report.complete) throw new Error(`${key}: the certification is incomplete (${report.incomplete ?? 'not every unit ran'}), so its verdict is not final`)
  if (result?.status !== 'pass') throw new Error(`${key}: expected to be checked, but the certificate reports it ${result ? `\`${result.status}\`` : 'not at all'}`)
}

/**
 * The `only` a selection needs: the selected clauses' numbers, or everything (undefined) when the
 * whole suite or a run-level clause is selected (those are checked by every simulated run).
 */
function onlyFor(selected: readonly string[], tested: readonly string[], only: CertifyOptions['only']): Pick<CertifyOptions, 'only'> {
  if (selected.length === tested.length || selected.some((key) => key.startsWith('X-RUN '))) return only ? { only } : {}
  return { only: selected.map((key) => clauseNumberOf(key)) }
}

/**
 * The checked clauses a filtered run will run, read from the framework's test context: vitest
 * marks every test a `-t` filter or `.only` leaves out `skip` before any test runs. Undefined when
 * the context says nothing (another framework), which certifies every checked clause.
 */
function selectedClauses(context: unknown, root: string, tested: ReadonlySet<string>): string[] | undefined {
  // This suite's own top-level describe (a file may define suites for several adapters).
  let suite = (context as { task?: Task } | undefined)?.task?.suite
  while (suite && suite.name !== root) suite = suite.suite
  if (!suite?.tasks) return undefined
  const selected: string[] = []
  const walk = (task: Task): void => {
    if (task.tasks) for (const t of task.tasks) walk(t)
    else if (task.type === 'test' && task.mode !== 'skip' && task.mode !== 'todo') {
      const key = /^(\S+ \d+): /.exec(task.name ?? '')?.[1]
      if (key && tested.has(key)) selected.push(key)
    }
  }
  walk(suite)
  return selected.length > 0 ? [...new Set(selected)].sort() : undefined
}

/** The part of a vitest task the selection reads. */
interface Task {
  readonly type?: string
  readonly name?: string
  readonly mode?: string
  readonly tasks?: readonly Task[]
  readonly suite?: Task
}
