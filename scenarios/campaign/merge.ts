/**
 * Merging the reports of a campaign's shards (a CI matrix, one `--shard i/n` job each) into one:
 * totals summed, goals and coverage unioned, findings deduplicated by clause and shrunk program.
 * The shards must be of the same campaign (adapter, mode, scenario, strategy, base seed, budget,
 * kit version) and all of it: every shard `1..n`, once. The verdict is recomputed from what the
 * shards found, never read from their `passed` flags.
 * @module
 */
import type { CampaignFailure, CampaignReport } from './types.js'
import type { ClauseTally } from '../../conformance/checkers/index.js'
import { InteractionCoverage, interactionScope } from '../../conformance/interaction/scope.js'

/** The budget a campaign was given (`fuzz --runs` or `--time`), as `fuzz --json` records it. */
export interface CampaignBudget {
  readonly runs?: number
  readonly time?: string
}

/** A shard report as `fuzz --json` writes it. */
export type ShardReport = CampaignReport & { readonly durationMs?: number; readonly kitVersion?: string; readonly budget?: CampaignBudget }

/** A merged report: the campaign's report plus which shards it came from. */
export type MergedReport = CampaignReport & {
  readonly durationMs?: number
  /** The shards merged, as `i/n`, in order. */
  readonly mergedShards: readonly string[]
  /** Shards whose campaign completed no run (killed or out of time): their seeds were never tried. */
  readonly emptyShards: readonly string[]
  readonly kitVersion?: string
  readonly budget?: CampaignBudget
}

/** Shard reports that cannot be merged; the message names the field that differs. */
export class MergeError extends Error {
  override readonly name = 'MergeError'
}

const SAME: readonly (keyof ShardReport)[] = ['adapter', 'mode', 'scenario', 'strategy', 'seed', 'guidance', 'budget', 'kitVersion', 'interactions', 'interactionOperations']

/**
 * Check the reports are every shard of one campaign, once: same campaign fields, a kit version
 * recorded, the same shard count, no shard missing or given twice. `label(i)` names report `i`.
 */
function checkShards(reports: readonly ShardReport[], label: (i: number) => string): void {
  const [first] = reports as [ShardReport, ...ShardReport[]]
  for (const [i, r] of reports.entries()) {
    if (typeof r.kitVersion !== 'string') throw new MergeError(`${label(i)} records no kit version: it was written by a dsh-kit older than the merge (rerun that shard with this version)`)
    for (const field of SAME) {
      if (JSON.stringify(r[field]) !== JSON.stringify(first[field])) {
        throw new MergeError(`${label(i)} is of another campaign: its ${field} is ${JSON.stringify(r[field])}, ${label(0)}'s is ${JSON.stringify(first[field])}`)
      }
    }
    if (r.shard.count !== first.shard.count) throw new MergeError(`${label(i)} is shard ${r.shard.index}/${r.shard.count}, ${label(0)} is of ${first.shard.count} shards`)
  }
  const names = reports.map((r) => `${r.shard.index}/${r.shard.count}`)
  const duplicate = names.find((n, i) => names.indexOf(n) !== i)
  if (duplicate !== undefined) throw new MergeError(`shard ${duplicate} is given twice (${reports.map((_, i) => i).filter((i) => names[i] === duplicate).map(label).join(' and ')})`)
  const count = first.shard.count
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !reports.some((r) => r.shard.index === index))
  if (missing.length > 0) {
    throw new MergeError(`shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} of the ${count}-shard campaign ${missing.length === 1 ? 'is' : 'are'} missing: a merge without every shard would judge seeds nobody ran (rerun the missing shard${missing.length === 1 ? '' : 's'}, or merge none)`)
  }
}

