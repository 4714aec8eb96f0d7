/**
 * The certificate page as text: self-contained, one row per clause with its status, how it was
 * checked or why not, and a link from each failing row to its (folded) section with the shrunk
 * program, the replay command and the timeline. The page in a real browser: `browser.test.ts`.
 */
import { describe, expect, it } from 'vitest'
import type { ClauseResult, Report } from '../../conformance/certify/report.js'
import { program, actor, create, on, act, unloadOwner } from '../../sim/program/build.js'
import { buildTimeline } from '../../sim/trace/timeline.js'
import { DEFAULT_SUPPORTS } from '../../conformance/adapters/adapter.js'
import { applyGate } from '../../conformance/certify/gate.js'
import { failureAnchor, renderCertificateHtml } from './html.js'
import { interactionStatement } from '../interaction-text.js'
import { formatReport } from '../certify-text.js'

const PROGRAM = program([actor('a1', create('s1'))], { listeners: [on('session/created', act(unloadOwner('a1')))] })
const size = { actors: 1, operations: 2, behaviours: 1, decisions: 4, preemptions: 0 }

const clauses: ClauseResult[] = [
  { key: 'AGENT-FACTORY-SEAM 1', group: 'AGENT-FACTORY-SEAM', clause: 1, title: 'create with no factory <rejects>', status: 'pass', checks: 1, checkedBy: ['case'] },
  { key: 'AGENT-REGISTRY-LIFECYCLE 79', group: 'AGENT-REGISTRY-LIFECYCLE', clause: 79, title: 'no agent/disposed for a never-announced entry', status: 'fail', checks: 585, checkedBy: ['case', 'checker'],
    failure: {
      message: '"s1": agent/disposed for an entry whose announcement never began', via: 'directed program', programName: 'reentrant', program: PROGRAM,
      strategy: 'random seed=0 run=0', seed: 0, decisions: 4, runFile: 'out/x-shrunk.json', replay: 'npx dsh-kit replay out/x-shrunk.json --adapter ./a.mjs',
      shrink: { shrunk: true, runs: 15, before: { ...size, operations: 3, actors: 2, decisions: 8 }, after: size, original: { program: PROGRAM, decisions: 8, runFile: 'out/x.json', replay: 'npx dsh-kit replay out/x.json --adapter ./a.mjs' } },
    } },
  { key: 'AGENT-TEARDOWN-TEST 93', group: 'AGENT-TEARDOWN-TEST', clause: 93, title: 'reentrant owner teardown', status: 'fail', checks: 1, checkedBy: ['case'],
    failure: { message: 'expected [a] got [b]', via: 'directed case', caseTitle: 'case 93', replay: 'npx dsh-kit certify --only "AGENT-TEARDOWN-TEST 93"' } },
  { key: 'AGENT-INITIATOR-DRAIN 136', group: 'AGENT-INITIATOR-DRAIN', clause: 136, title: 'cross-realm', status: 'unchecked', checks: 0, checkedBy: [], reason: 'needs capability scopeMinting' },
  // A field this renderer does not know (another version of the report): shown as how it was checked.
  { key: 'AGENT-CREATE-RESUME 45', group: 'AGENT-CREATE-RESUME', clause: 45, title: 'resume x', status: 'unchecked', checks: 0, checkedBy: [], ...{ why: 'needs a process restart the adapter cannot do' } } as ClauseResult,
]

const REPORT: Report = {
  suite: { version: '0.1.0' }, adapter: { name: 'my-loop', version: '1.2.3', supports: { ...DEFAULT_SUPPORTS }, module: './a.mjs' },
  profile: 'quick', seed: 7, runs: 584, directedCases: 135, durationMs: 4200, clauses, complete: true, units: { planned: 719, ran: 719 }, passed: false,
  failing: ['AGENT-REGISTRY-LIFECYCLE 79', 'AGENT-TEARDOWN-TEST 93'],
}

