/**
 * Wording of an interaction coverage (`conformance/interaction/`): one line for a report, and the
 * statement a certificate makes of the scope it covered. Data in, text out.
 * @module
 */
import type { InteractionCoverageLevel } from '../conformance/interaction/scope.js'

const percent = (covered: number, total: number): string => `${total === 0 ? 100 : Math.floor((covered / total) * 1000) / 10}%`

/** `interaction coverage (<scope>): 2-way 1230/1234 (99.6%), 3-way 4102/4141 (99.0%)`. */
export function formatInteractionCoverage(levels: readonly InteractionCoverageLevel[]): string {
  if (levels.length === 0) return 'interaction coverage: none measured'
  const parts = levels.map((l) => `${l.t}-way ${l.covered}/${l.total} (${percent(l.covered, l.total)})`)
  return `interaction coverage (${levels[0]!.scope}): ${parts.join(', ')}`
}

/**
 * What a certificate states of the scope it covered: "every 2-way interaction over one session;
 * 3-way: 99.0%" when every combination of a strength was covered, else each strength's share.
 */
export function interactionStatement(levels: readonly InteractionCoverageLevel[]): string {
  const full = levels.filter((l) => l.covered === l.total && l.total > 0).map((l) => l.t)
  const top = full.length > 0 ? Math.max(...full) : undefined
  const rest = levels.filter((l) => top === undefined || l.t > top).map((l) => `${l.t}-way: ${percent(l.covered, l.total)}`)
  return [...(top === undefined ? [] : [`every ${top}-way interaction over one session`]), ...rest].join('; ')
}
