/**
 * A comparison of certificates as one self-contained HTML page (inline CSS and JS, nothing
 * fetched): per-group totals at the top, then the clause × implementation matrix with the clauses
 * where the implementations differ first. A failing cell links to its section below, which holds
 * the failure's message, how it was found, its shrunk program and the command that replays it.
 * Data in, text out: the same comparison always gives the same page.
 * @module
 */
import { esc } from '../timeline/html.js'
import type { CompareCell, CompareRow, Comparison } from './model.js'

const CSS = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
main{max-width:1400px;margin:0 auto;padding:20px 24px 60px}
h1{font-size:22px;margin:0 0 6px}
h2{font-size:17px;margin:26px 0 8px}
h4{font-size:13px;margin:12px 0 4px;color:#57606a;text-transform:uppercase;letter-spacing:.04em}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 10px;overflow:auto;margin:0;white-space:pre-wrap;word-break:break-word}
p.lead{color:#57606a;margin:0 0 12px}
table{border-collapse:collapse;background:#fff;border:1px solid #d0d7de}
th,td{padding:4px 8px;border-bottom:1px solid #eaeef2;text-align:left;vertical-align:top}
thead th{background:#eaeef2;position:sticky;top:0;z-index:1}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.verdict{font-weight:700;padding:1px 8px;border-radius:10px;color:#fff;font-size:12px}
.verdict.PASSED{background:#1a7f37}.verdict.FAILED{background:#cf222e}.verdict.INCOMPLETE{background:#9a6700}
table.groups td.tot span{margin-right:6px}
.n-fail{color:#cf222e;font-weight:600}.n-unchecked{color:#57606a}.n-pass{color:#116329}
table.matrix{width:100%}
table.matrix td.key{white-space:nowrap;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
table.matrix td.title{font-size:13px;color:#24292f;max-width:520px}
table.matrix tr.section th{background:#f6f8fa;font-weight:600;border-top:2px solid #d0d7de}
table.matrix tr.section th span{font-weight:400;color:#57606a;margin-left:8px}
table.matrix tr.differs td{background:#fffdf5}
td.cell{text-align:center;white-space:nowrap}
.st{display:inline-block;min-width:5.2em;text-align:center;padding:0 6px;border-radius:10px;font-size:12px;font-weight:600}
.st.pass{background:#dafbe1;color:#116329}.st.fail{background:#cf222e;color:#fff}.st.fail.known{background:#fff8c5;color:#7d4e00;border:1px solid #d4a72c}
.st.unchecked{background:#eaeef2;color:#57606a}.st.unjudged{background:#fff8c5;color:#7d4e00}.st.absent{background:transparent;color:#8c959f;font-weight:400}
.tier{display:inline-block;margin-left:6px;padding:0 6px;border-radius:8px;font-size:11px;background:#ddf4ff;color:#0550ae}
a{color:#0969da}
details.failure{background:#fff;border:1px solid #d0d7de;border-left:4px solid #cf222e;border-radius:6px;margin:10px 0}
details.failure.known{border-left-color:#d4a72c}
details.failure>summary{cursor:pointer;padding:8px 12px;font-weight:600}
details.failure>summary .impl{color:#57606a;font-weight:400;margin-right:8px}
details.failure>summary .key{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:#cf222e;margin-right:8px}
details.failure>.body{padding:0 12px 12px}
details.failure:target{box-shadow:0 0 0 3px #ffd8d3}
.note{color:#7d4e00}
`

const JS = `
(function(){
  function open(id){var el=id&&document.getElementById(id);if(el&&el.tagName==='DETAILS'){el.open=true;el.scrollIntoView({block:'start'});}}
  function fromHash(){open(decodeURIComponent(location.hash.slice(1)));}
  var refs=document.querySelectorAll('a[href^="#cell-"]');
  for(var i=0;i<refs.length;i++)refs[i].addEventListener('click',function(e){open(e.currentTarget.getAttribute('href').slice(1));});
  window.addEventListener('hashchange',fromHash);fromHash();
})();
`

/** The id of the section of implementation `column`'s failure of `key`. */
export function cellAnchor(column: number, key: string): string {
  return `cell-${column + 1}-${key.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`
}

const LABEL: Record<CompareCell['status'], string> = { pass: 'pass', fail: 'FAIL', unchecked: 'unchecked', absent: 'not run' }

function cellHtml(cell: CompareCell, column: number, row: CompareRow): string {
  const known = cell.known ? ' known' : ''
  const chip = `<span class="st ${cell.status}${known}">${LABEL[cell.status]}${cell.known ? ' · known' : ''}</span>`
  const title = cell.detail ? ` title="${esc(cell.detail)}"` : ''
  const body = cell.status === 'fail' ? `<a href="#${cellAnchor(column, row.key)}">${chip}</a>` : chip
  return `<td class="cell" data-status="${cell.status}${known}"${title}>${body}</td>`
}

function matrix(c: Comparison): string {
  const head = `<thead><tr><th>clause</th><th>title</th>${c.columns.map((col) => `<th class="impl">${esc(col.label)}</th>`).join('')}</tr></thead>`
  const span = 2 + c.columns.length
  const row = (r: CompareRow): string => `<tr class="clause${r.differs ? ' differs' : ''}" data-key="${esc(r.key)}"><td class="key">${esc(r.key)}</td>`
    + `<td class="title">${esc(r.title)}${r.tier === 'MUST' ? '' : ` <span class="tier">${r.tier}</span>`}</td>${r.cells.map((cell, i) => cellHtml(cell, i, r)).join('')}</tr>`
  const differ = c.rows.filter((r) => r.differs)
  const agree = c.rows.filter((r) => !r.differs)
  return `<table class="matrix" id="matrix">${head}<tbody>
<tr class="section"><th colspan="${span}">Where they differ<span>${differ.length} clause${differ.length === 1 ? '' : 's'}</span></th></tr>
${differ.map(row).join('\n')}
<tr class="section"><th colspan="${span}">Where they agree<span>${agree.length} clause${agree.length === 1 ? '' : 's'}</span></th></tr>
${agree.map(row).join('\n')}
</tbody></table>`
}

function groupTable(c: Comparison): string {
  const tot = (t: { pass: number; fail: number; unchecked: number }, n: number): string => `<td class="num tot"><span class="n-pass">${t.pass}/${n}</span>${t.fail ? `<span class="n-fail">${t.fail} fail</span>` : ''}${t.unchecked ? `<span class="n-unchecked">${t.unchecked} unchecked</span>` : ''}</td>`
  const rows = c.groups.map((g) => `<tr><th>${esc(g.group)}</th><td class="num">${g.clauses}</td>${g.totals.map((t) => tot(t, g.clauses)).join('')}</tr>`)
  const all = c.groups.reduce((n, g) => n + g.clauses, 0)
  const sum = c.columns.map((_, i) => c.groups.reduce((t, g) => ({ pass: t.pass + g.totals[i]!.pass, fail: t.fail + g.totals[i]!.fail, unchecked: t.unchecked + g.totals[i]!.unchecked }), { pass: 0, fail: 0, unchecked: 0 }))
  return `<table class="groups" id="groups"><thead><tr><th>group</th><th>clauses</th>${c.columns.map((col) => `<th>${esc(col.label)}</th>`).join('')}</tr></thead><tbody>
${rows.join('\n')}
<tr><th>all</th><td class="num">${all}</td>${sum.map((t) => tot(t, all)).join('')}</tr>
</tbody></table>`
}

function implementations(c: Comparison): string {
  return `<table class="impls"><thead><tr><th>implementation</th><th>verdict</th><th>pass</th><th>fail</th><th>unchecked</th><th>known</th><th>certificate</th></tr></thead><tbody>
${c.columns.map((col) => `<tr><th>${esc(col.label)}</th><td><span class="verdict ${esc(col.verdict)}">${esc(col.verdict)}</span></td><td class="num">${col.pass}</td><td class="num">${col.fail}</td><td class="num">${col.unchecked}</td><td class="num">${col.known}</td><td><code>${esc(col.file)}</code> (suite ${esc(col.suite)}, ${esc(col.profile)})</td></tr>`).join('\n')}
</tbody></table>`
}

function failureSections(c: Comparison): string {
  const out: string[] = []
  c.columns.forEach((col, i) => {
    for (const r of c.rows.filter((x) => x.cells[i]!.status === 'fail')) {
      const cell = r.cells[i]!
      const parts = [
        ...(cell.known ? [`<p class="note">known (baseline): ${esc(cell.known.reason || 'listed in the baseline')}${cell.known.link ? ` (${esc(cell.known.link)})` : ''}</p>`] : []),
        `<h4>message</h4><pre class="message">${esc(cell.detail ?? 'failed')}</pre>`,
        ...(cell.via ? [`<p>found by ${esc(cell.via)}</p>`] : []),
        ...(cell.program ? [`<h4>program</h4><pre class="program">${esc(cell.program)}</pre>`] : []),
        ...(cell.replay ? [`<h4>${cell.program ? 'replay' : 'rerun'}</h4><pre class="replay">${esc(cell.replay)}</pre>`] : []),
      ]
      out.push(`<details class="failure${cell.known ? ' known' : ''}" id="${cellAnchor(i, r.key)}"><summary><span class="impl">${esc(col.label)}</span><span class="key">${esc(r.key)}</span>${esc(r.title)}</summary><div class="body">
${parts.join('\n')}
</div></details>`)
    }
  })
  return out.length ? out.join('\n') : '<p>none</p>'
}

/** The comparison as a self-contained HTML page. */
export function renderComparisonHtml(c: Comparison): string {
  const title = `dsh-kit comparison: ${c.columns.map((col) => col.label).join(', ')}`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${CSS}</style></head>
<body><main>
<h1>${esc(title)}</h1>
<p class="lead">${c.rows.length} clauses, ${c.columns.length} implementations; they differ on ${c.differing}. A failing cell links to its shrunk program and replay command.</p>
${implementations(c)}
<h2>Per group</h2>
${groupTable(c)}
<h2>Clauses</h2>
${matrix(c)}
<h2 id="failures">Failures</h2>
${failureSections(c)}
</main>
<script>${JS}</script>
</body></html>
`
}
