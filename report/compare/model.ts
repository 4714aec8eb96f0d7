/**
 * The comparison of several certificates (`dsh-kit compare <certificate.json>...`), as data: a
 * clause × implementation matrix with the clauses where the implementations differ first, each
 * failing cell carrying what reproduces it (the shrunk program and its replay command, or the
 * directed case's rerun command), and per-group totals. `html.ts` draws it; `--json` writes it.
 * @module
 */
import { clauseTier, gateOf } from '../../conformance/certify/gate.js'
import { verdictOf } from '../../conformance/certify/failure-text.js'
import type { ClauseResult, KnownEntry, Report } from '../../conformance/certify/report.js'
import { CLAUSE_BY_KEY, CLAUSES } from '../../conformance/clauses/clauses.js'
import type { Tier } from '../../conformance/clauses/tiers.js'
import { printProgram } from '../../sim/program/program-print.js'

/** A certificate file that is not one; the message names the file and the field. */
export class CompareError extends Error {
  override readonly name = 'CompareError'
}

/** One implementation: a certificate and how the comparison names it. */
export interface CompareColumn {
  /** `name@version`, with the file's name added when two certificates share it. */
  readonly label: string
  readonly file: string
  readonly adapter: string
  readonly suite: string
  readonly profile: string
  readonly verdict: string
  readonly pass: number
  readonly fail: number
  readonly unchecked: number
  readonly known: number
}

/** One clause on one implementation. */
export interface CompareCell {
  /** `absent`: the certificate does not cover the clause (`--only`). */
  readonly status: 'pass' | 'fail' | 'unchecked' | 'absent'
  readonly known?: KnownEntry
  /** The failure's first line, or why it is unchecked. */
  readonly detail?: string
  /** How the failure was found: a directed case, or a simulated run (then `program` is its shrunk program). */
  readonly via?: string
  readonly program?: string
  /** The command that reproduces the failure (`dsh-kit replay …` or the directed case's rerun). */
  readonly replay?: string
}

/** One clause across the implementations. */
export interface CompareRow {
  readonly key: string
  readonly group: string
  readonly title: string
  readonly tier: Tier
  /** Not every implementation has the same status here. */
  readonly differs: boolean
  readonly cells: readonly CompareCell[]
}

/** One clause group's totals per implementation. */
export interface CompareGroup {
  readonly group: string
  readonly clauses: number
  readonly totals: readonly { readonly pass: number; readonly fail: number; readonly unchecked: number }[]
}

/** The whole comparison. */
export interface Comparison {
  readonly columns: readonly CompareColumn[]
  readonly groups: readonly CompareGroup[]
  /** Clauses where the implementations differ, then the others, each in clause-table order. */
  readonly rows: readonly CompareRow[]
  readonly differing: number
}

const STATUSES = new Set(['pass', 'fail', 'unchecked'])

