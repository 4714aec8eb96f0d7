/**
 * The verdict of a certificate as a CI gate: it counts the MUST clauses (`../clauses/tiers.ts`), and
 * a MUST clause left unchecked, or that the checkers could not judge, is not passed. With a baseline (`baseline.ts`) the gate is two-way:
 * the listed failures and unchecked clauses are known and do not fail it, anything new does, and so
 * does an entry that is no longer true (a listed failure that now passes), since a baseline that
 * no longer describes the runtime must be updated.
 * @module
 */
import { tierOfKey, TIERS } from '../clauses/tiers.js'
import type { Tier } from '../clauses/tiers.js'
import type { Baseline } from './baseline.js'
import type { ClauseResult, Gate, KnownEntry, Report, StaleEntry, TierTotals } from './report.js'

/** The tier of a certificate's clause (older certificates carry none: the table's). */
export function clauseTier(c: ClauseResult): Tier {
  return c.tier ?? tierOfKey(c.key)
}

/** Each tier's totals. */
export function tierTotals(clauses: readonly ClauseResult[]): Record<Tier, TierTotals> {
  const totals = Object.fromEntries(TIERS.map((t) => [t, { clauses: 0, pass: 0, fail: 0, unchecked: 0 }])) as Record<Tier, { clauses: number; pass: number; fail: number; unchecked: number }>
  for (const c of clauses) {
    const t = totals[clauseTier(c)]
    t.clauses++
    // A clause the checkers could not judge is not checked: it counts as unchecked.
    t[c.status === 'unjudged' ? 'unchecked' : c.status]++
  }
  return totals
}

/**
 * The certificate with its gate applied: each clause's tier, the tier totals, the clauses the
 * baseline makes known, the gate and the verdict (`passed`). Without a baseline the gate is the
 * plain one (every failing or unchecked MUST clause counts). `file` is the baseline's name as the
 * user gave it, for the report.
 */
export function applyGate(report: Report, baseline?: Baseline, file?: string): Report {
  const failures = new Map<string, KnownEntry>((baseline?.failures ?? []).map((e) => [e.clause, { reason: e.reason, link: e.link }]))
  const unchecked = new Map<string, KnownEntry>((baseline?.unchecked ?? []).map((e) => [e.clause, { reason: e.reason, link: e.link }]))
  const newFailures: string[] = []
  const newUnchecked: string[] = []
  const uncounted: string[] = []
  const knownFailures: string[] = []
  const knownUnchecked: string[] = []
  const stale: StaleEntry[] = []
  const clauses = report.clauses.map((c): ClauseResult => {
    const tier = clauseTier(c)
    const { known: _, ...rest } = c
    let known: KnownEntry | undefined
    if (c.status === 'fail') {
      known = failures.get(c.key)
      if (known) knownFailures.push(c.key)
      else if (tier === 'MUST') newFailures.push(c.key)
      else uncounted.push(c.key)
      if (unchecked.has(c.key)) stale.push({ clause: c.key, listed: 'unchecked', now: 'fail' })
    } else if (c.status === 'unchecked' || c.status === 'unjudged') {
      // Not judged (the checkers declined every run that reached it) is not passed either.
      known = unchecked.get(c.key)
      if (known) knownUnchecked.push(c.key)
      else if (tier === 'MUST') newUnchecked.push(c.key)
      if (failures.has(c.key)) stale.push({ clause: c.key, listed: 'failures', now: 'unchecked' })
    } else {
      if (failures.has(c.key)) stale.push({ clause: c.key, listed: 'failures', now: 'pass' })
      if (unchecked.has(c.key)) stale.push({ clause: c.key, listed: 'unchecked', now: 'pass' })
    }
    return { ...rest, tier, ...(known ? { known } : {}) }
  })
  const covered = new Set(report.clauses.map((c) => c.key))
  const notCovered = [...failures.keys(), ...unchecked.keys()].filter((k) => !covered.has(k))
  const gate: Gate = {
    newFailures, newUnchecked, uncounted,
    ...(baseline ? { baseline: { ...(file === undefined ? {} : { file }), kit: baseline.kit, contract: baseline.contract, adapter: baseline.adapter, knownFailures, knownUnchecked, stale, notCovered } } : {}),
  }
  const checked = clauses.some((c) => c.checks > 0)
  const passed = report.complete && checked && newFailures.length === 0 && newUnchecked.length === 0 && stale.length === 0
  return { ...report, clauses, passed, tiers: tierTotals(clauses), gate }
}

/** The gate of a certificate: its own, or (an older certificate) the plain one computed from its clauses. */
export function gateOf(report: Report): Gate {
  return report.gate ?? applyGate(report).gate!
}
