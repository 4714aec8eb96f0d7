/**
 * The catalog of named race scenarios, grouped by theme in file order.
 * @module
 */
import { CANCEL } from './cancel.js'
import { INPUT } from './input.js'
import { LISTENERS } from './listeners.js'
import { OWNER_UNLOAD } from './owner-unload.js'
import { REENTRANT } from './reentrant.js'
import { RESUME } from './resume.js'
import { SAME_ID } from './same-id.js'
import type { Scenario } from './scenario.js'
import { TEARDOWN } from './teardown.js'

/** Every named scenario, grouped by theme in file order. */
export const SCENARIOS: readonly Scenario[] = [
  ...SAME_ID, ...OWNER_UNLOAD, ...TEARDOWN, ...REENTRANT, ...LISTENERS, ...CANCEL, ...INPUT, ...RESUME,
]

/** The scenario called `name`; throws listing the valid names. */
export function findScenario(name: string): Scenario {
  const found = SCENARIOS.find((s) => s.name === name)
  if (!found) throw new Error(`unknown scenario ${JSON.stringify(name)}; expected one of: ${SCENARIOS.map((s) => s.name).join(', ')}`)
  return found
}
