/**
 * Clause numbers as options name them (`--only "AGENT-ATOMIC-TEST 64"`, `--only 64`), and the
 * error of a certify option out of range. Apart from the plan, so a command that only checks an
 * option (fuzz's known-violation list) does not load the directed cases.
 * @module
 */
import { CLAUSES } from '../clauses/clauses.js'

/** A certify option is out of range; the message names the option and what was expected. */
export class CertifyOptionError extends RangeError {
  override readonly name = 'CertifyOptionError'
}

const KEYS = new Map(CLAUSES.filter((c) => c.group !== 'X-RUN').map((c) => [`${c.group} ${c.clause}`, c.clause]))
const NUMBERS = new Set(KEYS.values())

/** The §9 number an `only` entry names (`"AGENT-ATOMIC-TEST 64"`, `"64"` or `64`); throws naming an unknown one. */
export function clauseNumberOf(entry: string | number): number {
  if (typeof entry === 'number' || /^\s*\d+\s*$/.test(entry)) {
    const n = Number(entry)
    if (NUMBERS.has(n)) return n
    throw new CertifyOptionError(`unknown clause ${JSON.stringify(entry)}: clause numbers run from 1 to ${Math.max(...NUMBERS)}; \`dsh-kit list\` prints them`)
  }
  const key = entry.trim().replace(/\s+/g, ' ')
  const n = KEYS.get(key) ?? KEYS.get(key.toUpperCase())
  if (n !== undefined) return n
  const number = /(\d+)$/.exec(key)?.[1]
  const hint = number !== undefined && NUMBERS.has(Number(number)) ? `; clause ${number} is ${[...KEYS].find(([, v]) => v === Number(number))![0]}` : ''
  throw new CertifyOptionError(`unknown clause ${JSON.stringify(entry)}${hint}; expected "<GROUP> <n>" or a number, as \`dsh-kit list\` prints them`)
}
