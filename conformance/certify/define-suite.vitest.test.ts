/**
 * `defineConformanceSuite` in a real vitest (a child process): `-t` runs only the selected clauses'
 * work, and vitest's totals for a selection are the CLI's for the same clauses.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { DIRECTED_CASES } from '../cases/index.js'
import { KIT_ROOT } from '../adapters/adapter-loader.js'
import type { Report } from './report.js'

const exec = promisify(execFile)
const VITEST = join(KIT_ROOT, 'node_modules', 'vitest', 'vitest.mjs')
const CLI = join(KIT_ROOT, 'dist', 'cli', 'main.js')

interface Assertion { title: string; status: string }

/** Run the fixture suite under vitest with `-t pattern`; its per-test statuses and the certificates it made. */
async function vitest(pattern: string, fixture?: 'no-minting'): Promise<{ tests: Assertion[]; reports: Report[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-define-suite-'))
  writeFileSync(join(dir, 'vitest.config.mjs'), `export default { test: { include: ['conformance/fixtures/reference-suite.fixture.ts'], testTimeout: 120000 } }\n`)
  const out = join(dir, 'results.json')
  const reports = join(dir, 'reports.jsonl')
  await exec(process.execPath, [VITEST, 'run', '--root', KIT_ROOT, '--config', join(dir, 'vitest.config.mjs'), '-t', pattern, '--reporter=json', `--outputFile=${out}`], {
    cwd: KIT_ROOT, env: { ...process.env, DSH_KIT_REPORTS: reports, ...(fixture ? { DSH_KIT_FIXTURE: fixture } : {}) }, maxBuffer: 64 * 1024 * 1024,
  })
  const results = JSON.parse(readFileSync(out, 'utf8')) as { testResults: { assertionResults: Assertion[] }[] }
  const certificates = existsSync(reports) ? readFileSync(reports, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Report) : []
  return { tests: results.testResults.flatMap((r) => r.assertionResults), reports: certificates }
}

describe('defineConformanceSuite under vitest', () => {
  it('vitest -t "AGENT-FACTORY-SEAM 1:" runs that clause\'s directed cases and nothing else', async () => {
    const { tests, reports } = await vitest('AGENT-FACTORY-SEAM 1:')
    expect(tests.filter((t) => t.status === 'passed').map((t) => t.title)).toEqual([expect.stringMatching(/^AGENT-FACTORY-SEAM 1: /)])
    expect(tests.filter((t) => t.status === 'failed')).toEqual([])
    expect(reports).toHaveLength(1)
    expect(reports[0]!.clauses.map((c) => c.key)).toEqual(['AGENT-FACTORY-SEAM 1'])
    expect(reports[0]!.units.planned).toBe(DIRECTED_CASES.filter((c) => c.clause === 1).length)
    expect(reports[0]!.runs).toBe(0)
  }, 120_000)

  it('for a selection of checked and unchecked clauses vitest\'s passed/todo are the CLI\'s pass/unchecked (a process without scopeMinting)', async () => {
    const selection = /^(AGENT-FACTORY-SEAM \d+|X-SESSION \d+|AGENT-PREPARE-PUBLISH 59): /
    const { tests } = await vitest('FACTORY-SEAM|X-SESSION|PREPARE-PUBLISH 59:', 'no-minting')
    const selected = tests.filter((t) => selection.test(t.title))
    const only = selected.map((t) => ['--only', selection.exec(t.title)![1]!]).flat()
    const dir = mkdtempSync(join(tmpdir(), 'dsh-define-suite-cli-'))
    // The CLI's verdict fails (exit 1): a MUST clause left unchecked is not passed (vitest reports it todo).
    const certified = await exec(process.execPath, [CLI, 'certify', '--adapter', 'conformance/testing/no-minting-adapter.ts', ...only, '--json', join(dir, 'report.json'), '--out', join(dir, 'failures')], { cwd: KIT_ROOT })
      .then(() => 0, (error: { code: number }) => error.code)
    expect(certified).toBe(1)
    const cli = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report
    const count = (status: string): number => cli.clauses.filter((c) => c.status === status && selection.test(`${c.key}: `)).length
    const vitestTotals = { passed: selected.filter((t) => t.status === 'passed').length, skipped: selected.filter((t) => t.status === 'skipped').length, todo: selected.filter((t) => t.status === 'todo').length }
    expect(vitestTotals).toEqual({ passed: count('pass'), skipped: 0, todo: count('unchecked') })
    // The selection exercises both kinds, and the todo says why.
    expect(vitestTotals.passed).toBeGreaterThan(0)
    expect(vitestTotals.todo).toBe(1)
    expect(selected.find((t) => t.status === 'todo')!.title).toMatch(/^AGENT-PREPARE-PUBLISH 59: .* — unchecked: needs capability scopeMinting$/)
  }, 120_000)
})
