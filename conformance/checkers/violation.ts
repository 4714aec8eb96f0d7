/**
 * Violations: what a checker returns. Each names its clause (`AGENT-TEARDOWN-TEST 97`), the trace
 * entry where it was seen and the decision count there, so a report can point at the step.
 * @module
 */

/** One broken contract clause, seen at one trace entry. */
export interface Violation {
  /** Clause group, e.g. `AGENT-TEARDOWN-TEST` (or a suite-local `X-` group). */
  readonly group: string
  /** The §9 property number (suite-local groups number their own clauses). */
  readonly clause: number
  /** `"<group> <clause>"`: the key reports and filters use. */
  readonly key: string
  /** What was wrong, with the ids involved. */
  readonly message: string
  /** Index of the trace entry where it was seen. */
  readonly entry: number
  /** Decisions taken before that entry. */
  readonly decision: number
}

/** Build a violation. */
export function violation(group: string, clause: number, message: string, at: { i: number; d: number } | undefined): Violation {
  return { group, clause, key: `${group} ${clause}`, message, entry: at?.i ?? -1, decision: at?.d ?? -1 }
}
