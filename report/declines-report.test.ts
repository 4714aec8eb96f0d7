/**
 * What the checkers declined, as every output says it: a clause checked by the trace checkers
 * alone that they declined in every run that reached it is `unjudged` (never `pass`), its counts
 * ride on the certificate's clause entries, its text line and its page row, and a campaign report
 * lists the clauses its checkers declined.
 */
import { describe, expect, it } from 'vitest'
import { clauseStatus } from '../conformance/certify/certify.js'
import type { ClauseResult, Report } from '../conformance/certify/report.js'
import { DEFAULT_SUPPORTS } from '../conformance/adapters/adapter.js'
import { certify } from '../conformance/certify/certify.js'
import { REFERENCE_ADAPTER } from '../conformance/adapters/adapter.js'
import { formatClauseTable, formatReport } from './certify-text.js'
import { renderCertificateHtml } from './certificate/html.js'
import { formatDeclines } from './campaign-text.js'
import { runCampaign } from '../scenarios/campaign/campaign.js'
import { mergeReports } from '../scenarios/campaign/merge.js'

const F3 = 'F3 where the teardown\'s disposed abort reached the agent'
const Q7 = '§12 Q7 sent while the driver had no turn open'

describe('clauses the checkers declined', () => {
  it('a clause only the checkers checked, declined in every run that reached it, is unjudged; judged once, or checked otherwise, it passes', () => {
    const declinedAll = { judged: 0, reached: 4, declined: { [F3]: 4 }, declinedRuns: 4, blind: 4 }
    expect(clauseStatus(false, 100, ['checker'], declinedAll)).toBe('unjudged')
    expect(clauseStatus(false, 101, ['case', 'checker'], declinedAll)).toBe('pass')
    expect(clauseStatus(false, 100, ['checker'], { ...declinedAll, judged: 1 })).toBe('pass')
    // Never reached: nothing was declined (a vacuous pass, as before).
    expect(clauseStatus(false, 100, ['checker'], { judged: 0, reached: 0, declined: {}, declinedRuns: 0, blind: 0 })).toBe('pass')
    expect(clauseStatus(true, 100, ['checker'], declinedAll)).toBe('fail')
    expect(clauseStatus(false, 0, [], undefined)).toBe('unchecked')
  })

  const clauses: ClauseResult[] = [
    { key: 'X-CANCEL 156', group: 'X-CANCEL', clause: 156, title: 'first cause wins', status: 'unjudged', checks: 50, checkedBy: ['checker'], judged: 0, reached: 3, declined: { [F3]: 3 }, declinedRuns: 3 },
    { key: 'X-CANCEL 148', group: 'X-CANCEL', clause: 148, title: 'a latched wake runs', status: 'pass', checks: 51, checkedBy: ['case', 'checker'], judged: 40, reached: 42, declined: { [Q7]: 2 }, declinedRuns: 2 },
    { key: 'X-CANCEL 149', group: 'X-CANCEL', clause: 149, title: 'cancel drops pending', status: 'pass', checks: 51, checkedBy: ['case', 'checker'], judged: 50, reached: 50, declined: {}, declinedRuns: 0 },
  ]
  const report: Report = {
    suite: { version: '0.1.0' }, adapter: { name: 'loop', version: '1', supports: { ...DEFAULT_SUPPORTS } }, profile: 'quick', seed: 0, runs: 50, directedCases: 2,
    durationMs: 1000, clauses, complete: true, units: { planned: 52, ran: 52 }, passed: true, failing: [],
  }

  it('the text report says it on the clause line and in the totals', () => {
    const table = formatClauseTable(report)
    expect(table).toContain('X-CANCEL  (2 pass, 0 fail, 0 unchecked, 1 not judged)')
    expect(table).toMatch(/ \?\? +156 {2}first cause wins {2}\[checker 50; judged in 0 of 3 runs that reached it, declined in 3 \(F3 where the teardown's disposed abort reached the agent: 3\)\]/)
    expect(table).toMatch(/pass +148 {2}a latched wake runs {2}\[case\+checker 51; judged in 40 of 42 runs that reached it, declined in 2 \(§12 Q7 sent while the driver had no turn open: 2\)\]/)
    expect(table).toMatch(/pass +149 {2}cancel drops pending {2}\[case\+checker 51\]$/m)
    expect(formatReport(report)).toContain('2 clauses pass, 0 fail, 0 unchecked, 1 not judged (the checkers declined every run that reached them)')
  })

  it('the certificate page shows the status and the declines in the how-checked cell', () => {
    const html = renderCertificateHtml(report, { kitVersion: '0.0.0' })
    expect(html).toMatch(/data-key="X-CANCEL 156">.*<span class="status unjudged">not judged<\/span>.*<span class="declined">judged in 0 of 3 runs that reached it, declined in 3 \(F3 where the teardown's disposed abort reached the agent: 3\)<\/span>/)
    expect(html).toContain('<span class="count">1 not judged</span>')
    expect(html).not.toMatch(/judged: 0|reached: 3/)
  })

  it('a campaign report lists the clauses its checkers declined, most declined first', () => {
    const line = formatDeclines([
      { key: 'X-CANCEL 156', judged: 0, reached: 3, declined: { [F3]: 3 }, declinedRuns: 3, blind: 3 },
      { key: 'X-CANCEL 148', judged: 40, reached: 42, declined: { [Q7]: 2 }, declinedRuns: 2, blind: 0 },
      { key: 'X-CANCEL 149', judged: 50, reached: 50, declined: {}, declinedRuns: 0, blind: 0 },
    ])
    expect(line).toBe(`checkers declined: X-CANCEL 156 (NOT JUDGED) in 3 of 3 runs (${F3}), X-CANCEL 148 in 2 of 42 runs (${Q7})`)
    expect(formatDeclines([{ key: 'X-CANCEL 149', judged: 50, reached: 50, declined: {}, declinedRuns: 0, blind: 0 }])).toBe('checkers: every clause judged in every run that reached it')
  })

  it('a campaign report lists every checked clause with its counts, the same from one thread or two, and shards sum', async () => {
    const one = await runCampaign({ runs: 40, seed: 3, shrink: false })
    const two = await runCampaign({ runs: 40, seed: 3, shrink: false, workers: 2 })
    expect(one.clauses).toEqual(two.clauses)
    const c156 = one.clauses!.find((c) => c.key === 'X-CANCEL 156')!
    expect(c156.reached).toBeGreaterThanOrEqual(c156.judged)
    // A clause no checker can decline is judged in every run.
    // (40 run seeds: an interaction seed runs its suite program under several schedules too)
    expect(one.runs).toBeGreaterThan(40)
    expect(one.clauses!.find((c) => c.key === 'AGENT-RUNTIME-SCOPE 22')).toEqual({ key: 'AGENT-RUNTIME-SCOPE 22', judged: one.runs, reached: one.runs, declined: {}, declinedRuns: 0, blind: 0 })
    const first = await runCampaign({ runs: 20, seed: 3, shrink: false, guidance: false, shard: { index: 1, count: 2 } })
    const second = await runCampaign({ runs: 20, seed: 3, shrink: false, guidance: false, shard: { index: 2, count: 2 } })
    // As fuzz writes its JSON: each shard carries the kit version and its budget.
    const asWritten = (r: typeof first) => ({ ...r, kitVersion: '0.0.0-test', budget: { runs: 20 } })
    const merged = mergeReports([asWritten(first), asWritten(second)])
    expect(merged.clauses!.find((c) => c.key === 'AGENT-RUNTIME-SCOPE 22')!.judged).toBe(first.runs + second.runs)
  }, 120_000)

  it('certify counts, per checked clause, the runs judged and declined on the certificate\'s clause entries', async () => {
    const r = await certify(REFERENCE_ADAPTER, { only: ['X-CANCEL 156'], outDir: '.dsh-kit/test-failures' })
    const c = r.clauses.find((x) => x.key === 'X-CANCEL 156')!
    expect(c.status).toBe('pass')
    expect(c.judged).toBeGreaterThan(0)
    expect(c.reached).toBeGreaterThanOrEqual(c.judged!)
    expect(c.declined).toBeTypeOf('object')
    // A clause no checker can decline is judged in every run.
    const whole = r.clauses.find((x) => x.key === 'X-INPUT 159')
    if (whole?.judged !== undefined) expect(whole.judged).toBeGreaterThan(0)
  }, 120_000)
})
