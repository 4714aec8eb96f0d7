/**
 * What a certificate counts over its units' verdicts (checks per clause, runs, cases, what the
 * checkers declined, the interactions the runs exercised), taken as each verdict arrives. These are
 * sums, the same in any order, and a certification's thread has little else to do while its workers
 * run, so only the clauses are left for after the last unit (the certificate waits on that part).
 * Failures are not counted here: the certificate reports the first of each clause in unit order.
 * @module
 */
import { CHECKED_CLAUSES, DeclineCounts } from '../checkers/index.js'
import { InteractionCoverage } from '../interaction/scope.js'
import type { InteractionCoverageLevel, InteractionScope } from '../interaction/scope.js'
import type { UnitVerdict } from './unit.js'

/** The counts of a certification's verdicts so far. */
export class VerdictTally {
  /** Directed cases run per clause number. */
  readonly #cases = new Map<number, number>()
  /** What the checkers judged and declined, over every checked run. */
  readonly declines = new DeclineCounts()
  /** Simulated runs. */
  runs = 0
  /** Directed cases run. */
  cases = 0
  #coverage: InteractionCoverage | undefined

  /** @param scope the interaction scope of the adapter (made when the first run reports interactions). */
  constructor(private readonly scope: () => InteractionScope) {}

  /** Count one unit's verdict (a skipped unit counts nothing). */
  add(verdict: UnitVerdict): void {
    if (verdict.kind === 'skipped') return
    if (verdict.kind === 'case') {
      this.cases++
      this.#cases.set(verdict.clause!, (this.#cases.get(verdict.clause!) ?? 0) + 1)
      return
    }
    this.runs += verdict.runs ?? 1
    if (verdict.interactions) this.#interactions().add(verdict.interactions)
    // (a run the watchdog stopped was not checked: it counts no judgement)
    for (const cells of verdict.declines ?? []) this.declines.addRun(cells)
  }

  /** Checks of a clause: its directed cases, and every simulated run when a checker covers it. */
  checksOf(clause: number): number {
    return (this.#cases.get(clause) ?? 0) + (CHECKED_CLAUSES.includes(clause) ? this.runs : 0)
  }

  /** Whether a directed case ran for the clause. */
  hasCase(clause: number): boolean {
    return this.#cases.has(clause)
  }

  /** The interaction coverage at every reported strength. */
  interactionLevels(): InteractionCoverageLevel[] {
    return this.#interactions().levels()
  }

  #interactions(): InteractionCoverage {
    return this.#coverage ??= new InteractionCoverage(this.scope())
  }
}
