/**
 * The timeline as fixed-width text, one line per event with a column per actor (TigerBeetle's
 * `log_replica` style): the row's glyph sits in its actor's column, the description follows. The
 * registry snapshot is printed when it changes. Two runs' timelines compare with `diff`.
 * @module
 */
import type { Snapshot } from './trace.js'
import type { Timeline, TimelineRow } from './timeline.js'

/** Options of {@link renderLanes}. */
export interface LaneTextOptions {
  /** Leave out `mark` rows (the sim's own progress notes). Default false. */
  readonly hideMarks?: boolean
  /** Leave out decision rows. Default false. */
  readonly hideDecisions?: boolean
}

const snapText = (s: Snapshot): string => `agents=[${s.agents.join(',')}] sessions=[${s.sessions.join(',')}]`

function head(row: TimelineRow): string {
  return row.kind === 'decision'
    ? `      d${String(row.d).padStart(3, '0')}   `
    : `#${String(row.index).padStart(4, '0')} d${String(row.d).padStart(3, '0')} w${row.world}`
}

/** Render a timeline as text, one line per row, a column per actor lane. */
export function renderLanes(timeline: Timeline, options: LaneTextOptions = {}): string {
  const widths = timeline.actors.map((a) => Math.max(a.length, 1) + 1)
  const prefix = ' '.repeat(head({ kind: 'decision', index: 0, d: 0 } as TimelineRow).length + 1)
  const lines = [
    `${prefix}${timeline.actors.map((a, i) => a.padEnd(widths[i]!)).join('')}`,
  ]
  let lastSnap = ''
  for (const row of timeline.rows) {
    if (options.hideMarks && row.kind === 'mark') continue
    if (options.hideDecisions && row.kind === 'decision') continue
    const cells = timeline.actors.map((a, i) => (a === row.lane ? row.glyph : ':').padEnd(widths[i]!)).join('')
    let line = `${head(row)} ${cells}${row.text}`
    const snap = snapText(row.snap)
    if (row.kind !== 'decision' && snap !== lastSnap) {
      line += `  {${snap}}`
      lastSnap = snap
    }
    for (const v of row.violations) line += `   <== ${v.key}: ${v.message}`
    lines.push(line.trimEnd())
  }
  return lines.join('\n')
}
