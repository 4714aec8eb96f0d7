/**
 * The comparison of certificates as data and as a page: the clauses where the implementations
 * differ come first, a clause one certificate does not cover is `absent`, each failing cell carries
 * its shrunk program and replay command (or the directed case's rerun), the group totals add up,
 * and a file that is not a certificate is refused naming the field. (The page in a real browser:
 * `cli/compare-page.test.ts`.)
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_SUPPORTS } from '../../conformance/adapters/adapter.js'
import { applyGate } from '../../conformance/certify/gate.js'
import type { ClauseResult, Report } from '../../conformance/certify/report.js'
import { actor, create, program } from '../../sim/program/build.js'
import { cellAnchor, compareCertificates, CompareError, readCertificate, renderComparisonHtml } from './index.js'

const PROGRAM = program([actor('a1', create('s1'))])

function cert(name: string, statuses: Record<string, ClauseResult['status']>): Report {
  const clauses: ClauseResult[] = Object.entries(statuses).map(([key, status]) => ({
    key, group: key.replace(/ \d+$/, ''), clause: Number(/\d+$/.exec(key)![0]), title: `title of ${key}`, status, checks: status === 'unchecked' ? 0 : 1, checkedBy: [],
    ...(status === 'fail' && key.endsWith('97') ? { failure: { message: `${name} broke 97\nsecond line`, via: 'random program', programName: 'random-3', program: PROGRAM, replay: `npx dsh-kit replay runs/${name}-97.json --adapter ./${name}.mjs`, shrink: { shrunk: true, runs: 3, original: { program: PROGRAM, decisions: 4 } } } } : {}),
    ...(status === 'fail' && !key.endsWith('97') ? { failure: { message: `${name} broke`, via: 'directed case', caseTitle: 'the case', replay: `npx dsh-kit certify --only "${key}"` } } : {}),
    ...(status === 'unchecked' ? { reason: 'needs capability scopeMinting' } : {}),
  }))
  return applyGate({
    suite: { version: '0.1.0' }, adapter: { name, version: '1.0.0', supports: { ...DEFAULT_SUPPORTS } }, profile: 'quick', seed: 0, runs: 1, directedCases: 1, durationMs: 1,
    clauses, complete: true, units: { planned: 1, ran: 1 }, passed: false, failing: clauses.filter((c) => c.status === 'fail').map((c) => c.key),
  })
}

const REF = cert('ref', { 'AGENT-FACTORY-SEAM 1': 'pass', 'AGENT-PREPARE-PUBLISH 59': 'pass', 'AGENT-TEARDOWN-TEST 93': 'pass', 'AGENT-TEARDOWN-TEST 97': 'pass' })
const UP = applyGate(cert('up', { 'AGENT-FACTORY-SEAM 1': 'pass', 'AGENT-PREPARE-PUBLISH 59': 'unchecked', 'AGENT-TEARDOWN-TEST 93': 'fail', 'AGENT-TEARDOWN-TEST 97': 'fail' }), {
  kit: '0.1.0', contract: '0.1.0', adapter: 'up@1.0.0', failures: [{ clause: 'AGENT-TEARDOWN-TEST 97', reason: 'wake during teardown', link: 'REPORT.md#97' }],
})
const PART = cert('part', { 'AGENT-TEARDOWN-TEST 97': 'pass' })

describe('compareCertificates', () => {
  const c = compareCertificates([{ file: 'ref.json', report: REF }, { file: 'up.json', report: UP }, { file: 'part.json', report: PART }])

  it('one column per certificate, one row per clause any covers, the differing ones first in clause order', () => {
    expect(c.columns.map((x) => [x.label, x.verdict, x.pass, x.fail, x.unchecked, x.known])).toEqual([
      ['ref@1.0.0', 'PASSED', 4, 0, 0, 0], ['up@1.0.0', 'FAILED', 1, 2, 1, 1], ['part@1.0.0', 'PASSED', 1, 0, 0, 0],
    ])
    expect(c.rows.map((r) => [r.key, r.differs])).toEqual([
      ['AGENT-FACTORY-SEAM 1', true], ['AGENT-PREPARE-PUBLISH 59', true], ['AGENT-TEARDOWN-TEST 93', true], ['AGENT-TEARDOWN-TEST 97', true],
    ])
    const same = compareCertificates([{ file: 'a', report: REF }, { file: 'b', report: REF }])
    expect(same.differing).toBe(0)
    // Two certificates of the same implementation are told apart by their file.
    expect(same.columns.map((x) => x.label)).toEqual(['ref@1.0.0 (a)', 'ref@1.0.0 (b)'])
    const mixed = compareCertificates([{ file: 'ref.json', report: REF }, { file: 'up.json', report: UP }])
    expect(mixed.rows.map((r) => r.key)).toEqual(['AGENT-PREPARE-PUBLISH 59', 'AGENT-TEARDOWN-TEST 93', 'AGENT-TEARDOWN-TEST 97', 'AGENT-FACTORY-SEAM 1'])
    expect(mixed.differing).toBe(3)
  })

  it('a failing cell carries what reproduces it: the shrunk program and replay of a run, the rerun of a directed case; a known one its reason', () => {
    const row = (key: string) => c.rows.find((r) => r.key === key)!
    expect(row('AGENT-TEARDOWN-TEST 97').cells[1]).toEqual({
      status: 'fail', known: { reason: 'wake during teardown', link: 'REPORT.md#97' }, detail: 'up broke 97', via: 'random program "random-3" (shrunk)',
      program: "program([\n  actor('a1', create('s1')),\n])", replay: 'npx dsh-kit replay runs/up-97.json --adapter ./up.mjs',
    })
    expect(row('AGENT-TEARDOWN-TEST 93').cells[1]).toMatchObject({ status: 'fail', via: 'directed case "the case"', replay: 'npx dsh-kit certify --only "AGENT-TEARDOWN-TEST 93"' })
    expect(row('AGENT-PREPARE-PUBLISH 59').cells.map((x) => [x.status, x.detail])).toEqual([['pass', undefined], ['unchecked', 'needs capability scopeMinting'], ['absent', undefined]])
  })

  it('per-group totals per implementation', () => {
    expect(c.groups.map((g) => [g.group, g.clauses, g.totals.map((t) => `${t.pass}/${t.fail}/${t.unchecked}`)])).toEqual([
      ['AGENT-FACTORY-SEAM', 1, ['1/0/0', '1/0/0', '0/0/0']],
      ['AGENT-PREPARE-PUBLISH', 1, ['1/0/0', '0/0/1', '0/0/0']],
      ['AGENT-TEARDOWN-TEST', 2, ['2/0/0', '0/2/0', '1/0/0']],
    ])
  })

  it('the page: self-contained and deterministic, every cell, a failing cell linked to its section with program and replay', () => {
    const html = renderComparisonHtml(c)
    expect(renderComparisonHtml(compareCertificates([{ file: 'ref.json', report: REF }, { file: 'up.json', report: UP }, { file: 'part.json', report: PART }]))).toBe(html)
    expect(html).not.toMatch(/<link|<script src|<img|src="|href="(?!#)|@import|url\(/)
    expect(html.match(/<tr class="clause/g)).toHaveLength(4)
    expect(html.match(/<td class="cell"/g)).toHaveLength(12)
    const anchor = cellAnchor(1, 'AGENT-TEARDOWN-TEST 97')
    expect(anchor).toBe('cell-2-agent-teardown-test-97')
    expect(html).toContain(`<a href="#${anchor}"><span class="st fail known">FAIL · known</span></a>`)
    const section = html.slice(html.indexOf(`id="${anchor}"`), html.indexOf('</details>', html.indexOf(`id="${anchor}"`)))
    expect(section).toContain(`<pre class="program">program([\n  actor('a1', create('s1')),\n])</pre>`)
    expect(section).toContain('<h4>replay</h4><pre class="replay">npx dsh-kit replay runs/up-97.json --adapter ./up.mjs</pre>')
    expect(section).toContain('known (baseline): wake during teardown (REPORT.md#97)')
    expect(html).toContain('<td class="cell" data-status="absent"><span class="st absent">not run</span></td>')
  })
})

describe('readCertificate', () => {
  it('takes what certify --json writes and refuses anything else, naming the field', () => {
    expect(readCertificate(JSON.parse(JSON.stringify(REF)), 'ref.json').adapter.name).toBe('ref')
    for (const [value, message] of [
      [[], /^x\.json: not a certificate/],
      [{ ...REF, adapter: { name: 'x' } }, /^x\.json: adapter\.name and adapter\.version must be strings/],
      [{ ...REF, clauses: {} }, /^x\.json: clauses must be a list/],
      [{ ...REF, clauses: [{ ...REF.clauses[0], key: 'NOPE 1' }] }, /^x\.json: clauses\[0\]\.key must be a clause key/],
      [{ ...REF, clauses: [{ ...REF.clauses[0], status: 'kit' }] }, /^x\.json: clauses\[0\]\.status must be pass, fail or unchecked, got "kit"/],
      [{ ...REF, passed: 'yes' }, /^x\.json: passed must be true or false/],
    ] as const) {
      expect(() => readCertificate(value, 'x.json')).toThrow(CompareError)
      expect(() => readCertificate(value, 'x.json')).toThrow(message)
    }
  })
})
