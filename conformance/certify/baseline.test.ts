/**
 * Baselines and the gate, as data: a baseline file is checked field by field (each error names the
 * field), `baselineOf` lists what a certificate fails and leaves unchecked (keeping the reasons of
 * the file it rewrites), and `applyGate` is two-way: known entries pass, anything new fails, and an
 * entry that no longer holds fails too. The verdict counts the MUST clauses, and an unchecked MUST is
 * not passed. (The same through the CLI, on a gallery mutant: `cli/baseline.test.ts`.)
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_SUPPORTS } from '../adapters/adapter.js'
import { baselineOf, BaselineError, formatBaseline, knownViolations, parseBaseline } from './baseline.js'
import type { Baseline } from './baseline.js'
import { verdictOf } from './failure-text.js'
import { applyGate } from './gate.js'
import type { ClauseResult, Report } from './report.js'

const clause = (key: string, status: ClauseResult['status'], extra: Partial<ClauseResult> = {}): ClauseResult => {
  const [group, n] = [key.replace(/ \d+$/, ''), Number(/\d+$/.exec(key)![0])]
  return {
    key, group, clause: n, title: `clause ${n}`, status, checks: status === 'unchecked' ? 0 : 1, checkedBy: status === 'unchecked' ? [] : ['case'],
    ...(status === 'fail' ? { failure: { message: `${key} broke`, via: 'directed case', caseTitle: 'a case', replay: 'npx dsh-kit certify' } } : {}),
    ...(status === 'unchecked' ? { reason: 'needs capability scopeMinting' } : {}),
    ...extra,
  }
}

function report(clauses: ClauseResult[], complete = true): Report {
  return applyGate({
    suite: { version: '0.1.0' }, adapter: { name: 'my-loop', version: '1.0.0', supports: { ...DEFAULT_SUPPORTS } },
    profile: 'quick', seed: 0, runs: 0, directedCases: clauses.length, durationMs: 1, clauses, complete,
    ...(complete ? {} : { incomplete: 'stopped' }), units: { planned: 3, ran: complete ? 3 : 1 },
    passed: false, failing: clauses.filter((c) => c.status === 'fail').map((c) => c.key),
  })
}

const CERT = report([clause('AGENT-FACTORY-SEAM 1', 'pass'), clause('AGENT-TEARDOWN-TEST 97', 'fail'), clause('AGENT-PREPARE-PUBLISH 59', 'unchecked')])
const BASE: Baseline = {
  kit: '0.1.0', contract: '0.1.0', adapter: 'my-loop@1.0.0',
  failures: [{ clause: 'AGENT-TEARDOWN-TEST 97', reason: 'bug #1', link: 'https://example.com/1' }],
  unchecked: [{ clause: 'AGENT-PREPARE-PUBLISH 59', reason: 'no scope minting', link: '' }],
}

describe('a baseline file', () => {
  it('round-trips the shape certify writes, reason and link optional in an entry', () => {
    expect(parseBaseline(formatBaseline(BASE), 'b.json')).toEqual(BASE)
    expect(parseBaseline('{"kit":"0.1.0","contract":"0.1.0","adapter":"x@1","failures":[{"clause":"AGENT-TEARDOWN-TEST 97"}]}', 'b.json').failures)
      .toEqual([{ clause: 'AGENT-TEARDOWN-TEST 97', reason: '', link: '' }])
  })

  it('is refused with the file and the field named', () => {
    const base = { kit: '0.1.0', contract: '0.1.0', adapter: 'x@1', failures: [] as unknown[] }
    for (const [value, message] of [
      ['not json', /^b\.json: not JSON/],
      [[], /^b\.json: the file must hold a JSON object/],
      [{ ...base, kit: 1 }, /^b\.json: "kit" must be a string, got 1$/],
      [{ kit: '1', contract: '1', adapter: 'x' }, /^b\.json: "failures" is missing/],
      [{ ...base, extra: 1 }, /^b\.json: field "extra" is not a baseline field/],
      [{ ...base, failures: {} }, /^b\.json: "failures" must be a list, got an object$/],
      [{ ...base, failures: ['AGENT-TEARDOWN-TEST 97'] }, /^b\.json: failures\[0\] must be an object/],
      [{ ...base, failures: [{ clause: 'AGENT-TEARDOWN-TEST 999' }] }, /^b\.json: failures\[0\]\.clause "AGENT-TEARDOWN-TEST 999" is not a clause/],
      [{ ...base, failures: [{ clause: 'agent-teardown-test  97' }] }, /failures\[0\]\.clause "agent-teardown-test {2}97" is not a clause; did you mean "AGENT-TEARDOWN-TEST 97"\?/],
      [{ ...base, failures: [{ clause: 'AGENT-TEARDOWN-TEST 97', reason: 7 }] }, /^b\.json: failures\[0\]\.reason must be a string, got 7$/],
      [{ ...base, failures: [{ clause: 'AGENT-TEARDOWN-TEST 97', why: '' }] }, /^b\.json: failures\[0\]\.why is not an entry field/],
      [{ ...base, unchecked: [{ clause: 'AGENT-PREPARE-PUBLISH 59', reason: ' ' }] }, /^b\.json: unchecked\[0\]\.reason is empty: an unchecked clause is accepted only with its reason/],
      [{ ...base, failures: [{ clause: 'AGENT-TEARDOWN-TEST 97' }], findings: [{ clause: 'AGENT-TEARDOWN-TEST 97' }] }, /^b\.json: findings\[0\]\.clause "AGENT-TEARDOWN-TEST 97" is listed twice \(also at failures\[0\]\)$/],
    ] as const) {
      const text = typeof value === 'string' ? value : JSON.stringify(value)
      expect(() => parseBaseline(text, 'b.json'), text).toThrow(BaselineError)
      expect(() => parseBaseline(text, 'b.json'), text).toThrow(message)
    }
  })

  it('written from a certificate: every failure, every unchecked MUST with its reason; the reasons of the file it rewrites kept', () => {
    expect(baselineOf(CERT, '0.1.0')).toEqual({
      kit: '0.1.0', contract: '0.1.0', adapter: 'my-loop@1.0.0',
      failures: [{ clause: 'AGENT-TEARDOWN-TEST 97', reason: '', link: '' }],
      unchecked: [{ clause: 'AGENT-PREPARE-PUBLISH 59', reason: 'needs capability scopeMinting', link: '' }],
    })
    const finding = { clause: 'AGENT-TEARDOWN-TEST 115', reason: 'fuzz only', link: '' }
    const old = { ...BASE, failures: [...BASE.failures, { clause: 'AGENT-ATOMIC-TEST 64', reason: 'gone', link: '' }], findings: [finding] }
    // 97 keeps its reason; 64 is not covered by this certificate (--only), so it stays (in clause order); the finding stays.
    expect(baselineOf(CERT, '0.2.0', old)).toEqual({ ...BASE, kit: '0.2.0', failures: [old.failures[1], BASE.failures[0]], findings: [finding] })
    expect(knownViolations(old)).toEqual(new Map([
      ['AGENT-TEARDOWN-TEST 97', { reason: 'bug #1', link: 'https://example.com/1' }], ['AGENT-ATOMIC-TEST 64', { reason: 'gone', link: '' }], ['AGENT-TEARDOWN-TEST 115', { reason: 'fuzz only', link: '' }],
    ]))
  })
})

describe('the gate', () => {
  it('without a baseline: a failing MUST fails the verdict, and so does a MUST left unchecked', () => {
    expect(CERT.passed).toBe(false)
    expect(CERT.gate).toEqual({ newFailures: ['AGENT-TEARDOWN-TEST 97'], newUnchecked: ['AGENT-PREPARE-PUBLISH 59'], uncounted: [] })
    expect(verdictOf(CERT)).toEqual({ verdict: 'FAILED', why: '1 MUST clause left unchecked: AGENT-PREPARE-PUBLISH 59' })
    const onlyUnchecked = report([clause('AGENT-FACTORY-SEAM 1', 'pass'), clause('AGENT-PREPARE-PUBLISH 59', 'unchecked')])
    expect(onlyUnchecked.passed).toBe(false)
    expect(verdictOf(onlyUnchecked)).toEqual({ verdict: 'FAILED', why: '1 MUST clause left unchecked: AGENT-PREPARE-PUBLISH 59' })
    expect(CERT.tiers).toEqual({ MUST: { clauses: 3, pass: 1, fail: 1, unchecked: 1 }, SHOULD: { clauses: 0, pass: 0, fail: 0, unchecked: 0 }, divergence: { clauses: 0, pass: 0, fail: 0, unchecked: 0 } })
    expect(CERT.clauses.map((c) => c.tier)).toEqual(['MUST', 'MUST', 'MUST'])
  })

  it('with the baseline it describes: passes, each listed clause known with its reason', () => {
    const gated = applyGate(CERT, BASE, 'b.json')
    expect(gated.passed).toBe(true)
    expect(verdictOf(gated)).toEqual({ verdict: 'PASSED', why: 'baseline b.json: 1 known failure, 1 known unchecked' })
    expect(gated.clauses.map((c) => c.known)).toEqual([undefined, { reason: 'bug #1', link: 'https://example.com/1' }, { reason: 'no scope minting', link: '' }])
    expect(gated.gate?.baseline).toEqual({ file: 'b.json', kit: '0.1.0', contract: '0.1.0', adapter: 'my-loop@1.0.0', knownFailures: ['AGENT-TEARDOWN-TEST 97'], knownUnchecked: ['AGENT-PREPARE-PUBLISH 59'], stale: [], notCovered: [] })
  })

  it('two-way: a failure it does not list fails, and so does a listed failure that now passes', () => {
    const missing = applyGate(CERT, { ...BASE, failures: [] }, 'b.json')
    expect(missing.passed).toBe(false)
    expect(verdictOf(missing)).toEqual({ verdict: 'FAILED', why: '1 new failure not in the baseline: AGENT-TEARDOWN-TEST 97' })
    const extra = applyGate(CERT, { ...BASE, failures: [...BASE.failures, { clause: 'AGENT-FACTORY-SEAM 1', reason: '', link: '' }] }, 'b.json')
    expect(extra.passed).toBe(false)
    expect(extra.gate?.baseline?.stale).toEqual([{ clause: 'AGENT-FACTORY-SEAM 1', listed: 'failures', now: 'pass' }])
    expect(verdictOf(extra)).toEqual({ verdict: 'FAILED', why: 'the baseline is out of date: AGENT-FACTORY-SEAM 1 now passes (remove it from "failures")' })
  })

  it('an unchecked clause is known only in "unchecked"; a listed failure that became unchecked, or the reverse, is out of date', () => {
    const asFailure = applyGate(CERT, { ...BASE, failures: [...BASE.failures, { clause: 'AGENT-PREPARE-PUBLISH 59', reason: 'x', link: '' }], unchecked: [] })
    expect(verdictOf(asFailure)).toEqual({ verdict: 'FAILED', why: '1 MUST clause left unchecked and not in the baseline: AGENT-PREPARE-PUBLISH 59; the baseline is out of date: AGENT-PREPARE-PUBLISH 59 is now unchecked (move it to "unchecked" with the reason)' })
    const nowFails = applyGate(CERT, { ...BASE, failures: [], unchecked: [...BASE.unchecked!, { clause: 'AGENT-TEARDOWN-TEST 97', reason: 'x', link: '' }] })
    expect(nowFails.gate?.newFailures).toEqual(['AGENT-TEARDOWN-TEST 97'])
    expect(nowFails.gate?.baseline?.stale).toEqual([{ clause: 'AGENT-TEARDOWN-TEST 97', listed: 'unchecked', now: 'fail' }])
  })

  it('entries for clauses the certification did not cover (--only) are neither known nor stale', () => {
    const gated = applyGate(CERT, { ...BASE, failures: [...BASE.failures, { clause: 'AGENT-ATOMIC-TEST 64', reason: '', link: '' }] })
    expect(gated.passed).toBe(true)
    expect(gated.gate?.baseline?.notCovered).toEqual(['AGENT-ATOMIC-TEST 64'])
  })

  it('counts only the MUST clauses: a failing clause of another tier is reported, not counted', () => {
    const divergent = report([clause('AGENT-FACTORY-SEAM 1', 'pass'), clause('AGENT-TEARDOWN-TEST 98', 'fail', { tier: 'divergence' })])
    expect(divergent.passed).toBe(true)
    expect(divergent.gate).toMatchObject({ newFailures: [], uncounted: ['AGENT-TEARDOWN-TEST 98'] })
    expect(divergent.tiers?.divergence).toEqual({ clauses: 1, pass: 0, fail: 1, unchecked: 0 })
    expect(verdictOf(divergent).verdict).toBe('PASSED')
  })

  it('incomplete stays INCOMPLETE (the unchecked clauses of units that never ran are not a failure), and a new failure wins', () => {
    const cut = report([clause('AGENT-FACTORY-SEAM 1', 'pass'), clause('AGENT-PREPARE-PUBLISH 59', 'unchecked')], false)
    expect(verdictOf(cut).verdict).toBe('INCOMPLETE')
    const cutFailing = report([clause('AGENT-TEARDOWN-TEST 97', 'fail')], false)
    expect(verdictOf(cutFailing)).toEqual({ verdict: 'FAILED', why: 'and incomplete: stopped' })
  })
})