/** Merge shard reports (every shard of one campaign); `label(i)` names report `i` in errors. */
export function mergeReports(reports: readonly ShardReport[], label: (i: number) => string = (i) => `report ${i + 1}`): MergedReport {
  if (reports.length === 0) throw new MergeError('nothing to merge: give at least one report')
  const [first] = reports as [ShardReport, ...ShardReport[]]
  checkShards(reports, label)
  const names = reports.map((r) => `${r.shard.index}/${r.shard.count}`)
  const sum = (pick: (r: ShardReport) => number): number => reports.reduce((n, r) => n + pick(r), 0)
  const outcomes = { ...first.outcomes }
  for (const key of Object.keys(outcomes) as (keyof typeof outcomes)[]) outcomes[key] = sum((r) => r.outcomes[key] ?? 0)
  const violationCounts: Record<string, number> = {}
  for (const r of reports) for (const [k, n] of Object.entries(r.violationCounts)) violationCounts[k] = (violationCounts[k] ?? 0) + n
  const shared = new Map<string, CampaignReport['shared'][number]>()
  for (const r of reports) {
    for (const v of r.shared) {
      const before = shared.get(v.key)
      shared.set(v.key, before ? { ...before, runs: before.runs + v.runs, firstRunSeed: Math.min(before.firstRunSeed, v.firstRunSeed) } : v)
    }
  }
  const failures = dedupe(reports.flatMap((r) => r.failures))
  const reached: Record<string, number | undefined> = {}
  for (const r of reports) {
    for (const [goal, at] of Object.entries(r.goals?.reached ?? {})) {
      const before = reached[goal]
      reached[goal] = at === undefined ? before : before === undefined ? at : Math.min(before, at)
    }
  }
  const coverage = first.coverage === undefined ? undefined : (() => {
    const missing = first.coverage.missing.filter((k) => reports.every((r) => r.coverage?.missing.includes(k)))
    return { exercised: first.coverage.total - missing.length, total: first.coverage.total, missing }
  })()
  const states = reports.map((r) => r.stateCoverage).filter((c) => c !== undefined)
  // Shards cover overlapping transitions and do not list them: the union is at least the largest.
  const stateCoverage = states.length === 0 ? undefined
    : reports.length === 1 ? states[0]! : { transitions: Math.max(...states.map((c) => c.transitions)), growth: [], lowerBound: true as const }
  // Interactions are listed: the union is exact.
  const exercised = reports.every((r) => r.interactionsExercised !== undefined) ? (() => {
    const operations = first.interactionOperations
    const coverage = new InteractionCoverage(interactionScope(operations === undefined ? {} : { operations }))
    for (const r of reports) coverage.add(r.interactionsExercised!)
    return { interactionCoverage: coverage.levels(), interactionsExercised: coverage.exercised(), ...(operations ? { interactionOperations: operations } : {}) }
  })() : undefined
  const stops = reports.map((r) => r.stoppedBy)
  const stoppedBy = (['interrupted', 'failure', 'time', 'exhausted', 'runs'] as const).find((s) => stops.includes(s)) ?? 'runs'
  const durations = reports.map((r) => r.durationMs).filter((d): d is number => d !== undefined)
  const knownClauses = [...new Set(reports.flatMap((r) => r.knownClauses ?? []))]
  return {
    mode: first.mode, ...(first.scenario ? { scenario: first.scenario } : {}), adapter: first.adapter, strategy: first.strategy, seed: first.seed,
    shard: { index: 1, count: 1 }, runs: sum((r) => r.runs), seeds: sum((r) => r.seeds), stoppedBy, outcomes,
    violatingRuns: sum((r) => r.violatingRuns), violationCounts, failures, shared: [...shared.values()],
    goals: { reached, missed: Object.entries(reached).filter(([, at]) => at === undefined).map(([g]) => g) },
    ...(coverage ? { coverage } : {}),
    ...(first.guidance ? { guidance: first.guidance } : {}),
    ...(first.interactions ? { interactions: first.interactions } : {}),
    ...(stateCoverage ? { stateCoverage } : {}),
    ...(exercised ?? {}),
    ...(knownClauses.length ? { knownClauses } : {}),
    ...(reports.every((r) => r.clauses) ? { clauses: mergeClauses(reports.map((r) => r.clauses!)) } : {}),
    // Recomputed from what the shards found (a shard's own `passed` flag is not evidence): every
    // violated clause is one the baseline lists.
    passed: [...Object.keys(violationCounts), ...failures.map((f) => f.key)].every((k) => knownClauses.includes(k))
      && (sum((r) => r.violatingRuns) === 0 || Object.keys(violationCounts).length > 0),
    ...(durations.length ? { durationMs: Math.max(...durations) } : {}),
    mergedShards: [...names].sort((a, b) => Number(a.split('/')[0]) - Number(b.split('/')[0])),
    emptyShards: reports.filter((r) => r.runs === 0).map((r) => `${r.shard.index}/${r.shard.count}`),
    kitVersion: first.kitVersion!, ...(first.budget ? { budget: first.budget } : {}),
  }
}

/** One finding per clause and shrunk program (the one with the smallest run seed), by clause then seed. */
function dedupe(failures: readonly CampaignFailure[]): CampaignFailure[] {
  const kept = new Map<string, CampaignFailure>()
  for (const f of failures) {
    const id = `${f.key}\n${JSON.stringify(f.program)}`
    const before = kept.get(id)
    if (!before || f.runSeed < before.runSeed) kept.set(id, f)
  }
  return [...kept.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.runSeed - b.runSeed))
}

/** The shards' clause counts summed, clause by clause (in the first report's order). */
function mergeClauses(lists: readonly (readonly ClauseTally[])[]): ClauseTally[] {
  const merged = new Map<string, { key: string; judged: number; reached: number; declined: Record<string, number>; declinedRuns: number; blind: number }>()
  for (const list of lists) {
    for (const c of list) {
      const into = merged.get(c.key) ?? { key: c.key, judged: 0, reached: 0, declined: {}, declinedRuns: 0, blind: 0 }
      into.judged += c.judged
      into.reached += c.reached
      into.declinedRuns += c.declinedRuns
      into.blind += c.blind
      for (const [reason, n] of Object.entries(c.declined)) into.declined[reason] = (into.declined[reason] ?? 0) + n
      merged.set(c.key, into)
    }
  }
  return [...merged.values()]
}
