/**
 * Timelines of a run: a swim-lane model ({@link buildTimeline}) rendered as fixed-width text with a
 * column per actor ({@link renderLanes}) or as a self-contained HTML page ({@link renderHtml}).
 *
 * The model and its text live with the trace (`sim/trace/timeline.ts`, `timeline-text.ts`): a
 * campaign's worker renders a failure's timeline where the trace is, and traces never leave it. The
 * HTML rendering is here; the CLI's `explain` is a thin caller of these pure functions (data in,
 * text out), and only the CLI writes the files.
 * @module
 */
export { buildTimeline, laneOf, PSEUDO_ACTORS } from '../../sim/trace/timeline.js'
export type { Timeline, TimelineRow } from '../../sim/trace/timeline.js'
export { renderLanes } from '../../sim/trace/timeline-text.js'
export type { LaneTextOptions } from '../../sim/trace/timeline-text.js'
export { LANES_CSS, LANES_JS, renderHtml, renderLanesTable, violationAnchor } from './html.js'
export type { HtmlMeta } from './html.js'
