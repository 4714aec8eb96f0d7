/**
 * A certificate as one self-contained HTML page (inline CSS and JS; no external scripts, styles,
 * fonts or images): what an implementer links from a README or keeps as a CI artifact. It shows the
 * adapter, the kit and contract-suite versions, the profile and seed, the verdict, each tier's
 * totals and the baseline applied (known failures marked with their reason), a table of every
 * clause (status, how it was checked or why not, number of checks) and, per failure, a section —
 * folded until its row's link opens it — with the message, the (shrunk) program as builder code, the
 * replay command and the swim-lane timeline.
 *
 * Data in, text out: the timelines come from `timelines.ts` (a replay of each failure's run file),
 * the kit version from the caller. The renderer reads only the fields it knows and shows any other
 * field a clause carries in its "how checked" cell, so a report that grows keeps rendering.
 * @module
 */
import { describeShrink, verdictOf } from '../../conformance/certify/failure-text.js'
import { declinedText } from '../certify-text.js'
import type { ClauseResult, Failure, Report } from '../../conformance/certify/report.js'
import { CHECKED_CLAUSES } from '../../conformance/checkers/index.js'
import { clauseTier, gateOf, tierTotals } from '../../conformance/certify/gate.js'
import { TIER_MEANING, TIERS } from '../../conformance/clauses/tiers.js'
import { printProgram } from '../../sim/program/program-print.js'
import { esc, LANES_CSS, LANES_JS, renderLanesTable, violationAnchor } from '../timeline/html.js'
import type { Timeline } from '../../sim/trace/timeline.js'
import type { FailureTimeline } from '../../conformance/certify/failure-timelines.js'
import { formatInteractionCoverage, interactionStatement } from '../interaction-text.js'

/** A failure's timeline for the page, or why there is none. */
/** What the page needs besides the report. */
export interface CertificatePageOptions {
  /** The kit's version (its package.json). */
  readonly kitVersion: string
  /** Timelines of the failures, by clause key. */
  readonly timelines?: ReadonlyMap<string, FailureTimeline>
}

/** The id of a failure's section (the clause table links to it). */
export function failureAnchor(key: string): string {
  return `failure-${key.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`
}

const STATUS_LABEL: Record<ClauseResult['status'], string> = { pass: 'pass', fail: 'FAIL', unchecked: 'unchecked', unjudged: 'not judged' }

/** Fields of a clause the page renders itself; any other is shown as extra "how checked" detail. */
const KNOWN_FIELDS = new Set(['key', 'group', 'clause', 'title', 'status', 'checks', 'failure', 'checkedBy', 'reason', 'caseFailure', 'judged', 'reached', 'declined', 'declinedRuns'])

/** Fields of the gate (tier, baseline entry) the page renders in their own places. */
const GATE_FIELDS = new Set(['tier', 'known'])

