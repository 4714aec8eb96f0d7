/**
 * Which named scenarios a random-program campaign mixes in, and which run seeds run one: functions of
 * the options and the seed alone. Apart from `draw.ts` (which draws the other seeds' programs with
 * fast-check): the thread that feeds a guided campaign's workers needs these, not the generators.
 * @module
 */
import { OPERATION_KINDS } from '../../sim/program/program.js'
import { containsOperation } from '../../sim/program/contains-operation.js'
import type { ArbitraryOptions } from '../arbitraries/index.js'
import { SCENARIOS } from '../catalog/catalog.js'
import type { Scenario } from '../catalog/scenario.js'

/**
 * The named scenarios a random-program campaign mixes in: those whose operations `options`
 * allows and that do not expect a deadlock of their own.
 */
export function scenarioMix(options: ArbitraryOptions = {}): readonly Scenario[] {
  const allowed = new Set<string>(options.operations ?? OPERATION_KINDS)
  const banned = OPERATION_KINDS.filter((k) => !allowed.has(k))
  return SCENARIOS.filter((s) => !s.expectDeadlock && !banned.some((k) => containsOperation(s.program, k)))
}

/** The named scenario run seed `r` runs (see `programForSeed` in `draw.ts`), if it is a scenario seed. */
export function scenarioOfSeed(r: number, mix: readonly Scenario[]): Scenario | undefined {
  const block = Math.floor(r / 4)
  return block % 4 === 3 && mix.length > 0 ? mix[Math.floor(block / 4) % mix.length] : undefined
}
