/**
 * A baseline: the failures (and unchecked clauses) an implementer knows about, kept in a JSON file
 * next to the code so `certify` can gate CI on everything else (`certify --write-baseline <file>`
 * writes one, `certify --baseline <file>` applies it, `gate.ts` says what it does to the verdict;
 * `fuzz` and `run` read the same file). The file:
 *
 * ```json
 * { "kit": "0.1.0", "contract": "0.1.0", "adapter": "my-loop@1.0.0",
 *   "failures": [ { "clause": "AGENT-TEARDOWN-TEST 97", "reason": "", "link": "" } ],
 *   "unchecked": [ { "clause": "AGENT-PREPARE-PUBLISH 59", "reason": "needs capability scopeMinting", "link": "" } ],
 *   "findings": [ { "clause": "AGENT-TEARDOWN-TEST 115", "reason": "…", "link": "" } ] }
 * ```
 *
 * `failures` are clauses the certificate fails; `unchecked` MUST clauses it leaves unchecked, each
 * with its reason; `findings` clauses only fuzzing violates (certify ignores them, fuzz and run
 * report a violation of them as known). Reading one checks every field and names the one that is wrong.
 * @module
 */
import { CLAUSE_BY_KEY } from '../clauses/clauses.js'
import { tierOfKey } from '../clauses/tiers.js'
import type { KnownEntry, Report } from './report.js'

/** One clause a baseline lists. */
export interface BaselineEntry {
  /** `"<GROUP> <n>"`, as reports name clauses. */
  readonly clause: string
  /** Why it fails (or is unchecked): the reading, a bug number. May be empty for a failure, not for an unchecked clause. */
  readonly reason: string
  /** Where the reading is (a URL, a file); may be empty. */
  readonly link: string
}

/** A baseline file. */
export interface Baseline {
  /** The kit version that wrote it. */
  readonly kit: string
  /** The contract suite's version (the certificate's `suite.version`). */
  readonly contract: string
  /** `name@version` of the adapter it was written for. */
  readonly adapter: string
  readonly failures: readonly BaselineEntry[]
  readonly unchecked?: readonly BaselineEntry[]
  readonly findings?: readonly BaselineEntry[]
}

/** A baseline file that does not parse or validate; the message names the file and the field. */
export class BaselineError extends Error {
  override readonly name = 'BaselineError'
}

const LISTS = ['failures', 'unchecked', 'findings'] as const

/** Parse and validate a baseline file's text; `source` names it in errors. */
export function parseBaseline(text: string, source: string): Baseline {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new BaselineError(`${source}: not JSON (${(error as Error).message}); a baseline is what \`dsh-kit certify --write-baseline <file>\` writes`)
  }
  return validateBaseline(value, source)
}

