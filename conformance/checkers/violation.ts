/**
 * Violations: what a checker returns. Each names its clause (`AGENT-TEARDOWN-TEST 97`), the trace
 * entry where it was seen and the decision count there, so a report can point at the step.
 * @module
 */

import { CLAUSES } from '../clauses/clauses.js'

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

/** Build a violation; §9 numbers are unique, so a contract clause's group comes from the clause table. */
export function violation(group: string, clause: number, message: string, at: { i: number; d: number } | undefined): Violation {
  const canonical = group.startsWith('X-RUN') ? group : CLAUSE_GROUP.get(clause) ?? group
  return { group: canonical, clause, key: `${canonical} ${clause}`, message, entry: at?.i ?? -1, decision: at?.d ?? -1 }
}

const CLAUSE_GROUP = new Map(CLAUSES.filter((c) => c.group !== 'X-RUN').map((c) => [c.clause, c.group]))

/** The key of a §9 clause (`"AGENT-TEARDOWN-TEST 97"`). */
export function clauseKeyOf(clause: number): string {
  return `${CLAUSE_GROUP.get(clause) ?? '?'} ${clause}`
}

/**
 * The clauses the trace checkers can report: a clause listed here is checked on every run, so a
 * run without its violation counts as a pass for it.
 */
export const CHECKED_CLAUSES: readonly number[] = [5, 6, 11, 16, 19, 20, 22, 24, 27, 31, 32, 36, 39, 40, 43, 44, 45, 46, 47, 55, 56, 57, 58, 60, 61, 64, 65, 67, 68, 71, 73, 74, 75, 76, 78, 79, 82, 88, 95, 96, 97, 98, 99, 101, 102, 103, 104, 107, 111, 112, 114, 115, 116, 117, 120, 121, 122, 123, 125, 126, 130, 137, 139, 142, 147, 148, 149, 156, 157, 159, 162, 163, 165]
