/**
 * What a certification will run, decided up front and deterministically from the adapter's manifest
 * and the options: the directed cases, the directed programs under their schedules and the random
 * programs, as a list of independent **units**. Units run in any order, in this process or in
 * workers; their verdicts are merged by unit index, so the certificate does not depend on how many
 * workers ran them.
 * @module
 */
import { caseSkipReason } from './case-runner.js'
import { DIRECTED_CASES } from '../cases/index.js'
import type { DirectedCase } from '../cases/index.js'
import type { NormalizedAdapter } from '../adapters/adapter.js'
import { CHECKED_CLAUSES } from '../checkers/index.js'
import { CertifyOptionError, clauseNumberOf } from './clause-number.js'
import { DIRECTED_PROGRAMS } from '../programs/directed-programs.js'
import type { DirectedProgram } from '../programs/directed-programs.js'
import { programCapabilities } from '../programs/program-capabilities.js'
import { OPERATION_KINDS } from '../../sim/program/program.js'
import { interactionSuite } from '../interaction/suite.js'
import type { SuiteEntry } from '../interaction/suite.js'

export { CertifyOptionError, clauseNumberOf }

/** How hard to look. */
export interface Profile {
  readonly name: 'quick' | 'thorough'
  /** Schedules per directed program at most (each once: fewer when a program has fewer). */
  readonly schedules: number
  /** Seeded random programs (one schedule each). */
  readonly randomPrograms: number
  /**
   * Programs of the interaction suite (`interaction/suite.ts`), each under the mode's bounded
   * schedules: none, or its pairwise prefix (every trigger with every action, predicted to cover
   * every 2-way combination of the scope).
   */
  readonly interactions: 'none' | 'pairwise'
}

/** The two profiles. */
export const PROFILES: Readonly<Record<Profile['name'], Profile>> = {
  quick: { name: 'quick', schedules: 24, randomPrograms: 200, interactions: 'none' },
  thorough: { name: 'thorough', schedules: 160, randomPrograms: 2500, interactions: 'pairwise' },
}

export { DEFAULT_UNIT_TIMEOUT_MS } from './unit-timeout.js'

/** One independent piece of a certification. */
export type CertifyUnit =
  | { readonly kind: 'case'; readonly index: number }
  /** A directed program (by its index in {@link CertifyPlan.programs}), under the profile's schedules, none twice. */
  | { readonly kind: 'program'; readonly index: number }
  | { readonly kind: 'random'; readonly k: number }
  /** A program of the interaction suite (by its index in {@link CertifyPlan.interactions}), under every schedule of the mode. */
  | { readonly kind: 'interaction'; readonly index: number }

/** The options a plan is made from (validated). */
export interface PlanOptions {
  readonly profile?: string
  readonly seed?: number
  readonly only?: readonly (string | number)[]
}

/** A certification's work, decided before anything runs. */
export interface CertifyPlan {
  readonly profile: Profile
  readonly seed: number
  /** Clause numbers asked for with `only` (undefined: all). */
  readonly only: readonly number[] | undefined
  readonly cases: readonly DirectedCase[]
  /** Clauses with a directed case this adapter cannot run, and why (a missing capability, no resume). */
  readonly skipped: ReadonlyMap<number, string>
  readonly programs: readonly DirectedProgram[]
  /** The interaction suite's programs the plan runs. */
  readonly interactions: readonly SuiteEntry[]
  /** Whether simulated runs are part of the plan (not when `only` names no clause a checker covers). */
  readonly simulate: boolean
  readonly units: readonly CertifyUnit[]
}

/** Plan a certification of `adapter`; throws {@link CertifyOptionError} for bad options. */
export function planCertify(adapter: NormalizedAdapter, options: PlanOptions = {}): CertifyPlan {
  const profileName = options.profile ?? 'quick'
  if (profileName !== 'quick' && profileName !== 'thorough') throw new CertifyOptionError(`profile must be "quick" or "thorough", got ${JSON.stringify(profileName)}`)
  const profile = PROFILES[profileName]
  const seed = options.seed ?? 0
  if (!Number.isSafeInteger(seed) || seed < 0) throw new CertifyOptionError(`seed must be a non-negative integer, got ${String(seed)}`)
  if (options.only !== undefined && (!Array.isArray(options.only) || options.only.length === 0)) throw new CertifyOptionError('only must be a non-empty list of clauses')
  const only = options.only?.map(clauseNumberOf)
  const wanted = (clause: number): boolean => !only || only.includes(clause)
  // Directed cases run through the process port, for factory and process adapters alike; a case
  // needing a capability the process lacks is skipped, and its reason kept for the clause.
  const skipped = new Map<number, string>()
  const cases = DIRECTED_CASES.filter((c) => {
    if (!wanted(c.clause)) return false
    const reason = caseSkipReason(c, adapter.supports)
    if (reason && !skipped.has(c.clause)) skipped.set(c.clause, reason)
    return reason === undefined
  })
  // (a clause a directed program exists for is checked by simulated runs too: flush 87, preparations 50)
  const simulate = !only || only.some((c) => CHECKED_CLAUSES.includes(c) || DIRECTED_PROGRAMS.some((p) => p.clauses?.includes(c)))
  // A program that resumes needs resume; one that uses a surface of the process port needs its
  // capability (a crash, preparations, no persistence, scope minting). A skipped program's clauses
  // keep the reason when nothing else checks them.
  const programs = simulate ? DIRECTED_PROGRAMS.filter((p) => {
    const missing = programCapabilities(p.program).filter((c) => !adapter.supports[c])
    const resumes = JSON.stringify(p.program).includes('"resume"')
    const reason = resumes && !adapter.supports.resume ? 'needs resume' : missing.length > 0 ? `needs capability ${missing.join(', ')}` : undefined
    if (reason) for (const clause of p.clauses ?? []) if (wanted(clause) && !skipped.has(clause)) skipped.set(clause, reason)
    return reason === undefined
  }) : []
  const units: CertifyUnit[] = cases.map((_, index) => ({ kind: 'case', index }))
  programs.forEach((_, index) => units.push({ kind: 'program', index }))
  if (simulate) for (let k = 0; k < profile.randomPrograms; k++) units.push({ kind: 'random', k })
  const suite = simulate && profile.interactions === 'pairwise' ? interactionSuite({ operations: adapterOperations(adapter) }) : undefined
  const interactions = suite ? suite.entries.slice(0, suite.pairwise) : []
  interactions.forEach((_, index) => units.push({ kind: 'interaction', index }))
  return { profile, seed, only, cases, skipped, programs, interactions, simulate, units }
}

/** The operation kinds programs may use on this adapter: no resume or restart without resume support, no crash without the capability. */
export function adapterOperations(adapter: NormalizedAdapter): string[] {
  return OPERATION_KINDS.filter((k) => (k !== 'crash' || adapter.supports.crash) && (adapter.supports.resume || (k !== 'resume' && k !== 'restart')))
}
