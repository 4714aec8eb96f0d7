import { afterAll, describe, expect, it } from 'vitest'
import { REFERENCE_ADAPTER } from '../adapters/adapter.js'
import { CLAUSES } from '../clauses/clauses.js'
import { defineConformanceSuite } from './define-suite.js'
import type { Report } from './report.js'

// The reference factory passes every clause of the quick profile.
const reports: Report[] = []
defineConformanceSuite(REFERENCE_ADAPTER, { describe, it, profile: 'quick', outDir: '.dsh-kit/test-failures', onReport: (r) => reports.push(r) })

interface Task { type: string; name: string; mode: string; result?: { state?: string }; tasks?: Task[] }

// vitest's totals are the certificate's (what the CLI prints): passed = pass, skipped = kit, todo = unchecked.
afterAll(({}, file) => {
  const tests: Task[] = []
  const walk = (t: Task): void => { if (t.tasks) t.tasks.forEach(walk); else if (t.type === 'test') tests.push(t) }
  walk(file as unknown as Task)
  const report = reports[0]
  // Only a run of the whole suite certifies every clause; a filtered run is checked clause by clause.
  if (reports.length !== 1 || report!.clauses.length !== CLAUSES.length) return
  const count = (status: string): number => report!.clauses.filter((c) => c.status === status).length
  expect({
    passed: tests.filter((t) => t.result?.state === 'pass').length,
    skipped: tests.filter((t) => t.mode === 'skip').length,
    todo: tests.filter((t) => t.mode === 'todo').length,
  }).toEqual({ passed: count('pass'), skipped: 0, todo: count('unchecked') })
})
