/**
 * The timeline as one self-contained HTML page (inline CSS and JS, no external assets): a swim
 * lane per actor and per agent/session id, events and decisions in order, the violating entries
 * highlighted and linked from the top, and both registries' snapshot at each step on hover (the
 * row's `title`).
 * @module
 */
import type { Timeline, TimelineRow } from '../../sim/trace/timeline.js'

/** What the page says about the run above the lanes. */
export interface HtmlMeta {
  /** The page title, e.g. the run file's name. */
  readonly title: string
  /** Lines shown under the title (adapter, outcome, hash, replay command, ...). */
  readonly lines?: readonly string[]
}

/** Escape text for HTML content and attribute values. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

const PAGE_CSS = `
body{font:13px/1.35 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:1em;color:#222;background:#fff}
h1{font-size:16px;margin:0 0 .3em}
.meta div{white-space:pre-wrap}
.violations{margin:.6em 0;padding:.4em .6em;background:#fde8e8;border:1px solid #e0a0a0}
.violations a{color:#a00}
.controls{margin:.5em 0}
`

/** The styles of a lanes table ({@link renderLanesTable}), scoped to `table.lanes`. */
export const LANES_CSS = `
table.lanes{border-collapse:collapse;table-layout:auto;font:12px/1.35 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
table.lanes th,table.lanes td{border-left:1px solid #e4e4e4;padding:1px 6px;vertical-align:top;white-space:nowrap}
table.lanes th{position:sticky;top:0;background:#f4f4f4;cursor:pointer;text-align:left;border-bottom:1px solid #ccc}
table.lanes th.session{background:#eef4fb}
table.lanes td.ix,table.lanes td.dc{color:#888;border-left:none}
table.lanes td.cell{max-width:34em;overflow:hidden;text-overflow:ellipsis}
table.lanes td.sess{color:#36c;text-align:center}
table.lanes tr.decision td.cell{color:#777}
table.lanes tr.mark td.cell{color:#999}
table.lanes tr.event td.cell,table.lanes tr.append td.cell,table.lanes tr.resumed td.cell{color:#135}
table.lanes tr.outcome td.cell{font-weight:600}
table.lanes tr.warn td.cell{color:#a60}
table.lanes tr.violation td{background:#fdd}
table.lanes tr.violation td.cell{color:#a00;font-weight:700}
table.lanes tr:hover td{background:#ffffd8}
table.lanes .hidden,table.lanes tr.hidden{display:none}
`

/** Click a lane's header to fold it: for every lanes table of the page. */
export const LANES_JS = `
(function(){
  var ths=document.querySelectorAll('table.lanes th[data-lane]');
  for(var i=0;i<ths.length;i++)ths[i].onclick=function(e){
    var th=e.currentTarget;var n=Number(th.getAttribute('data-lane'));var rows=th.closest('table').rows;
    var hide=!th.classList.contains('folded');th.classList.toggle('folded',hide);
    for(var r=1;r<rows.length;r++){var c=rows[r].cells[n];if(c)c.style.maxWidth=hide?'1.5em':''}
  };
})();
`

const TOGGLES_JS = `
(function(){
  var t=document.getElementById('lanes');
  function toggleRows(kind,on){var rows=t.querySelectorAll('tr.'+kind);for(var i=0;i<rows.length;i++)rows[i].classList.toggle('hidden',!on);}
  document.getElementById('show-decisions').onchange=function(e){toggleRows('decision',e.target.checked)};
  document.getElementById('show-marks').onchange=function(e){toggleRows('mark',e.target.checked)};
})();
`

function snapTitle(row: TimelineRow): string {
  const s = row.snap
  const lines = [row.text, `registry: agents=[${s.agents.join(', ')}] sessions=[${s.sessions.join(', ')}]`]
  for (const v of row.violations) lines.push(`VIOLATION ${v.key}: ${v.message}`)
  return lines.join('\n')
}

/** The anchor of the row where violation `v` shows (empty when no row shows it). */
export function violationAnchor(timeline: Timeline, v: Timeline['violations'][number], idPrefix = ''): string {
  const row = timeline.rows.find((r) => r.violations.includes(v))
  return row ? `${idPrefix}${row.kind === 'decision' ? 'd' : 'e'}${row.index}` : ''
}

/**
 * A timeline as one `<table class="lanes">` (style it with {@link LANES_CSS}; {@link LANES_JS}
 * folds lanes): a column per actor and per agent/session id, a row per event and decision. Row
 * ids (`e<entry>`, `d<decision>`) carry `idPrefix`, so several timelines fit one page.
 */
export function renderLanesTable(timeline: Timeline, options: { readonly id: string; readonly idPrefix?: string }): string {
  const prefix = options.idPrefix ?? ''
  const lanes = [...timeline.actors.map((name) => ({ name, session: false })), ...timeline.sessions.map((name) => ({ name, session: true }))]
  const header = ['<th>entry</th>', '<th>dec</th>', ...lanes.map((l, i) => `<th data-lane="${i + 2}" class="${l.session ? 'session' : 'actor'}" title="${l.session ? 'agent/session' : 'actor'} lane; click to fold">${esc(l.name)}</th>`)]
  const body: string[] = []
  for (const row of timeline.rows) {
    const cls = [row.kind, ...(row.violations.length ? ['violation'] : [])].join(' ')
    const id = `${prefix}${row.kind === 'decision' ? 'd' : 'e'}${row.index}`
    const cells = lanes.map((l) => {
      if (!l.session && l.name === row.lane) return `<td class="cell">${esc(row.glyph)} ${esc(row.text)}</td>`
      if (l.session && l.name === row.session) return `<td class="sess">${esc(row.glyph)}</td>`
      return '<td></td>'
    })
    const ix = row.kind === 'decision' ? '' : `#${row.index}`
    body.push(`<tr id="${id}" class="${cls}" title="${esc(snapTitle(row))}"><td class="ix">${ix}</td><td class="dc">d${row.d}${row.world ? ` w${row.world}` : ''}</td>${cells.join('')}</tr>`)
  }
  return `<table id="${esc(options.id)}" class="lanes"><thead><tr>${header.join('')}</tr></thead><tbody>
${body.join('\n')}
</tbody></table>`
}

/** Render a timeline as a self-contained HTML page. */
export function renderHtml(timeline: Timeline, meta: HtmlMeta): string {
  const violations = timeline.violations.length === 0
    ? '<div class="violations" style="background:#e8f6e8;border-color:#9c9">no violations</div>'
    : `<div class="violations">${timeline.violations.map((v) =>
      `<div><a href="#${violationAnchor(timeline, v)}">${esc(v.key)}</a> at ${v.entry >= 0 ? `entry #${v.entry}` : 'the end of the run'} (decision ${v.decision}): ${esc(v.message)}</div>`).join('')}</div>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(meta.title)}</title><style>${PAGE_CSS}${LANES_CSS}</style></head>
<body>
<h1>${esc(meta.title)}</h1>
<div class="meta">${(meta.lines ?? []).map((l) => `<div>${esc(l)}</div>`).join('')}</div>
${violations}
<div class="controls"><label><input type="checkbox" id="show-decisions" checked> decisions</label> <label><input type="checkbox" id="show-marks" checked> marks</label> — hover a row for the registry snapshot; click a lane to fold it</div>
${renderLanesTable(timeline, { id: 'lanes' })}
<script>${LANES_JS}${TOGGLES_JS}</script>
</body></html>
`
}
