/**
 * JUnit XML, the report format every CI reads: one `<testcase>` per clause for a certificate (a
 * failure carries the counterexample and its replay command; a known failure of the baseline is
 * `<skipped>` with its reason, and so are unchecked clauses the verdict accepts, while a MUST left
 * unchecked fails), one per finding for a campaign (a known one skipped), or one passing case when
 * it found nothing.
 * @module
 */
import type { ClauseResult, Report } from '../conformance/certify/report.js'
import { formatFailure } from '../conformance/certify/failure-text.js'
import { clauseTier, gateOf } from '../conformance/certify/gate.js'
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
  const cases: Case[] = report.clauses.map((c) => ({ classname: c.group, name: `${c.key}: ${c.title}`, ...clauseOutcome(c) }))
  if (!report.complete) {
    cases.push({ classname: 'dsh-kit', name: 'certification completed', failure: { message: report.incomplete ?? 'incomplete', body: `${report.units.ran} of ${report.units.planned} units ran` } })
  }
  // A baseline entry that no longer holds fails the gate: one failing testcase each, saying the fix.
  for (const e of gateOf(report).baseline?.stale ?? []) {
    const now = e.now === 'pass' ? 'now passes' : e.now === 'fail' ? 'is now checked and fails' : 'is now unchecked'
    cases.push({ classname: 'dsh-kit.baseline', name: `baseline entry ${e.clause}`, failure: { message: `${e.clause} is listed in "${e.listed}" but ${now}: update the baseline`, body: 'dsh-kit certify --write-baseline <file> rewrites it from this certificate' } })
  }
  return suiteXml(`certify ${report.adapter.name}@${report.adapter.version} (${report.profile})`, cases, report.durationMs / 1000)
}

/**
 * A clause's JUnit outcome: a known failure (listed in the baseline) is skipped with its reason, a
 * failure of a tier the verdict does not count is skipped saying so, a MUST clause left unchecked
 * and not in the baseline fails (unchecked is not passed), other unchecked clauses are skipped.
 */
function clauseOutcome(c: ClauseResult): Pick<Case, 'failure' | 'skipped'> {
  const tier = clauseTier(c)
  const known = c.known ? `known (baseline): ${c.known.reason || 'listed in the baseline'}${c.known.link ? ` (${c.known.link})` : ''}` : undefined
  if (c.status === 'fail') {
    if (known) return { skipped: `${known}; fails with: ${c.failure?.message.split('\n')[0] ?? 'failed'}` }
    if (tier !== 'MUST') return { skipped: `${tier}, not counted by the verdict; fails with: ${c.failure?.message.split('\n')[0] ?? 'failed'}` }
    return { failure: { message: c.failure?.message ?? 'failed', body: formatFailure(c, true) } }
  }
  if (c.status === 'unchecked') {
    const reason = c.reason ?? 'no directed case or checker covered it in this certification'
    if (known) return { skipped: `${known}; unchecked: ${reason}` }
    if (tier === 'MUST') return { failure: { message: `unchecked: ${reason}`, body: 'A MUST clause left unchecked fails the verdict; list it under "unchecked" in the baseline, with its reason, to accept it.' } }
    return { skipped: reason }
  }
  if (c.status === 'unjudged') {
    const declined = `not judged: the trace checkers declined every run that reached it (${Object.entries(c.declined ?? {}).map(([k, n]) => `${k}: ${n}`).join('; ')})`
    if (known) return { skipped: `${known}; ${declined}` }
    if (tier === 'MUST') return { failure: { message: declined, body: 'A MUST clause the checkers could not judge is not passed; list it under "unchecked" in the baseline, with its reason, to accept it.' } }
    return { skipped: declined }
  }
  return {}
}

/** A campaign's (or merged campaign's) findings as JUnit XML. */
export function campaignJUnit(report: CampaignReport & { durationMs?: number }): string {
  const cases: Case[] = report.failures.map((f) => ({
    classname: f.key.replace(/ \d+$/, ''),
    name: `${f.key}: seed ${f.runSeed}`,
    // A violation of a clause the baseline lists is known: skipped, with the reason.
    ...(f.known
      ? { skipped: `known (baseline): ${f.known.reason || 'listed in the baseline'}${f.known.link ? ` (${f.known.link})` : ''}; violated: ${f.message.split('\n')[0]}` }
      : { failure: { message: f.message, body: formatCampaignFailure(f, { timelines: true }) } }),
  }))
  if (cases.length === 0) cases.push({ classname: 'dsh-kit.fuzz', name: `no violation in ${report.runs} runs`, ...(report.runs === 0 ? { failure: { message: 'no run completed', body: '' } } : {}) })
  const what = report.mode === 'scenario' ? `scenario ${report.scenario}` : 'random programs'
  return suiteXml(`fuzz ${report.adapter}: ${what}, seed ${report.seed}`, cases, (report.durationMs ?? 0) / 1000)
}
