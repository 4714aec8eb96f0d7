/**
 * The clause reference: for each clause of the suite, its text, the contract sections it rests on
 * (restated in `contract-sections.ts`) and how the suite checks it. `dsh-kit list --clause` prints
 * one entry; `npm run docs` writes them all to `docs/clauses.md`, which the package ships.
 * @module
 */
import { MAX_PROCESSES } from '../../sim/run.js'
import { DIRECTED_CASES } from '../cases/index.js'
import { CertifyOptionError, clauseNumberOf } from '../certify/plan.js'
import { CHECKED_CLAUSES } from '../checkers/index.js'
import { CLAUSE_BY_KEY, CLAUSES } from './clauses.js'
import type { Clause } from './clauses.js'
import { SECTION_BY_ID } from './contract-sections.js'
import { TIER_EXCEPTIONS, TIER_MEANING, tierOf } from './tiers.js'
import type { ContractSection } from './contract-sections.js'

/** The sections each §9 clause rests on, by clause number. */
const SECTIONS: Readonly<Record<number, readonly string[]>> = {
  1: ['1.7'],
  2: ['1.7'],
  3: ['1.7', '2.3'],
  4: ['1.8', '2.6'],
  5: ['1.7', '1.8'],
  6: ['1.7'],
  7: ['1.7', '1.4'],
  8: ['1.7', '1.8'],
  9: ['1.1', '1.5'],
  10: ['1.5'],
  11: ['1.5', '7.4'],
  12: ['1.5', '1.7'],
  13: ['1.5', '2.2'],
  14: ['1.5', '3.5'],
  15: ['1.5'],
  16: ['2.4', '2.5'],
  17: ['1.9', '2.5'],
  18: ['1.9', '2.5'],
  19: ['7.4'],
  20: ['7.4', '10.1'],
  21: ['7.4', '10.1'],
  22: ['7.4'],
  23: ['1.9', '7.4'],
  24: ['7.5'],
  25: ['7.5', '7.3'],
  26: ['7.5'],
  27: ['7.5'],
  28: ['7.5'],
  29: ['7.6'],
  30: ['7.6'],
  31: ['7.6', '7.2'],
  32: ['7.6', '7.2'],
  33: ['7.6', '7.3'],
  34: ['3.1', '3.4'],
  35: ['3.4'],
  36: ['3.2'],
  37: ['3.1', '3.4'],
  38: ['3.4'],
  39: ['3.4', '3.5'],
  40: ['3.4', '3.5'],
  41: ['3.1', '8'],
  42: ['1.9', '3.1'],
  43: ['1.2', '3.1'],
  44: ['3.1', '10.1'],
  45: ['1.2', '3.1'],
  46: ['1.2', '3.1'],
  47: ['6.5', '12 Q1'],
  48: ['1.4'],
  49: ['3.3'],
  50: ['3.1', '3.3', '3.5'],
  51: ['2.6', '3.5'],
  52: ['1.2', '3.5'],
  53: ['1.2', '3.5'],
  54: ['6.5'],
  55: ['1.9', '3.1'],
  56: ['3.2'],
  57: ['1.3', '3.5'],
  58: ['3.3'],
  59: ['3.3'],
  60: ['3.5'],
  61: ['3.5'],
  62: ['3.5'],
  63: ['3.1', '3.4'],
  64: ['3.5', '12 Q10'],
  65: ['3.5', '11 D4'],
  66: ['5.1'],
  67: ['3.3'],
  68: ['3.3', '11 D13'],
  69: ['3.3'],
  70: ['3.3'],
  71: ['4'],
  72: ['4'],
  73: ['4'],
  74: ['4'],
  75: ['4'],
  76: ['4'],
  77: ['4', '3.6'],
  78: ['4'],
  79: ['4', '3.6'],
  80: ['1.7', '3.6'],
  81: ['1.7', '1.9'],
  82: ['1.9', '5.4'],
  83: ['1.7', '2.3'],
  84: ['1.7'],
  85: ['1.3'],
  86: ['1.3'],
  87: ['1.3'],
  88: ['1.3'],
  89: ['1.2', '1.3'],
  90: ['1.3', '3.6'],
  91: ['1.3', '2.3'],
  92: ['1.3', '2.5'],
  93: ['3.5'],
  94: ['3.5'],
  95: ['3.5'],
  96: ['3.5', '3.6'],
  97: ['5.3'],
  98: ['5.2', '11 D17'],
  99: ['2.6', '5.1'],
  100: ['5.1'],
  101: ['2.6', '3.5'],
  102: ['2.6', '3.5'],
  103: ['2.6', '5.2'],
  104: ['3.3', '3.5'],
  105: ['5.1', '10.1'],
  106: ['5.1', '10.1'],
  107: ['5.1', '7.4'],
  108: ['5.1', '10.1'],
  109: ['7.3', '11 D9'],
  110: ['5.1', '7.2'],
  111: ['5.3'],
  112: ['5.4'],
  113: ['1.9', '5.4'],
  114: ['5.1', '12 Q2'],
  115: ['5.2'],
  116: ['6.5'],
  117: ['6.5'],
  118: ['6.4'],
  119: ['6.2', '6.4'],
  120: ['6.1', '6.4'],
  121: ['6.2', '6.4'],
  122: ['6.3'],
  123: ['6.4', '7.2'],
  124: ['1.2', '6.3'],
  125: ['1.9', '6.3'],
  126: ['6.4'],
  127: ['1.1', '6.2'],
  128: ['1.2', '6.3'],
  129: ['8'],
  130: ['8'],
  131: ['8'],
  132: ['8'],
  133: ['8'],
  134: ['8'],
  135: ['8'],
  136: ['8'],
  137: ['8'],
  138: ['8'],
  139: ['8', '7.4'],
  140: ['8', '7.4'],
  141: ['8', '7.4'],
  142: ['7.3'],
  143: ['7.3'],
  144: ['7.2', '7.3'],
  145: ['7.2', '7.3'],
  146: ['7.2', '7.3'],
  147: ['7.2'],
  148: ['7.2'],
  149: ['7.3', '10.1'],
  150: ['7.2', '7.3'],
  151: ['7.2', '7.3'],
  152: ['7.2', '10.1'],
  153: ['7.3', '10.1'],
  154: ['7.3'],
  155: ['7.2'],
  156: ['7.3', '11 D9'],
  157: ['7.3', '10.1'],
  158: ['7.3', '10.1'],
  159: ['3.2', '10.1'],
  160: ['7.2'],
  161: ['7.2', '10.1'],
  162: ['10.1'],
  163: ['10.1'],
  164: ['10.1'],
  165: ['10.1'],
  166: ['7.2'],
  167: ['7.2'],
  168: ['10.1'],
  169: ['3.1'],
  170: ['1.2'],
  171: ['1.2'],
  172: ['1.2'],
  173: ['1.2'],
  174: ['1.2'],
  175: ['1.2'],
  176: ['1.2', '1.3'],
}

