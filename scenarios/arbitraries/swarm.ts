/**
 * Swarm configurations (Groce et al., "Swarm Testing", ISSTA 2012): instead of drawing every
 * program from every feature at once, a run first draws a *configuration* — a few operation kinds
 * and one or two session ids — and then a program from only those. Features that crowd each other
 * out in the full mix (a maintenance task, a followup latched behind it, an `inbox.remove` and a
 * `whenIdle` all on one agent) then meet often enough for their races to be found.
 * @module
 */
import fc from 'fast-check'
import type { Arbitrary } from 'fast-check'
import { OPERATION_KINDS } from '../../sim/program/program.js'
import type { ArbitraryOptions, OperationKind } from './program.js'
import { DEFAULT_ARBITRARY_OPTIONS } from './program.js'

/** Kinds every configuration keeps: without a create there is nothing to race. */
const ALWAYS: readonly OperationKind[] = ['create']

/**
 * A swarm configuration within `base`: a subset of `base.operations` (always with `create`),
 * one or two of its session ids, and up to six operations per actor.
 */
export function swarmOptionsArbitrary(base: ArbitraryOptions = {}): Arbitrary<ArbitraryOptions> {
  const kinds = (base.operations ?? OPERATION_KINDS).filter((k) => !ALWAYS.includes(k))
  const sessions = base.sessions ?? DEFAULT_ARBITRARY_OPTIONS.sessions
  return fc.record({
    operations: fc.subarray([...kinds], { minLength: 2, maxLength: 6 }),
    sessions: fc.subarray([...sessions], { minLength: 1, maxLength: 2 }),
    maxOps: fc.integer({ min: 2, max: 6 }),
  }, { noNullPrototype: true }).map((drawn): ArbitraryOptions => ({
    ...base,
    operations: [...ALWAYS.filter((k) => (base.operations ?? OPERATION_KINDS).includes(k)), ...drawn.operations],
    sessions: drawn.sessions,
    maxOps: drawn.maxOps,
  }))
}
