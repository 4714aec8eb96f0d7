/**
 * The vitest (or any describe/it framework) face of the suite, after abstract-level's
 * `suite({ test, factory })`: the framework is a parameter, one `describe` per clause group and one
 * `it` per clause, titled `AGENT-ATOMIC-TEST 64: …` so `vitest -t 'ATOMIC-TEST 64'` selects it.
 * @module
 */
import type { Adapter } from './adapter.js'
import { CLAUSES, GROUPS } from './clauses.js'
import { formatFailure } from './format-report.js'
import { certify } from './suite.js'
import type { CertifyOptions, Report } from './suite.js'

/** The test framework functions the suite needs. */
export interface TestFramework {
  describe(name: string, body: () => void): void
  it(name: string, body: () => Promise<void>, timeout?: number): void
}

/** Options of {@link defineConformanceSuite}. */
export interface DefineSuiteOptions extends CertifyOptions, TestFramework {}

/**
 * Emit the conformance suite for `adapter` as describe/it blocks. The suite certifies once (lazily,
 * on the first `it`) and each clause's test reports its verdict; an unchecked clause passes with
 * nothing to assert and says so in its title.
 */
export function defineConformanceSuite(adapter: Adapter, options: DefineSuiteOptions): void {
  const { describe, it, ...certifyOptions } = options
  let report: Promise<Report> | undefined
  const once = (): Promise<Report> => (report ??= certify(adapter, certifyOptions))
  describe(`conformance of ${adapter.name}@${adapter.version}`, () => {
    for (const group of GROUPS) {
      describe(group, () => {
        for (const clause of CLAUSES.filter((c) => c.group === group)) {
          it(`${clause.group} ${clause.clause}: ${clause.title}`, async () => {
            const result = (await once()).clauses.find((c) => c.group === clause.group && c.clause === clause.clause)
            if (result?.status === 'fail') throw new Error(formatFailure(result, true))
          }, 120_000)
        }
      })
    }
  })
}
