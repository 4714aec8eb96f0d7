/**
 * The records of long campaigns and the RESULTS.md section written from them: the rewrite keeps the
 * sections after §9, and the soundness totals count a violating run as settled only when its record
 * says how.
 */
import { describe, expect, it } from 'vitest'
import type { LongCampaign } from './long-campaigns.js'
import { rewriteResults, SOUNDNESS_SINCE, soundnessTotals } from './long-campaigns.js'

function record(command: string, commit: string, runs: number, violatingRuns = 0, settled?: string): LongCampaign {
  return {
    command, commit, date: '2026-12-03T00:00:00.000Z', runs, seeds: runs, wallSeconds: 60, outcomes: { ok: runs },
    violatingRuns, violationCounts: violatingRuns ? { 'X-RUN 2': violatingRuns } : {}, ...(settled ? { settled } : {}),
  }
}

const SCRATCH = '--adapter examples/from-scratch-factory/adapter.ts'

describe('long campaigns', () => {
  it('rewrites §9 and its goal row, and keeps every section after it', () => {
    const text = ['# R', '## 9. Long reference campaigns (recorded)', 'intro', 'old table', '## 10. What the checkers decline', 'kept', '## Goals vs measured', '| goal | target | measured | met |', '| --- | --- | --- | --- |', '| reference campaign | x | y | no |', ''].join('\n\n')
    const out = rewriteResults(text, [record('dsh-kit fuzz --runs 1000000 --keep-going', 'abc', 1_000_000)])
    expect(out).not.toContain('old table')
    expect(out).toContain('## 10. What the checkers decline\n\nkept')
    expect(out).toMatch(/\| reference campaign \| 1,000,000 runs, no violation \| 1,000,000 runs at abc: no violation \| yes \|/)
  })

  it('totals the soundness pairs from the judge change on, settled violations apart', () => {
    const totals = soundnessTotals([
      record('dsh-kit fuzz --strategy pct --runs 10 --keep-going', 'before', 500),
      record('dsh-kit fuzz --strategy pct --runs 10 --keep-going', SOUNDNESS_SINCE, 200_000, 2, 'NOT settled: open'),
      record('dsh-kit fuzz --strategy pct --runs 10 --keep-going', 'later', 150_000, 1, 'a checker false positive, fixed'),
      record(`dsh-kit fuzz ${SCRATCH} --strategy portfolio --runs 10 --keep-going`, 'later', 300_000),
      record('dsh-kit fuzz --adapter other.ts --strategy random --runs 10 --keep-going', 'later', 9),
    ])
    expect(totals).toEqual([
      { factory: 'reference', strategy: 'pct', runs: 350_000, clean: 349_997, violating: 3, unsettled: 2, commits: [SOUNDNESS_SINCE, 'later'] },
      { factory: 'from-scratch', strategy: 'portfolio', runs: 300_000, clean: 300_000, violating: 0, unsettled: 0, commits: ['later'] },
    ])
  })
})