describe('renderCertificateHtml', () => {
  const timeline = buildTimeline(PROGRAM, { v: 1, entries: [] } as never, [], [])
  const html = renderCertificateHtml(REPORT, { kitVersion: '9.9.9', timelines: new Map([['AGENT-REGISTRY-LIFECYCLE 79', { timeline }]]) })

  it('is one self-contained page naming the adapter, the kit, the contract suite, the profile and the verdict', () => {
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).not.toMatch(/<link|<script src|<img|src="|href="(?!#)|@import|url\(/)
    expect(html).toContain('<title>dsh-kit certificate: my-loop@1.2.3</title>')
    expect(html).toContain('<th>kit</th><td>dsh-lifecycle-kit 9.9.9</td>')
    expect(html).toContain('<th>contract suite</th><td>0.1.0</td>')
    expect(html).toContain('<th>module</th><td>./a.mjs</td>')
    expect(html).toContain('<th>profile</th><td>quick, seed 7</td>')
    // The verdict counts the MUST clauses, and a MUST left unchecked is not passed: the page says so.
    expect(html).toContain('<div class="verdict FAILED" id="verdict">FAILED<small>2 MUST clauses left unchecked: AGENT-INITIATOR-DRAIN 136, AGENT-CREATE-RESUME 45</small></div>')
    expect(html).toContain('<span class="count tier-count" title="conformance-tested: a failure, or the clause left unchecked, fails the verdict">MUST 1/5 pass, 2 fail, 2 unchecked</span>')
  })

  it('has one row per clause, with its status, how it was checked or why not, and its checks', () => {
    expect(html.match(/<tr class="clause /g)).toHaveLength(clauses.length)
    expect(html).toContain('<td class="title">create with no factory &lt;rejects&gt;</td>')
    expect(html).toMatch(/data-key="AGENT-FACTORY-SEAM 1">.*<span class="status pass">pass<\/span>.*<td class="how">1 directed case<\/td><td class="checks">1<\/td>/)
    expect(html).toMatch(/data-key="AGENT-REGISTRY-LIFECYCLE 79">.*<td class="how">1 directed case and trace checkers on 584 simulated runs<\/td><td class="checks">585<\/td>/)
    expect(html).toMatch(/data-key="AGENT-INITIATOR-DRAIN 136">.*<span class="status unchecked">unchecked<\/span>.*<td class="how">needs capability scopeMinting<\/td>/)
    expect(html).toMatch(/data-key="AGENT-CREATE-RESUME 45">.*<span class="status unchecked">unchecked<\/span>.*<td class="how">needs a process restart the adapter cannot do<\/td>/)
  })

  it('links each failing row to its folded section: message, shrunk program, replay, the run as found, the timeline', () => {
    const id = failureAnchor('AGENT-REGISTRY-LIFECYCLE 79')
    expect(id).toBe('failure-agent-registry-lifecycle-79')
    expect(html).toMatch(new RegExp(`data-key="AGENT-REGISTRY-LIFECYCLE 79"><td class="key"><a href="#${id}">`))
    const section = html.slice(html.indexOf(`<details class="failure" id="${id}">`), html.indexOf('</details>', html.indexOf(`id="${id}"`)))
    expect(section).not.toContain('<details class="failure" id="failure-agent-registry-lifecycle-79" open')
    expect(section).toContain('<pre class="message">&quot;s1&quot;: agent/disposed for an entry whose announcement never began</pre>')
    expect(section).toContain('shrunk from 3 operations to 2 (in 15 runs: operations 3 → 2, actors 2 → 1, behaviours 1, decisions 8 → 4, preemptions 0)')
    expect(section).toContain(`<h4>program (shrunk)</h4><pre class="program">program([\n  actor('a1', create('s1')),\n], {`)
    expect(section).toContain('<pre class="replay">npx dsh-kit replay out/x-shrunk.json --adapter ./a.mjs</pre>')
    expect(section).toContain('as found (8 decisions): <code>npx dsh-kit replay out/x.json --adapter ./a.mjs</code>')
    expect(section).toContain(`<table id="${id}-lanes" class="lanes">`)
    // A directed case has no run: its rerun command, and no timeline.
    const caseSection = html.slice(html.indexOf(`id="${failureAnchor('AGENT-TEARDOWN-TEST 93')}"`))
    expect(caseSection).toContain('found by directed case “case 93”')
    expect(caseSection).toContain('<pre class="replay">npx dsh-kit certify --only &quot;AGENT-TEARDOWN-TEST 93&quot;</pre>')
    expect(caseSection.slice(0, caseSection.indexOf('</details>'))).not.toContain('class="lanes"')
  })

  it('with a baseline: known failures and unchecked clauses marked with their reason and link, the baseline in the head', () => {
    const gated = applyGate(REPORT, {
      kit: '0.1.0', contract: '0.1.0', adapter: 'my-loop@1.2.3',
      failures: [{ clause: 'AGENT-TEARDOWN-TEST 93', reason: 'upstream bug #12', link: 'https://example.com/12' }, { clause: 'AGENT-REGISTRY-LIFECYCLE 79', reason: '', link: '' }],
      unchecked: [{ clause: 'AGENT-INITIATOR-DRAIN 136', reason: 'no scope minting', link: '' }, { clause: 'AGENT-CREATE-RESUME 45', reason: 'no restart', link: '' }],
    }, 'dsh-kit.baseline.json')
    const page = renderCertificateHtml(gated, { kitVersion: '9.9.9' })
    expect(page).toContain('<div class="verdict PASSED" id="verdict">PASSED<small>baseline dsh-kit.baseline.json: 2 known failures, 2 known unchecked</small></div>')
    expect(page).toContain('<th>baseline</th><td>dsh-kit.baseline.json, written for my-loop@1.2.3 (kit 0.1.0, contract 0.1.0): 2 known failures, 2 known unchecked</td>')
    expect(page).toMatch(/<tr class="clause fail known" data-tier="MUST" data-key="AGENT-TEARDOWN-TEST 93">.*<span class="status fail known">FAIL · known<\/span>.*<div class="known-note">known \(baseline\): upstream bug #12 \(<a href="https:\/\/example.com\/12">https:\/\/example.com\/12<\/a>\)<\/div>/)
    expect(page).toMatch(/data-key="AGENT-INITIATOR-DRAIN 136">.*<div class="known-note">known \(baseline\): no scope minting<\/div>/)
    expect(page).toContain('<span class="count known">2 known failures, 2 known unchecked</span>')
    expect(page).toContain('<a href="#failure-agent-teardown-test-93" class="known">AGENT-TEARDOWN-TEST 93</a> (known)')
  })

  it('a passing certificate says so and has no failure section', () => {
    const passed = renderCertificateHtml({ ...REPORT, clauses: [clauses[0]!], failing: [], passed: true }, { kitVersion: '1' })
    expect(passed).toContain('<div class="verdict PASSED" id="verdict">PASSED</div>')
    expect(passed).not.toContain('<details')
  })
})

describe('the interaction coverage a certificate states', () => {
  const levels = [
    { t: 2, covered: 1234, total: 1234, scope: 'one session: 26 triggers × 27 actions' },
    { t: 3, covered: 4101, total: 4142, scope: 'one session: 26 triggers × 27 actions' },
  ]

  it('says what it covered in full and the share of the rest, on the page and in the text', () => {
    expect(interactionStatement(levels)).toBe('every 2-way interaction over one session; 3-way: 99%')
    expect(interactionStatement([{ ...levels[0]!, covered: 1000 }, levels[1]!])).toBe('2-way: 81%; 3-way: 99%')
    const html = renderCertificateHtml({ ...REPORT, interactionCoverage: levels }, { kitVersion: '9.9.9' })
    expect(html).toContain('<th>interactions</th><td>every 2-way interaction over one session; 3-way: 99%</td>')
    expect(html).toContain('<th>interaction coverage</th><td>(one session: 26 triggers × 27 actions): 2-way 1234/1234 (100%), 3-way 4101/4142 (99%)</td>')
    expect(formatReport({ ...REPORT, interactionCoverage: levels })).toMatch(/^interaction coverage \(one session: 26 triggers × 27 actions\): 2-way 1234\/1234 \(100%\), 3-way 4101\/4142 \(99%\); covered: every 2-way interaction over one session; 3-way: 99%$/m)
    expect(renderCertificateHtml(REPORT, { kitVersion: '9.9.9' })).not.toContain('<th>interactions</th>')
  })
})
