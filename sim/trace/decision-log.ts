/**
 * The decision log: the replay artifact of a run.
 *
 * A run is fully determined by its program and the ordered list of decisions
 * the scheduler took: which pending point proceeded, which value each random
 * draw returned, and when virtual time advanced. The seed only generates a
 * log; replaying needs the log alone. The format is versioned, readable JSON
 * with one decision per line, so two logs can be compared with `diff`.
 *
 * @module
 */

/** The format version this kit writes and reads. */
export const DECISION_LOG_VERSION = 1

/** The pending point labelled `label` was allowed to proceed. */
export interface PickDecision {
  readonly kind: 'pick'
  readonly label: string
}
/** A random draw in `[0, n)` returned `value`. */
export interface RandomDecision {
  readonly kind: 'random'
  readonly n: number
  readonly value: number
}
/** Nothing was pending, so virtual time advanced to `at` (ms) and the timer due then fired. */
export interface TimeDecision {
  readonly kind: 'time'
  readonly at: number
}
/** One decision of a run. */
export type Decision = PickDecision | RandomDecision | TimeDecision

/** A recorded run: which strategy produced it, from which seed, and every decision in order. */
export interface DecisionLog {
  readonly v: typeof DECISION_LOG_VERSION
  /** The strategy's name, for example `"pct d=3 seed=42 run=7"`; informative only. */
  readonly strategy: string
  /** The seed the strategy was built from, if it had one; informative only. */
  readonly seed?: string
  readonly decisions: readonly Decision[]
}

/** A decision log failed validation; the message names the offending field. */
export class DecisionLogError extends Error {
  override readonly name = 'DecisionLogError'
}

/**
 * Records decisions as a run takes them. Appending is the only operation on
 * the engine's hot path, so it does nothing else.
 */
export class DecisionRecorder {
  readonly #decisions: Decision[] = []

  /** Number of decisions recorded so far. */
  get length(): number {
    return this.#decisions.length
  }

  /** Record that the point labelled `label` proceeded. */
  pick(label: string): void {
    this.#decisions.push({ kind: 'pick', label })
  }

  /** Record a random draw in `[0, n)` that returned `value`. */
  random(n: number, value: number): void {
    this.#decisions.push({ kind: 'random', n, value })
  }

  /** Record that virtual time advanced to `at`. */
  time(at: number): void {
    this.#decisions.push({ kind: 'time', at })
  }

  /** The log so far. It shares no mutable state with the recorder. */
  toLog(strategy: string, seed?: string): DecisionLog {
    const decisions = this.#decisions.slice()
    return seed === undefined ? { v: DECISION_LOG_VERSION, strategy, decisions } : { v: DECISION_LOG_VERSION, strategy, seed, decisions }
  }
}

/** A short human form of a decision, as used in replay errors: `"a1:create"`, `random(3)=1`, `time@30`. */
export function describeDecision(decision: Decision): string {
  switch (decision.kind) {
    case 'pick':
      return JSON.stringify(decision.label)
    case 'random':
      return `random(${decision.n})=${decision.value}`
    case 'time':
      return `time@${decision.at}`
  }
}

const LOG_KEYS = new Set(['v', 'strategy', 'seed', 'decisions'])
const DECISION_KEYS: Readonly<Record<Decision['kind'], ReadonlySet<string>>> = {
  pick: new Set(['kind', 'label']),
  random: new Set(['kind', 'n', 'value']),
  time: new Set(['kind', 'at']),
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const show = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value) ?? String(value))

function fail(field: string, expected: string, got: unknown): never {
  throw new DecisionLogError(`decision log: ${field} must be ${expected}, got ${show(got)}`)
}

function rejectUnknownKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>, where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) {
      throw new DecisionLogError(`decision log: ${where} has an unknown field ${JSON.stringify(key)} (allowed: ${[...allowed].join(', ')})`)
    }
  }
}

function validateDecision(value: unknown, index: number): Decision {
  const at = `decisions[${index}]`
  if (!isRecord(value)) fail(at, 'an object', value)
  const kind = value['kind']
  if (kind !== 'pick' && kind !== 'random' && kind !== 'time') fail(`${at}.kind`, '"pick", "random" or "time"', kind)
  rejectUnknownKeys(value, DECISION_KEYS[kind], at)
  switch (kind) {
    case 'pick': {
      const label = value['label']
      if (typeof label !== 'string' || label === '') fail(`${at}.label`, 'a non-empty string', label)
      return { kind, label }
    }
    case 'random': {
      const n = value['n']
      const drawn = value['value']
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) fail(`${at}.n`, 'an integer >= 1', n)
      if (typeof drawn !== 'number' || !Number.isInteger(drawn) || drawn < 0 || drawn >= n) {
        fail(`${at}.value`, `an integer in [0, ${n})`, drawn)
      }
      return { kind, n, value: drawn }
    }
    case 'time': {
      const time = value['at']
      if (typeof time !== 'number' || !Number.isFinite(time)) fail(`${at}.at`, 'a finite number of ms', time)
      return { kind, at: time }
    }
  }
}

/**
 * Check that `value` (typically the result of `JSON.parse`) is a decision log
 * this kit can replay, and return it typed. Unknown fields are refused, so a
 * misspelt field is reported rather than ignored.
 * @throws DecisionLogError naming the first bad field, what it must be and what it was.
 */
export function validateDecisionLog(value: unknown): DecisionLog {
  if (!isRecord(value)) fail('the log', 'an object', value)
  rejectUnknownKeys(value, LOG_KEYS, 'the log')
  if (value['v'] !== DECISION_LOG_VERSION) fail('v', `${DECISION_LOG_VERSION} (the only version this kit reads)`, value['v'])
  const strategy = value['strategy']
  if (typeof strategy !== 'string') fail('strategy', 'a string', strategy)
  const seed = value['seed']
  if (seed !== undefined && typeof seed !== 'string') fail('seed', 'a string when present', seed)
  const raw = value['decisions']
  if (!Array.isArray(raw)) fail('decisions', 'an array', raw)
  const decisions = raw.map(validateDecision)
  return seed === undefined ? { v: DECISION_LOG_VERSION, strategy, decisions } : { v: DECISION_LOG_VERSION, strategy, seed, decisions }
}

/**
 * Parse and validate the text of a decision log.
 * @throws DecisionLogError when the text is not JSON or not a valid log.
 */
export function parseDecisionLog(text: string): DecisionLog {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new DecisionLogError(`decision log: not valid JSON (${(error as Error).message})`)
  }
  return validateDecisionLog(value)
}

/**
 * The text form of a log: JSON with one decision per line, so that a diff of
 * two logs shows exactly the decisions that differ. `parseDecisionLog` reads it back.
 */
export function formatDecisionLog(log: DecisionLog): string {
  const header = [`  "v": ${JSON.stringify(log.v)}`, `  "strategy": ${JSON.stringify(log.strategy)}`]
  if (log.seed !== undefined) header.push(`  "seed": ${JSON.stringify(log.seed)}`)
  const body = log.decisions.length === 0 ? '[]' : `[\n${log.decisions.map((d) => `    ${JSON.stringify(d)}`).join(',\n')}\n  ]`
  return `{\n${header.join(',\n')},\n  "decisions": ${body}\n}\n`
}
