/**
 * The ledger of a campaign: it takes each run seed's result **in seed order** (whatever order
 * workers finished them in) and keeps the counts, the goals, the coverage and the list of failures
 * to report, and says when the campaign must stop. Everything a report says is decided here, so a
 * campaign's report is the same in one thread or many.
 * @module
 */
import type { RunOutcome } from '../../sim/engine/index.js'
import type { Program } from '../../sim/program/program.js'
import { ALL_COVERAGE_KEYS, missingCoverage } from '../arbitraries/coverage.js'
import type { CampaignContext, FailureToReport, SeedResult } from './context.js'
import { goalName } from './context.js'
import type { CampaignFailure, CampaignReport, SharedViolation, Shard, StateCoverage } from './types.js'
import type { KnownEntry } from '../../conformance/certify/report.js'
import { Corpus } from '../guidance/corpus.js'
import type { StoredProgram } from '../guidance/guided-draw.js'
import { lostFailure } from './lost-failure.js'

export { lostFailure }
import { clauseTallies, DeclineCounts } from '../../conformance/checkers/declines.js'
import { InteractionCoverage, interactionScope } from '../../conformance/interaction/scope.js'

/**
 * Builds the rerun command of a run seed: `r`, its index `j` in the campaign's seed order, and
 * whether its program came from the corpus (then only the campaign up to it reruns it).
 */
export type RerunCommand = (r: number, j: number, fromCorpus: boolean) => string

/** What taking one seed gave: the failures to report (each goes to `fill` at its slot), and whether the campaign must stop. */
export interface SeedTaken {
  readonly reports: readonly { readonly slot: number; readonly failure: FailureToReport }[]
  readonly stop: boolean
}

const NOTHING_TAKEN: SeedTaken = Object.freeze({ reports: Object.freeze([]), stop: false })

/** The ledger. */
export class CampaignLedger {
  runs = 0
  seeds = 0
  violatingRuns = 0
  readonly outcomes: Record<RunOutcome['kind'], number> = { ok: 0, deadlock: 0, livelock: 0, uncontrolled: 0, crash: 0 }
  readonly violationCounts: Record<string, number> = {}
  readonly shared = new Map<string, SharedViolation>()
  readonly reached: Record<string, number | undefined>
  readonly coverage: Record<string, number> = {}
  /** Clauses already reported (one report per clause: its first violating run). */
  readonly reported = new Set<string>()
  /** Failures in discovery order (a slot is filled when its report arrives). */
  readonly failures: (CampaignFailure | undefined)[] = []
  /** State coverage, and the corpus of a guided campaign (fed here, in seed order). */
  readonly corpus: Corpus<StoredProgram>
  /** Seeds whose program came from the corpus. */
  mutated = 0
  /** What the checkers judged and declined, per clause, over the runs taken. */
  readonly declines = new DeclineCounts()
  /** Interaction coverage, fed in seed order, and its growth. */
  readonly interactions: InteractionCoverage
  readonly interactionGrowth: [number, number, number][] = []

  constructor(private readonly ctx: CampaignContext, private readonly keepGoing: boolean, private readonly rerun: RerunCommand, private readonly known: ReadonlyMap<string, KnownEntry> = new Map()) {
    this.corpus = new Corpus<StoredProgram>(ctx.settings.guidance && !ctx.scenario, undefined, (p) => p.size)
    const goalsOf = ctx.scenario ? [ctx.scenario] : ctx.mix
    this.reached = Object.fromEntries(goalsOf.flatMap((sc) => sc.goals.map((g) => [goalName(ctx, sc, g.name), undefined])))
    const operations = ctx.settings.arbitrary.operations
    this.interactions = new InteractionCoverage(interactionScope(operations === undefined ? {} : { operations }))
  }

  /** Unreached goals so far. */
  get unreachedGoals(): number {
    return Object.values(this.reached).filter((r) => r === undefined).length
  }

