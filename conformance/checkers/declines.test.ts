/**
 * The decline counter and the README's inventory stay in step: every reason names rows the README
 * lists, every row the README keeps (or narrows) is named by a reason (a removed one may still be,
 * for a trace recorded without facts), and a run's counts add up
 * per run (a clause reached, judged, declined for a reason, blind when the reason is not the
 * contract's).
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { contractReason, DeclineCounts, DeclineTally, INSTRUMENTED_CLAUSES, R, REASONS } from './declines.js'

const README = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'README.md'), 'utf8')

/** The inventory's rows, and the status table's verdict per row. */
function readme(): { rows: Set<string>; status: Map<string, string> } {
  const rows = new Set([...README.matchAll(/^\| (D\d+) \| `/gm)].map((m) => m[1]!))
  const status = new Map([...README.matchAll(/^\| (D\d+) \| (removed|narrowed|kept|not counted) \|/gm)].map((m) => [m[1]!, m[2]!]))
  return { rows, status }
}

describe('declines', () => {
  it('every reason names rows of the README inventory, and every row still declining is named by a reason', () => {
    const { rows, status } = readme()
    expect(rows.size).toBe(70)
    expect([...status.keys()].sort()).toEqual([...rows].sort())
    const named = new Set(REASONS.flatMap((r) => r.rows))
    for (const row of named) expect(rows.has(row), row).toBe(true)
    for (const [row, verdict] of status) {
      // (a removed row may still be counted for a trace recorded without facts)
      if (verdict === 'kept' || verdict === 'narrowed') expect(named.has(row), `${row} is ${verdict} but no reason counts it`).toBe(true)
    }
  })

  it('a reason the contract leaves open cites its section; every other names the fact the trace lacks', () => {
    for (const r of REASONS) expect(r.key, r.key).toMatch(/^(§\d+(\.\d+)? |F\d+ |no facts recorded)/)
    expect(contractReason(R.exitGap.key)).toBe(true)
    expect(contractReason(R.teardownReach.key)).toBe(false)
  })

  it('counts per run: a clause is reached once, judged once, declined once per reason, however many units said so', () => {
    const tally = new DeclineTally()
    const counts = new DeclineCounts()
    // Run 1: 156 judged twice and declined once for a blind reason; 19 declined for the contract's.
    tally.judged(156)
    tally.judged(156)
    tally.declined(156, R.teardownReach)
    tally.declined(19, R.exitGap)
    tally.declined(19, R.exitGap)
    counts.addRun(tally.takeRun())
    // Run 2: 156 judged only; run 3: nothing of theirs.
    tally.judged(156)
    counts.addRun(tally.takeRun())
    counts.addRun(tally.takeRun())
    expect(counts.runs).toBe(3)
    expect(counts.of(156)).toEqual({ judged: 2, reached: 2, declined: { [R.teardownReach.key]: 1 }, declinedRuns: 1, blind: 1 })
    expect(counts.of(19)).toEqual({ judged: 0, reached: 1, declined: { [R.exitGap.key]: 1 }, declinedRuns: 1, blind: 0 })
    // A clause none of whose checks can decline is judged in every run.
    expect(INSTRUMENTED_CLAUSES).not.toContain(22)
    expect(counts.of(22)).toEqual({ judged: 3, reached: 3, declined: {}, declinedRuns: 0, blind: 0 })
  })
})