const CSS = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
main{max-width:1280px;margin:0 auto;padding:20px 24px 60px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:17px;margin:28px 0 8px}
h4{font-size:13px;margin:14px 0 4px;color:#57606a;text-transform:uppercase;letter-spacing:.04em}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 10px;overflow:auto;margin:0;white-space:pre-wrap;word-break:break-word}
.head{display:flex;gap:24px;align-items:flex-start;justify-content:space-between;flex-wrap:wrap}
.verdict{font-size:20px;font-weight:700;padding:8px 18px;border-radius:8px;color:#fff;white-space:nowrap}
.verdict.PASSED{background:#1a7f37}.verdict.FAILED{background:#cf222e}.verdict.INCOMPLETE{background:#9a6700}
.verdict small{display:block;font-size:12px;font-weight:400}
table.meta{border-collapse:collapse;margin-top:10px}
table.meta th{text-align:left;color:#57606a;font-weight:500;padding:2px 14px 2px 0;vertical-align:top}
table.meta td{padding:2px 0}
.counts{margin:14px 0 0;display:flex;gap:8px;flex-wrap:wrap}
.count{padding:3px 10px;border-radius:12px;background:#fff;border:1px solid #d0d7de}
table.clauses{border-collapse:collapse;width:100%;background:#fff;border:1px solid #d0d7de}
table.clauses th,table.clauses td{padding:4px 8px;border-bottom:1px solid #eaeef2;text-align:left;vertical-align:top}
table.clauses thead th{background:#eaeef2;position:sticky;top:0;z-index:1}
table.clauses tr.group th{background:#f6f8fa;font-weight:600;color:#24292f;border-top:2px solid #d0d7de}
table.clauses tr.group th span{font-weight:400;color:#57606a;margin-left:8px}
table.clauses td.key{white-space:nowrap;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
table.clauses td.checks{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.clauses td.how{color:#57606a;font-size:13px}
table.clauses tr.fail td{background:#fff0f0}
.status{display:inline-block;min-width:5.5em;text-align:center;padding:0 6px;border-radius:10px;font-size:12px;font-weight:600}
.status.pass{background:#dafbe1;color:#116329}.status.fail{background:#cf222e;color:#fff}
.status.kit{background:#ddf4ff;color:#0550ae}.status.unchecked{background:#eaeef2;color:#57606a}.status.unjudged{background:#fff8c5;color:#7d4e00}
.declined{display:block;color:#7d4e00;font-size:12px}
.status.fail.known{background:#fff8c5;color:#7d4e00;border:1px solid #d4a72c}
table.clauses tr.fail.known td{background:#fffbe6}
.tier{display:inline-block;margin-left:6px;padding:0 6px;border-radius:8px;font-size:11px;background:#ddf4ff;color:#0550ae;vertical-align:1px}
.known-note{color:#7d4e00;font-size:12.5px;margin-top:2px}
.count.known{background:#fff8c5;border-color:#d4a72c}
.failing a.known{color:#7d4e00}
a{color:#0969da}
details.failure{background:#fff;border:1px solid #d0d7de;border-left:4px solid #cf222e;border-radius:6px;margin:10px 0}
details.failure>summary{cursor:pointer;padding:8px 12px;font-weight:600}
details.failure>summary .key{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:#cf222e;margin-right:8px}
details.failure>.body{padding:0 12px 12px}
details.failure:target{box-shadow:0 0 0 3px #ffd8d3}
.note{color:#9a6700}
.failing{margin:10px 0 0}
.failing a{color:#cf222e;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.timeline{overflow:auto;max-height:70vh;border:1px solid #d0d7de;border-radius:6px;background:#fff}
`

const JS = `
(function(){
  function open(id){var el=id&&document.getElementById(id);if(el&&el.tagName==='DETAILS'){el.open=true;el.scrollIntoView({block:'start'});}}
  function fromHash(){open(decodeURIComponent(location.hash.slice(1)));}
  var refs=document.querySelectorAll('a[href^="#failure-"]');
  for(var i=0;i<refs.length;i++)refs[i].addEventListener('click',function(e){open(e.currentTarget.getAttribute('href').slice(1));});
  window.addEventListener('hashchange',fromHash);fromHash();
})();
`

function extraValue(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.join(', ')
  return JSON.stringify(value)
}

/** How a clause was checked, or why not, from the report (plus any field the renderer does not know). */
function howChecked(c: ClauseResult, report: Report): string {
  const extra = Object.entries(c).filter(([k, v]) => !KNOWN_FIELDS.has(k) && !GATE_FIELDS.has(k) && v !== undefined && v !== null && v !== '')
  if (extra.length > 0) return extra.map(([k, v]) => (typeof v === 'string' && extra.length === 1 ? esc(v) : `${esc(k)}: ${esc(extraValue(v))}`)).join('<br>')
  if (c.status === 'unchecked') return esc(c.reason ?? 'no directed case and no trace checker of this certification covers it')
  if (c.group === 'X-RUN') return `every simulated run (${report.runs})`
  const byChecker = CHECKED_CLAUSES.includes(c.clause)
  const cases = byChecker ? Math.max(0, c.checks - report.runs) : c.checks
  const parts = [
    ...(cases > 0 ? [`${cases} directed case${cases === 1 ? '' : 's'}`] : []),
    ...((c.checkedBy ?? []).includes('program') ? ['directed programs aimed at it'] : []),
    ...(byChecker ? [`trace checkers on ${report.runs} simulated runs`] : []),
  ]
  const declined = declinedText(c).replace(/^; /, '')
  return `${parts.join(' and ') || 'not checked'}${declined ? `<span class="declined">${esc(declined)}</span>` : ''}`
}

function clauseRow(c: ClauseResult, report: Report): string {
  const anchor = c.failure ? failureAnchor(c.key) : undefined
  const key = anchor ? `<a href="#${anchor}">${esc(c.key)}</a>` : esc(c.key)
  const status = `<span class="status ${c.status}${c.known ? ' known' : ''}">${STATUS_LABEL[c.status]}${c.known ? ' · known' : ''}</span>`
  return `<tr class="clause ${c.status}${c.known ? ' known' : ''}" data-tier="${clauseTier(c)}" data-key="${esc(c.key)}"><td class="key">${key}</td><td class="title">${esc(c.title)}${tierTag(c)}</td>`
    + `<td>${anchor ? `<a href="#${anchor}" class="to-failure">${status}</a>` : status}</td><td class="how">${howChecked(c, report)}${knownNote(c)}</td><td class="checks">${c.checks}</td></tr>`
}

/** A tag naming the clause's tier when it is not a MUST (the verdict does not count it). */
function tierTag(c: ClauseResult): string {
  const tier = clauseTier(c)
  return tier === 'MUST' ? '' : ` <span class="tier ${tier}" title="${esc(TIER_MEANING[tier])}">${tier}</span>`
}

/** The baseline's reason (and link) for a known failure or unchecked clause. */
function knownNote(c: ClauseResult): string {
  if (!c.known) return ''
  const link = c.known.link ? ` (${/^https?:\/\//.test(c.known.link) ? `<a href="${esc(c.known.link)}">${esc(c.known.link)}</a>` : esc(c.known.link)})` : ''
  return `<div class="known-note">known (baseline): ${esc(c.known.reason || 'listed in the baseline')}${link}</div>`
}

/** Each tier's totals and, with a baseline, what it made known, as the counts row shows them. */
function gateCounts(report: Report): string {
  const totals = report.tiers ?? tierTotals(report.clauses)
  const tiers = TIERS.filter((t) => totals[t].clauses > 0).map((t) => `<span class="count tier-count" title="${esc(TIER_MEANING[t])}">${t} ${totals[t].pass}/${totals[t].clauses} pass${totals[t].fail ? `, ${totals[t].fail} fail` : ''}${totals[t].unchecked ? `, ${totals[t].unchecked} unchecked` : ''}</span>`)
  const b = gateOf(report).baseline
  const known = b ? [`<span class="count known">${b.knownFailures.length} known failure${b.knownFailures.length === 1 ? '' : 's'}${b.knownUnchecked.length ? `, ${b.knownUnchecked.length} known unchecked` : ''}</span>`] : []
  return [...tiers, ...known].join('')
}

function clauseTable(report: Report): string {
  const rows: string[] = []
  for (const group of [...new Set(report.clauses.map((c) => c.group))]) {
    const inGroup = report.clauses.filter((c) => c.group === group)
    const n = (s: ClauseResult['status']): number => inGroup.filter((c) => c.status === s).length
    const summary = [`${n('pass')} pass`, `${n('fail')} fail`, ...(n('unchecked') ? [`${n('unchecked')} unchecked`] : []), ...(n('unjudged') ? [`${n('unjudged')} not judged`] : [])].join(', ')
    rows.push(`<tr class="group"><th colspan="5">${esc(group)}<span>${summary}</span></th></tr>`)
    for (const c of inGroup) rows.push(clauseRow(c, report))
  }
  return `<table class="clauses" id="clauses"><thead><tr><th>clause</th><th>title</th><th>status</th><th>how checked</th><th>checks</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`
}

function failureSection(c: ClauseResult, timeline: FailureTimeline | undefined): string {
  const f = c.failure as Failure
  const anchor = failureAnchor(c.key)
  const parts = [`<h4>message</h4><pre class="message">${esc(f.message)}</pre>`]
  if (f.via === 'directed case') {
    parts.push(`<p>found by directed case “${esc(f.caseTitle ?? '')}”</p>`)
    if (f.replay) parts.push(`<h4>rerun</h4><pre class="replay">${esc(f.replay)}</pre>`)
    parts.push('<p class="note">a directed case has no simulated run, so no program or timeline: rerun the clause to see it fail</p>')
  } else {
    parts.push(`<p>found by ${esc(f.via)} “${esc(f.programName ?? '')}” (strategy ${esc(f.strategy ?? '?')}, seed ${f.seed ?? '?'})</p>`)
    const shrink = describeShrink(f)
    if (shrink) parts.push(`<p class="${f.shrink?.shrunk ? 'shrink' : 'note'}">${esc(shrink)}</p>`)
    if (f.program) parts.push(`<h4>program${f.shrink?.shrunk ? ' (shrunk)' : ''}</h4><pre class="program">${esc(printProgram(f.program))}</pre>`)
    if (f.replay) parts.push(`<h4>replay</h4><pre class="replay">${esc(f.replay)}</pre>`)
    if (f.shrink?.shrunk && f.shrink.original.replay) parts.push(`<p>as found (${f.shrink.original.decisions} decisions): <code>${esc(f.shrink.original.replay)}</code></p>`)
    if (timeline?.note) parts.push(`<p class="note">${esc(timeline.note)}</p>`)
    if (timeline?.timeline) {
      const t = timeline.timeline
      const prefix = `${anchor}-`
      const links = t.violations.filter((v) => v.key === c.key).map((v) => {
        const at = violationAnchor(t, v, prefix)
        return `<a href="#${at}">${esc(v.key)}</a> at ${v.entry >= 0 ? `entry #${v.entry}` : 'the end of the run'} (decision ${v.decision})`
      })
      parts.push(`<h4>timeline</h4>${links.length ? `<p>${links.join('; ')} — hover a row for both registries</p>` : ''}<div class="timeline">${renderLanesTable(t, { id: `${anchor}-lanes`, idPrefix: prefix })}</div>`)
    } else if (f.runFile && !timeline?.note) {
      parts.push('<p class="note">no timeline: the run file could not be replayed here</p>')
    }
  }
  return `<details class="failure" id="${anchor}"><summary><span class="key">${esc(c.key)}</span>${esc(c.title)}</summary><div class="body">
${parts.join('\n')}
</div></details>`
}

/** The baseline row of the page's head, when one was applied. */
function baselineMeta(report: Report): [string, string][] {
  const b = gateOf(report).baseline
  if (!b) return []
  const stale = b.stale.length ? `; out of date: ${b.stale.map((e) => `${e.clause} now ${e.now === 'pass' ? 'passes' : e.now === 'fail' ? 'fails' : 'unchecked'}`).join(', ')}` : ''
  return [['baseline', `${b.file ?? '(given)'}, written for ${b.adapter} (kit ${b.kit}, contract ${b.contract}): ${b.knownFailures.length} known failures, ${b.knownUnchecked.length} known unchecked${stale}`]]
}

/** The certificate as a self-contained HTML page. */
export function renderCertificateHtml(report: Report, options: CertificatePageOptions): string {
  const { verdict, why } = verdictOf(report)
  const a = report.adapter
  const n = (s: ClauseResult['status']): number => report.clauses.filter((c) => c.status === s).length
  const meta: [string, string][] = [
    ['adapter', `${a.name} ${a.version}`],
    ...(a.module ? [['module', a.module] as [string, string]] : []),
    ...(a.reproduces ? [['reproduces', a.reproduces] as [string, string]] : []),
    ['supports', Object.entries(a.supports).map(([k, v]) => `${k}=${v}`).join(' ')],
    ['kit', `dsh-lifecycle-kit ${options.kitVersion}`],
    ['contract suite', report.suite.version],
    ['profile', `${report.profile}, seed ${report.seed}`],
    ...baselineMeta(report),
    ['work', `${report.directedCases} directed cases, ${report.runs} simulated runs, ${report.units.ran} of ${report.units.planned} units, ${(report.durationMs / 1000).toFixed(1)} s`],
    ...(report.interactionCoverage ? [
      ['interactions', interactionStatement(report.interactionCoverage)] as [string, string],
      ['interaction coverage', formatInteractionCoverage(report.interactionCoverage).replace(/^interaction coverage /, '')] as [string, string],
    ] : []),
  ]
  const failures = report.clauses.filter((c) => c.status === 'fail')
  const title = `dsh-kit certificate: ${a.name}@${a.version}`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${CSS}${LANES_CSS}</style></head>
<body><main>
<div class="head"><div>
<h1>${esc(title)}</h1>
<table class="meta">${meta.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>
</div><div class="verdict ${verdict}" id="verdict">${verdict}${why ? `<small>${esc(why)}</small>` : ''}</div></div>
<div class="counts"><span class="count">${n('pass')} pass</span><span class="count">${n('fail')} fail</span><span class="count">${n('unchecked')} unchecked</span>${n('unjudged') ? `<span class="count">${n('unjudged')} not judged</span>` : ''}<span class="count">${report.clauses.length} clauses</span>${gateCounts(report)}</div>
${failures.length ? `<p class="failing">failing: ${failures.map((c) => `<a href="#${failureAnchor(c.key)}"${c.known ? ' class="known"' : ''}>${esc(c.key)}</a>${c.known ? ' (known)' : ''}`).join(', ')}</p>` : ''}
<h2>Clauses</h2>
${clauseTable(report)}
<h2 id="failures">Failures</h2>
${failures.length === 0 ? '<p>none</p>' : `<p>Each section opens from its clause's link.</p>\n${failures.map((c) => failureSection(c, options.timelines?.get(c.key))).join('\n')}`}
</main>
<script>${JS}${LANES_JS}</script>
</body></html>
`
}