/** Check that `value` (the parsed `file`) is a certificate as `certify --json` writes it. */
export function readCertificate(value: unknown, file: string): Report {
  const fail = (what: string): never => {
    throw new CompareError(`${file}: ${what} (expected the JSON that \`dsh-kit certify --json <file>\` writes)`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('not a certificate')
  const r = value as Record<string, unknown>
  const adapter = r.adapter as Record<string, unknown> | undefined
  if (typeof adapter !== 'object' || adapter === null || typeof adapter.name !== 'string' || typeof adapter.version !== 'string') fail('adapter.name and adapter.version must be strings')
  if (typeof (r.suite as Record<string, unknown> | undefined)?.version !== 'string') fail('suite.version must be a string')
  if (!Array.isArray(r.clauses)) fail('clauses must be a list')
  for (const [i, c] of (r.clauses as unknown[]).entries()) {
    const clause = c as Record<string, unknown>
    if (typeof clause !== 'object' || clause === null) fail(`clauses[${i}] must be an object`)
    if (typeof clause.key !== 'string' || !CLAUSE_BY_KEY.has(clause.key)) fail(`clauses[${i}].key must be a clause key like "AGENT-TEARDOWN-TEST 97", got ${JSON.stringify(clause.key)}`)
    if (!STATUSES.has(clause.status as string)) fail(`clauses[${i}].status must be pass, fail or unchecked, got ${JSON.stringify(clause.status)}`)
    if (typeof clause.checks !== 'number') fail(`clauses[${i}].checks must be a number`)
  }
  for (const field of ['complete', 'passed'] as const) if (typeof r[field] !== 'boolean') fail(`${field} must be true or false`)
  return value as Report
}

/** What one certificate says of one clause. */
function cellOf(c: ClauseResult | undefined): CompareCell {
  if (c === undefined) return { status: 'absent' }
  const known = c.known ? { known: c.known } : {}
  if (c.status === 'unchecked') return { status: 'unchecked', ...known, detail: c.reason ?? 'unchecked' }
  if (c.status === 'pass') return { status: 'pass' }
  const f = c.failure
  return {
    status: 'fail', ...known,
    ...(f ? { detail: f.message.split('\n')[0]!, via: f.via === 'directed case' ? `directed case "${f.caseTitle ?? ''}"` : `${f.via} "${f.programName ?? ''}"${f.shrink?.shrunk ? ' (shrunk)' : ''}` } : {}),
    ...(f?.program ? { program: printProgram(f.program) } : {}),
    ...(f?.replay ? { replay: f.replay } : {}),
  }
}

/** Compare certificates (at least one), each given with the file it came from. */
export function compareCertificates(inputs: readonly { readonly file: string; readonly report: Report }[]): Comparison {
  if (inputs.length === 0) throw new CompareError('nothing to compare: give at least one certificate')
  const labels = inputs.map(({ report }) => `${report.adapter.name}@${report.adapter.version}`)
  const columns: CompareColumn[] = inputs.map(({ file, report }, i) => {
    const n = (s: ClauseResult['status']): number => report.clauses.filter((c) => c.status === s).length
    const gate = gateOf(report)
    return {
      label: labels.indexOf(labels[i]!) === labels.lastIndexOf(labels[i]!) ? labels[i]! : `${labels[i]} (${file})`,
      file, adapter: labels[i]!, suite: report.suite.version, profile: report.profile, verdict: verdictOf(report).verdict,
      pass: n('pass'), fail: n('fail'), unchecked: n('unchecked'),
      known: (gate.baseline?.knownFailures.length ?? 0) + (gate.baseline?.knownUnchecked.length ?? 0),
    }
  })
  const byKey = inputs.map(({ report }) => new Map(report.clauses.map((c) => [c.key, c])))
  const covered = new Set(inputs.flatMap(({ report }) => report.clauses.map((c) => c.key)))
  const all: CompareRow[] = CLAUSES.map((c) => `${c.group} ${c.clause}`).filter((key) => covered.has(key)).map((key) => {
    const clause = CLAUSE_BY_KEY.get(key)!
    const results = byKey.map((m) => m.get(key))
    const cells = results.map(cellOf)
    const first = results.find((r) => r !== undefined)!
    return { key, group: clause.group, title: clause.title, tier: clauseTier(first), differs: new Set(cells.map((x) => x.status)).size > 1, cells }
  })
  const groups: CompareGroup[] = [...new Set(all.map((r) => r.group))].map((group) => {
    const rows = all.filter((r) => r.group === group)
    return {
      group, clauses: rows.length,
      totals: columns.map((_, i) => ({
        pass: rows.filter((r) => r.cells[i]!.status === 'pass').length,
        fail: rows.filter((r) => r.cells[i]!.status === 'fail').length,
        unchecked: rows.filter((r) => r.cells[i]!.status === 'unchecked').length,
      })),
    }
  })
  const rows = [...all.filter((r) => r.differs), ...all.filter((r) => !r.differs)]
  return { columns, groups, rows, differing: all.filter((r) => r.differs).length }
}
