/**
 * JUnit XML, the report format every CI reads: one `<testcase>` per clause for a certificate (a
 * failure carries the counterexample and its replay command; unchecked and kit-level clauses are
 * `<skipped>` with the reason), one per finding for a campaign (or one passing case when it found
 * nothing).
 * @module
 */
import type { ClauseResult, Report } from '../conformance/certify/report.js'
import { formatFailure } from '../conformance/certify/failure-text.js'
import type { CampaignReport } from '../scenarios/campaign/types.js'
import { formatCampaignFailure } from './campaign-text.js'

/** Escape text for an XML attribute or text node (and drop characters XML 1.0 forbids). */
export function xmlEscape(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

interface Case {
  readonly classname: string
  readonly name: string
  readonly time?: number
  readonly failure?: { readonly message: string; readonly body: string }
  readonly skipped?: string
}

function suiteXml(name: string, cases: readonly Case[], timeS: number): string {
  const failures = cases.filter((c) => c.failure).length
  const skipped = cases.filter((c) => c.skipped !== undefined).length
  const body = cases.map((c) => {
    const head = `    <testcase classname="${xmlEscape(c.classname)}" name="${xmlEscape(c.name)}" time="${(c.time ?? 0).toFixed(3)}"`
    if (c.failure) return `${head}>\n      <failure message="${xmlEscape(c.failure.message)}" type="violation">${xmlEscape(c.failure.body)}</failure>\n    </testcase>`
    if (c.skipped !== undefined) return `${head}>\n      <skipped message="${xmlEscape(c.skipped)}"/>\n    </testcase>`
    return `${head}/>`
  }).join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="dsh-kit" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${timeS.toFixed(3)}">
  <testsuite name="${xmlEscape(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${timeS.toFixed(3)}">
${body}
  </testsuite>
</testsuites>
`
}


/** A certificate as JUnit XML. */
export function certifyJUnit(report: Report): string {
  const cases: Case[] = report.clauses.map((c) => ({
    classname: c.group,
    name: `${c.key}: ${c.title}`,
    ...(c.status === 'fail' ? { failure: { message: c.failure?.message ?? 'failed', body: formatFailure(c, true) } } : {}),
    ...(c.status === 'unchecked' ? { skipped: c.reason ?? 'no directed case or checker covered it in this certification' } : {}),
  }))
  if (!report.complete) {
    cases.push({ classname: 'dsh-kit', name: 'certification completed', failure: { message: report.incomplete ?? 'incomplete', body: `${report.units.ran} of ${report.units.planned} units ran` } })
  }
  return suiteXml(`certify ${report.adapter.name}@${report.adapter.version} (${report.profile})`, cases, report.durationMs / 1000)
}

/** A campaign's (or merged campaign's) findings as JUnit XML. */
export function campaignJUnit(report: CampaignReport & { durationMs?: number }): string {
  const cases: Case[] = report.failures.map((f) => ({
    classname: f.key.replace(/ \d+$/, ''),
    name: `${f.key}: seed ${f.runSeed}`,
    failure: { message: f.message, body: formatCampaignFailure(f, { timelines: true }) },
  }))
  if (cases.length === 0) cases.push({ classname: 'dsh-kit.fuzz', name: `no violation in ${report.runs} runs`, ...(report.runs === 0 ? { failure: { message: 'no run completed', body: '' } } : {}) })
  const what = report.mode === 'scenario' ? `scenario ${report.scenario}` : 'random programs'
  return suiteXml(`fuzz ${report.adapter}: ${what}, seed ${report.seed}`, cases, (report.durationMs ?? 0) / 1000)
}