/** The suite-local `X-RUN` clauses: how a run may end. */
const RUN_SECTIONS: Readonly<Record<number, readonly string[]>> = {
  1: ['1.9'],
  2: ['12 Q8'],
  3: [],
}

/** `"<GROUP> <n>"` of a clause. */
export function keyOf(c: Clause): string {
  return `${c.group} ${c.clause}`
}

/** The contract sections `c` rests on. */
export function sectionsOf(c: Clause): readonly ContractSection[] {
  const ids = (c.group === 'X-RUN' ? RUN_SECTIONS : SECTIONS)[c.clause] ?? []
  return ids.map((id) => {
    const section = SECTION_BY_ID.get(id)
    if (!section) throw new Error(`clause ${keyOf(c)} cites §${id}, which contract-sections.ts does not restate`)
    return section
  })
}

/** What a certificate reports for a clause nothing fails, per kind of adapter. */
export type Coverage = 'checked' | 'capability' | 'unchecked'

/** How the suite checks one clause. */
export interface ClauseChecks {
  /** Titles of the directed cases for it (run for factory adapters). */
  readonly directedCases: readonly string[]
  /** Checked on every simulated run by the trace checkers (or, for `X-RUN`, by how the run ended). */
  readonly everyRun: boolean
  /** Capabilities a runtime must offer for the directed cases to run (when no checker covers the clause either). */
  readonly needs: readonly string[]
  /** Its status, when nothing fails, for a factory adapter and for a process adapter. */
  readonly factory: Coverage
  readonly process: Coverage
}

/** How the suite checks `c` (before any plan narrows it: `--only`, `supports`). */
export function checksOf(c: Clause): ClauseChecks {
  const run = c.group === 'X-RUN'
  const cases = run ? [] : DIRECTED_CASES.filter((d) => d.clause === c.clause)
  const directedCases = cases.map((d) => d.title)
  const everyRun = run || CHECKED_CLAUSES.includes(c.clause)
  // Directed cases run through the process port on every runtime; some need a capability the
  // runtime may not offer (the kit's own process offers them all).
  const unconditional = cases.some((d) => (d.needs ?? []).length === 0)
  const needs = everyRun || unconditional ? [] : [...new Set(cases.flatMap((d) => d.needs ?? []))]
  const factory: Coverage = everyRun || cases.length > 0 ? 'checked' : 'unchecked'
  const process: Coverage = everyRun || unconditional ? 'checked' : cases.length > 0 ? 'capability' : 'unchecked'
  return { directedCases, everyRun, needs, factory, process }
}