/** Check a parsed baseline, field by field. */
export function validateBaseline(value: unknown, source: string): Baseline {
  const fail = (field: string, what: string): never => {
    throw new BaselineError(`${source}: ${field} ${what}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('the file', 'must hold a JSON object { "kit", "contract", "adapter", "failures": [...] }')
  const b = value as Record<string, unknown>
  const known = new Set(['kit', 'contract', 'adapter', ...LISTS])
  for (const field of Object.keys(b)) if (!known.has(field)) fail(`field "${field}"`, `is not a baseline field (expected ${[...known].join(', ')})`)
  for (const field of ['kit', 'contract', 'adapter'] as const) if (typeof b[field] !== 'string') fail(`"${field}"`, `must be a string, got ${describe(b[field])}`)
  if (b.failures === undefined) fail('"failures"', 'is missing (an empty list [] when nothing fails)')
  const seen = new Map<string, string>()
  const lists: Partial<Record<(typeof LISTS)[number], BaselineEntry[]>> = {}
  for (const list of LISTS) {
    const entries = b[list]
    if (entries === undefined) continue
    if (!Array.isArray(entries)) fail(`"${list}"`, `must be a list, got ${describe(entries)}`)
    lists[list] = (entries as unknown[]).map((entry, i) => {
      const at = `${list}[${i}]`
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return fail(at, `must be an object { "clause", "reason", "link" }, got ${describe(entry)}`)
      const e = entry as Record<string, unknown>
      for (const field of Object.keys(e)) if (!['clause', 'reason', 'link'].includes(field)) fail(`${at}.${field}`, 'is not an entry field (expected clause, reason, link)')
      if (typeof e.clause !== 'string') fail(`${at}.clause`, `must be a clause key like "AGENT-TEARDOWN-TEST 97", got ${describe(e.clause)}`)
      const clause = e.clause as string
      if (!CLAUSE_BY_KEY.has(clause)) {
        const near = CLAUSE_BY_KEY.has(clause.trim().replace(/\s+/g, ' ').toUpperCase()) ? `; did you mean "${clause.trim().replace(/\s+/g, ' ').toUpperCase()}"?` : ' (npx dsh-kit list prints every clause)'
        fail(`${at}.clause`, `"${clause}" is not a clause${near}`)
      }
      for (const field of ['reason', 'link'] as const) if (e[field] !== undefined && typeof e[field] !== 'string') fail(`${at}.${field}`, `must be a string, got ${describe(e[field])}`)
      const reason = (e.reason as string | undefined) ?? ''
      if (list === 'unchecked' && reason.trim() === '') fail(`${at}.reason`, `is empty: an unchecked clause is accepted only with its reason (e.g. the capability the runtime does not offer)`)
      const before = seen.get(clause)
      if (before !== undefined) fail(`${at}.clause`, `"${clause}" is listed twice (also at ${before})`)
      seen.set(clause, at)
      return { clause, reason, link: (e.link as string | undefined) ?? '' }
    })
  }
  return { kit: b.kit as string, contract: b.contract as string, adapter: b.adapter as string, failures: lists.failures ?? [], ...(lists.unchecked ? { unchecked: lists.unchecked } : {}), ...(lists.findings ? { findings: lists.findings } : {}) }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'a list'
  if (value === null) return 'null'
  return typeof value === 'object' ? 'an object' : JSON.stringify(value)
}

/**
 * The baseline of a certificate: every failing clause, and every MUST clause it leaves unchecked
 * (with the certificate's reason). Entries of `previous` (the file being rewritten) keep their reason
 * and link where they still apply, and its `findings` are kept as they are.
 */
export function baselineOf(report: Report, kit: string, previous?: Baseline): Baseline {
  const old = new Map([...(previous?.failures ?? []), ...(previous?.unchecked ?? [])].map((e) => [e.clause, e]))
  const entry = (key: string, reason: string): BaselineEntry => {
    const before = old.get(key)
    return { clause: key, reason: before?.reason || reason, link: before?.link ?? '' }
  }
  // Entries for clauses this certificate did not cover (`--only`) stay as they were.
  const covered = new Set(report.clauses.map((c) => c.key))
  const keep = (list: readonly BaselineEntry[] | undefined): BaselineEntry[] => (list ?? []).filter((e) => !covered.has(e.clause))
  const order = (list: BaselineEntry[]): BaselineEntry[] => list.sort((a, b) => CLAUSE_ORDER.get(a.clause)! - CLAUSE_ORDER.get(b.clause)!)
  const failures = order([...report.clauses.filter((c) => c.status === 'fail').map((c) => entry(c.key, '')), ...keep(previous?.failures)])
  const unchecked = order([...report.clauses.filter((c) => (c.status === 'unchecked' || c.status === 'unjudged') && (c.tier ?? tierOfKey(c.key)) === 'MUST').map((c) => entry(c.key, c.status === 'unjudged' ? 'not judged: the checkers declined every run that reached it' : c.reason ?? 'unchecked')), ...keep(previous?.unchecked)])
  // A finding the certificate now fails (or leaves unchecked) moves to that list.
  const listed = new Set([...failures, ...unchecked].map((e) => e.clause))
  const findings = (previous?.findings ?? []).filter((e) => !listed.has(e.clause))
  return {
    kit, contract: report.suite.version, adapter: `${report.adapter.name}@${report.adapter.version}`,
    failures,
    ...(unchecked.length ? { unchecked } : {}),
    ...(findings.length ? { findings } : {}),
  }
}

/** Clause keys in the order of the clause table. */
const CLAUSE_ORDER: ReadonlyMap<string, number> = new Map([...CLAUSE_BY_KEY.keys()].map((k, i) => [k, i]))

/** A baseline as its file's text. */
export function formatBaseline(baseline: Baseline): string {
  return `${JSON.stringify(baseline, null, 2)}\n`
}

/** The clauses fuzz and run treat as known: the baseline's failures and findings. */
export function knownViolations(baseline: Baseline): ReadonlyMap<string, KnownEntry> {
  return new Map([...baseline.failures, ...(baseline.findings ?? [])].map((e) => [e.clause, { reason: e.reason, link: e.link }]))
}
