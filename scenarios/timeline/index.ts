/**
 * Timelines of a run: a swim-lane model ({@link buildTimeline}) rendered as fixed-width text with a
 * column per actor ({@link renderLanes}) or as a self-contained HTML page ({@link renderHtml}).
 *
 * This lives in `scenarios/`, not `cli/explain/`: the campaign (`scenarios/campaign.ts`) prints
 * the shrunk failure's timeline in its report, and imports only point `scenarios <- cli`, so the
 * renderer must sit at or below the campaign. The CLI's `explain` is a thin caller of these pure
 * functions (data in, text out); only the CLI writes the files.
 * @module
 */
export { buildTimeline, laneOf, PSEUDO_ACTORS } from './lanes.js'
export type { Timeline, TimelineRow } from './lanes.js'
export { renderLanes } from './text.js'
export type { LaneTextOptions } from './text.js'
export { LANES_CSS, LANES_JS, renderHtml, renderLanesTable, violationAnchor } from './html.js'
export type { HtmlMeta } from './html.js'