/** The clause `entry` names: `"AGENT-TEARDOWN-TEST 97"` (any case and spacing), `"X-RUN 2"`, or a bare §9 number. */
export function findClause(entry: string): Clause {
  const key = entry.trim().replace(/\s+/g, ' ')
  const found = CLAUSE_BY_KEY.get(key) ?? CLAUSE_BY_KEY.get(key.toUpperCase())
  if (found) return found
  // Throws naming the unknown clause (with the right group when only the group is wrong).
  const n = clauseNumberOf(entry)
  const clause = CLAUSES.find((c) => c.group !== 'X-RUN' && c.clause === n)
  if (!clause) throw new CertifyOptionError(`unknown clause ${JSON.stringify(entry)}`)
  return clause
}

/** Lines saying how the suite checks `c`, for a terminal or a document. */
export function describeChecks(c: Clause, code: (text: string) => string = (t) => t): string[] {
  const k = checksOf(c)
  const lines: string[] = []
  if (c.group === 'X-RUN') {
    const ending = ['a crash or an unhandled rejection', 'a livelock (the step budget runs out)', 'asynchronous work outside the scheduler (a real timer or I/O)'][c.clause - 1]
    lines.push(`Every simulated run, for any adapter, from how it ended: a run that ends in ${ending} is charged to this clause.`)
    // (liveness.ts, D68: a listener that crashes or restarts every process it is registered in)
    if (c.clause === 2) lines.push(`Not charged: a livelock of a program whose listeners crashed or restarted the process 3 times or more, which loops through new processes by its own design; a run ends as a livelock once it has booted ${MAX_PROCESSES} processes.`)
    return lines
  }
  for (const title of k.directedCases) lines.push(`Directed case (through the process port, any adapter): ${code(title)}.`)
  if (k.everyRun) lines.push('Trace checkers, on every simulated run (directed and random programs), for any adapter.')
  if (k.needs.length > 0) lines.push(`A process adapter must offer the capability ${k.needs.join(', ')} (in \`supports\`) for its cases to run; without it the clause is \`unchecked\` and says why.`)
  if (k.factory !== 'checked' || k.process !== 'checked') lines.push(`Reported for a factory adapter: ${COVERAGE[k.factory]}; for a process adapter: ${COVERAGE[k.process]}.`)
  return lines
}

const COVERAGE: Readonly<Record<Coverage, string>> = {
  checked: 'pass or fail',
  capability: 'pass or fail when it offers the capability, else `unchecked` with the reason',
  unchecked: '`unchecked` (nothing in the suite checks it yet)',
}


/**
 * One clause's entry as plain text: its text, the sections it rests on and how it is checked.
 * `doc` is where the reader finds `docs/clauses.md` (default: that path).
 */
export function formatClauseEntry(c: Clause, doc = 'docs/clauses.md'): string {
  const sections = sectionsOf(c)
  const lines = [keyOf(c), '', ...wrap(c.title, '  '), '']
  if (c.group === 'X-RUN') lines.push('A suite-local clause (how a run may end), not a numbered property of the contract.', '')
  const exception = TIER_EXCEPTIONS[keyOf(c)]
  lines.push(...wrap(`Tier: ${tierOf(c)} — ${TIER_MEANING[tierOf(c)]}${exception ? ` (${exception.why})` : ''}.`, ''), '')
  lines.push(sections.length > 0 ? 'Rests on:' : 'Rests on no contract section beyond the clause itself.')
  for (const s of sections) {
    lines.push(`  §${s.id} ${s.title}`)
    lines.push(...wrap(s.says, '      '))
  }
  lines.push('', 'Checked by:', ...describeChecks(c).flatMap((line) => wrap(line, '  ')), '')
  const checks = checksOf(c)
  if (c.group === 'X-RUN') lines.push('Rerun: it is checked by every simulated run; `--only` any clause the trace checkers cover reruns them.')
  else if (checks.factory === 'checked' || checks.process === 'checked') lines.push(`Rerun it alone: npx dsh-kit certify --adapter <module> --only "${keyOf(c)}"`)
  else lines.push('Rerun: nothing to rerun per adapter.')
  lines.push(`Every clause: ${doc}#${clauseAnchor(c)}`)
  return lines.join('\n')
}

/** The anchor of a clause in `docs/clauses.md`. */
export function clauseAnchor(c: Clause): string {
  return `${c.group.toLowerCase()}-${c.clause}`
}

/** Wrap `text` at about 100 columns, each line indented. */
function wrap(text: string, indent: string): string[] {
  const out: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + line.length + 1 + word.length > 100) {
      out.push(indent + line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) out.push(indent + line)
  return out
}
