/**
 * Each clause's tier, from the contract (`../shared/spec/contract.md`): `MUST` (conformance-tested;
 * the verdict counts these), `SHOULD` (reference-core behaviour the suite checks and reports without
 * counting it), or `divergence` (the contract records, in §11, that the primary chapter and the
 * upstream code differ here; the suite checks the chapter's reading and reports the result without
 * counting it).
 *
 * §0 defines MUST as "conformance-tested" and §9 lists exactly the properties the suite tests, so
 * every §9 clause is a MUST unless the contract itself says otherwise. The suite-local `X-RUN`
 * clauses (no crash, no livelock, no work outside the scheduler) are MUSTs: a runtime that breaks
 * them cannot be checked at all. The exceptions are listed below with the passage that makes them.
 * @module
 */
import type { Clause } from './clauses.js'

/** The tiers, in the order reports list them. */
export const TIERS = ['MUST', 'SHOULD', 'divergence'] as const
export type Tier = (typeof TIERS)[number]

/** A clause whose tier is not MUST, and the passage of the contract that says so. */
export interface TierException {
  readonly tier: Exclude<Tier, 'MUST'>
  readonly why: string
}

/**
 * The clauses that are not MUSTs, by key, each with the passage that makes it so. None today: the
 * contract makes every §9 clause a MUST, including those that cite a §11 divergence or a §12
 * recommendation, because its decision on each is that the suite tests one reading:
 * - §9 98 (D17): "Suite MUST test CH's reading" (every owner awaits the one teardown). The clause also
 *   carries §1.6's memoized `dispose()` and the liveness rule that every teardown trigger settles (a
 *   teardown that hangs is charged to it), so it cannot be set aside as a divergence;
 * - §9 68 (D13): the decision tests only inertness, which both readings require;
 * - §9 115 (§5.2 under D18): D18 forbids asserting scope-versus-driver order on factory unload, not the
 *   child-before-parent order; §9 65 (D4) and 109/156 (D9): upstream code agrees with the chapter;
 * - §9 47 (§12 Q1) and 114 (§12 Q2, and Q4's "Suite (MUST)"): the resolutions say keep and test.
 * A runtime that follows upstream where the contract records a divergence (upstream fails 98 through
 * D17) lists the clause in its baseline with that reason. An entry here takes the clause out of the
 * verdict; add one only where the contract itself says SHOULD, or records a divergence it does not
 * ask the suite to test.
 */
export const TIER_EXCEPTIONS: Readonly<Record<string, TierException>> = {}

/** The tier of the clause with key `"<GROUP> <n>"` (a key the table does not know is a MUST). */
export function tierOfKey(key: string): Tier {
  return TIER_EXCEPTIONS[key]?.tier ?? 'MUST'
}

/** The tier of `c`. */
export function tierOf(c: Clause): Tier {
  return tierOfKey(`${c.group} ${c.clause}`)
}

/** One line saying what a tier means for the verdict. */
export const TIER_MEANING: Readonly<Record<Tier, string>> = {
  MUST: 'conformance-tested: a failure, or the clause left unchecked, fails the verdict',
  SHOULD: 'reference-core behaviour: checked and reported, not counted by the verdict',
  divergence: 'a divergence the contract records (§11): the chapter\'s reading is checked and reported, not counted by the verdict',
}