  /**
   * Take seed `result` (the next in seed order); a guided campaign keeps its program (which it then
   * carries) in the corpus if it reached a new transition. Returns the failures to report (each goes
   * to {@link fill} at the slot given) and whether the campaign must stop here.
   */
  add(result: SeedResult): SeedTaken {
    const j = this.seeds
    this.seeds++
    this.#taking = result
    this.corpus.take(result.r, this.#programTaken, result.runs.length, result.transitions)
    this.#taking = undefined
    if (result.fromCorpus) this.mutated++
    if (!this.ctx.scenario) for (let i = 0; i < result.coverage.length; i++) this.coverage[result.coverage[i]!] = (this.coverage[result.coverage[i]!] ?? 0) + 1
    // Most seeds report nothing: they share one empty answer (this runs for every seed in the feeding thread).
    let reports: { slot: number; failure: FailureToReport }[] | undefined
    if (result.interactions && this.interactions.add(result.interactions) > 0) {
      this.interactionGrowth.push([this.runs + result.runs.length, this.interactions.covered(2), this.interactions.covered(3)])
    }
    // Indexed loops: this runs for every seed in the feeding thread, mostly in V8's baseline code,
    // where a for-of over an array allocates an iterator and a result object per element.
    for (let i = 0; i < result.runs.length; i++) {
      const run = result.runs[i]!
      this.runs++
      this.outcomes[run.outcome]++
      if (run.declines) this.declines.addRun(run.declines)
      for (let k = 0; k < run.goals.length; k++) if (this.reached[run.goals[k]!] === undefined) this.reached[run.goals[k]!] = this.runs - 1
      for (const v of run.shared) {
        const before = this.shared.get(v.key)
        this.shared.set(v.key, before ? { ...before, runs: before.runs + 1 } : { key: v.key, message: v.message, runs: 1, firstRunSeed: result.r })
      }
      if (run.violations.length === 0) continue
      this.violatingRuns++
      const keys = [...new Set(run.violations.map((v) => v.key))]
      for (const k of keys) this.violationCounts[k] = (this.violationCounts[k] ?? 0) + 1
      // A new clause is reported before a known one the same run violated.
      const fresh = run.violations.find((v) => !this.reported.has(v.key) && !this.known.has(v.key)) ?? run.violations.find((v) => !this.reported.has(v.key))
      if (fresh) {
        this.reported.add(fresh.key)
        const slot = this.failures.push(undefined) - 1
        if (run.failing) {
          (reports ??= []).push({ slot, failure: { key: fresh.key, message: fresh.message, keys, program: run.failing.program, decisions: run.failing.decisions, strategy: run.strategy, r: result.r, run: this.runs - 1, rerun: this.rerun(result.r, j, result.fromCorpus === true) } })
        } else {
          this.fill(slot, lostFailure(fresh.key, fresh.message, run.lost?.program ?? { v: 1, actors: [] }, result.r, this.runs - 1, run.strategy, this.rerun(result.r, j, result.fromCorpus === true)))
        }
      }
      // Only a violation nobody knew about stops a campaign that does not keep going.
      if (!this.keepGoing && keys.some((k) => !this.known.has(k))) return { reports: reports ?? [], stop: true }
    }
    return reports === undefined ? NOTHING_TAKEN : { reports, stop: false }
  }

  /** The result {@link add} is taking, and its program for the corpus (one function, not one per seed). */
  #taking: SeedResult | undefined
  readonly #programTaken = (): StoredProgram => {
    const result = this.#taking!
    if (result.program === undefined) throw new Error(`campaign ledger: seed ${result.r} reached a new transition but its result carries no program`)
    return result.program
  }

  /** A report arrived for `slot`. */
  fill(slot: number, failure: CampaignFailure): void {
    const known = this.known.get(failure.key)
    this.failures[slot] = known ? { ...failure, known } : failure
  }

  /** The campaign's report. */
  report(meta: { adapter: string; seed: number; shard: Shard; stoppedBy: CampaignReport['stoppedBy'] }): CampaignReport {
    const { ctx } = this
    const missed = Object.entries(this.reached).filter(([, r]) => r === undefined).map(([g]) => g)
    const missing = missingCoverage(this.coverage)
    const failures = this.failures.filter((f): f is CampaignFailure => f !== undefined)
    return {
      mode: ctx.scenario ? 'scenario' : 'programs',
      ...(ctx.scenario ? { scenario: ctx.scenario.name } : {}),
      adapter: meta.adapter, strategy: ctx.settings.strategy, seed: meta.seed, shard: meta.shard, runs: this.runs, seeds: this.seeds, stoppedBy: meta.stoppedBy,
      outcomes: this.outcomes, violatingRuns: this.violatingRuns, violationCounts: this.violationCounts, failures, shared: [...this.shared.values()],
      goals: { reached: this.reached, missed },
      ...(ctx.scenario ? {} : { coverage: { exercised: ALL_COVERAGE_KEYS.length - missing.length, total: ALL_COVERAGE_KEYS.length, missing } }),
      ...(ctx.scenario ? {} : { guidance: ctx.settings.guidance ? 'on' as const : 'off' as const }),
      stateCoverage: this.stateCoverage(),
      interactionCoverage: this.interactions.levels(), interactionsExercised: this.interactions.exercised(), interactionGrowth: this.interactionGrowth,
      ...(ctx.settings.arbitrary.operations ? { interactionOperations: ctx.settings.arbitrary.operations } : {}),
      ...(ctx.scenario ? {} : { interactions: ctx.settings.interactions }),
      ...(this.known.size ? { knownClauses: [...this.known.keys()] } : {}),
      clauses: clauseTallies(this.declines),
      passed: Object.keys(this.violationCounts).every((k) => this.known.has(k)),
    }
  }

  /** The state coverage so far: transitions covered, and their growth over the runs. */
  stateCoverage(): StateCoverage {
    const { corpus } = this
    const at = (share: number): { share: number; runs: number; transitions: number } => {
      const runs = Math.ceil(corpus.runs * share)
      return { share, runs, transitions: corpus.coveredAt(runs) }
    }
    return {
      transitions: corpus.covered,
      growth: [0.1, 0.5, 1].map(at),
      ...(this.ctx.settings.guidance && !this.ctx.scenario ? { corpus: { entries: corpus.entries.length, mutatedSeeds: this.mutated } } : {}),
      ...(corpus.fullSince === undefined ? {} : { fullSince: corpus.fullSince }),
    }
  }
}
