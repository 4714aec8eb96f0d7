import { describe, expect, it } from 'vitest'
import { normalizeAdapter } from '../../conformance/adapters/adapter.js'
import { checkRun } from '../../conformance/checkers/index.js'
import m01 from '../../conformance/mutants/m01-setup-after-publish.js'
import type { Program } from '../../sim/program/program.js'
import { runProgram } from '../../sim/run.js'
import { guidedReplay } from '../../sim/strategies/index.js'
import { buildTimeline, laneOf, PSEUDO_ACTORS, renderHtml, renderLanes } from './index.js'

const mutant = normalizeAdapter(m01, 'm01').installFactory

/** One create (M01 publishes it before its setup ran: AGENT-SETUP-CONTRACT 36) and a listener that acts. */
const program: Program = {
  v: 1,
  actors: [
    { id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 1 } }, { op: 'dispose', session: 's1' }] },
    { id: 'a2', ops: [{ op: 'followup', session: 's1' }] },
  ],
  env: { listeners: [{ event: 'agent/created', action: { do: 'op', op: { op: 'steer', session: 's1' } } }] },
}

async function run() {
  const strategy = guidedReplay({ v: 1, strategy: 'fifo', decisions: [] })
  strategy.beginRun()
  const result = await runProgram(program, strategy, { install: mutant })
  const violations = checkRun(program, result.trace, result.outcome)
  return { result, violations, timeline: buildTimeline(program, result.trace, result.decisions.decisions, violations) }
}

describe('timeline', () => {
  it('has a lane per program actor and per pseudo-actor, and one per session; every entry and decision is a row, in order', async () => {
    const { result, timeline } = await run()
    expect(timeline.actors).toEqual(['a1', 'a2', ...PSEUDO_ACTORS])
    expect(timeline.sessions).toEqual(['s1'])
    const entries = timeline.rows.filter((r) => r.kind !== 'decision').map((r) => r.index)
    expect(entries).toEqual(result.trace.entries.map((e) => e.i))
    expect(timeline.rows.filter((r) => r.kind === 'decision')).toHaveLength(result.decisions.decisions.length)
    // A decision row sits before the first entry recorded after it.
    for (let i = 1; i < timeline.rows.length; i++) expect(timeline.rows[i]!.d).toBeGreaterThanOrEqual(timeline.rows[i - 1]!.d)
    // The listener's steer is performed inline; events belong to the factory lane and the session lane.
    expect(timeline.rows.some((r) => r.lane === 'inline' && r.text.includes('steer(s1) from'))).toBe(true)
    expect(timeline.rows.filter((r) => r.kind === 'event').every((r) => r.lane === 'factory' && r.session === 's1')).toBe(true)
  })

  it('marks the violating entry, with the registry snapshot in force there', async () => {
    const { violations, timeline } = await run()
    const v = violations.find((x) => x.key === 'AGENT-SETUP-CONTRACT 36')!
    expect(v).toBeDefined()
    const row = timeline.rows.find((r) => r.violations.includes(v))!
    expect(row.kind).not.toBe('decision')
    expect(row.index).toBe(v.entry)
    expect(row.snap.sessions).toContain('s1')
  })

  it('text: one line per row, the glyph in its actor column, the violation named on its line', async () => {
    const { timeline } = await run()
    const text = renderLanes(timeline)
    const lines = text.split('\n')
    expect(lines).toHaveLength(timeline.rows.length + 1)
    const header = lines[0]!
    const col = (lane: string): number => header.indexOf(` ${lane} `) + 1
    for (const [i, row] of timeline.rows.entries()) {
      const line = lines[i + 1]!
      expect(line[col(row.lane)]).toBe(row.glyph)
    }
    expect(text).toMatch(/<== AGENT-SETUP-CONTRACT 36: "s1": session\/created before setup/)
    expect(renderLanes(timeline, { hideMarks: true, hideDecisions: true }).split('\n').length)
      .toBe(timeline.rows.filter((r) => r.kind !== 'mark' && r.kind !== 'decision').length + 1)
  })

  it('html: self-contained, a lane per actor and per session, the violation highlighted and linked, snapshots in titles', async () => {
    const { timeline } = await run()
    const html = renderHtml(timeline, { title: 'run <1>', lines: ['adapter: m01'] })
    expect(html).not.toMatch(/<link|<script src|src="http|href="http|@import/)
    expect(html).toContain('<title>run &lt;1&gt;</title>')
    for (const lane of [...timeline.actors, ...timeline.sessions]) expect(html).toMatch(new RegExp(`<th data-lane="\\d+" class="(actor|session)"[^>]*>${lane.replace('/', '\\/')}</th>`))
    const v = timeline.violations.find((x) => x.key === 'AGENT-SETUP-CONTRACT 36')!
    expect(html).toContain(`<a href="#e${v.entry}">AGENT-SETUP-CONTRACT 36</a>`)
    expect(html).toMatch(new RegExp(`<tr id="e${v.entry}" class="event violation" title="[^"]*registry: agents=\\[s1\\] sessions=\\[s1\\][^"]*VIOLATION AGENT-SETUP-CONTRACT 36`))
    expect(html.match(/<tr id=/g)).toHaveLength(timeline.rows.length)
  })

  it('lanes of labels: program actors, then the pseudo-actors by prefix', () => {
    const actors = new Set(['a1'])
    expect(laneOf('a1:create(s1)@setup.1', actors)).toBe('a1')
    expect(laneOf('inline:steer(s1) from x', actors)).toBe('inline')
    expect(laneOf('listener:agent/created', actors)).toBe('listener')
    expect(laneOf('effect:a1:create(s1):effect0', actors)).toBe('listener')
    expect(laneOf('model:s1:call1', actors)).toBe('model')
    expect(laneOf('factory:s1:setup', actors)).toBe('factory')
    expect(laneOf('load:s1:load', actors)).toBe('env')
  })
})
