/**
 * The interaction scope: which interactions are feasible, the t-way combinations of factor values
 * they project to (t = 2 and 3: the `total` a coverage is counted against), and a coverage that
 * accumulates what runs exercised (`features.ts`).
 *
 * A full interaction (trigger, action, phase, pending, stage) is feasible when
 * - its situation (phase, pending, stage) is one a probe on that trigger can meet in the scope's
 *   program family (`variants.ts`: explored on the reference factory, see there), and
 * - the program language lets that trigger perform that action: an actor or an abort observer
 *   performs only operations (a listener may also throw, reject, be slow or block), and the action's
 *   operation kind is one the adapter's programs may use (no `resume`/`restart` without resume
 *   support, no `crash` without the capability);
 * - for `announce` and `detach`, which act on a stub the program entered, the situation is that
 *   fresh stub's (no agent, nothing pending, stage none), whatever the trigger.
 * A t-way combination is a choice of t factors and a value for each; it is feasible when some
 * feasible interaction has those values, and covered when some exercised interaction does.
 * @module
 */
import { ACTIONS, FACTOR_VALUES, FACTORS, parseInteraction, TRIGGERS } from './features.js'
import type { Interaction } from './features.js'
import { VARIANT_TABLE } from './variants.js'
import { STUB_OPERATIONS } from './programs.js'

/** The combination strengths reported. */
export const STRENGTHS = [2, 3] as const

/** A coverage at one strength, as reports carry it. */
export interface InteractionCoverageLevel {
  /** The strength: combinations of t factors. */
  readonly t: number
  /** Feasible combinations some run exercised. */
  readonly covered: number
  /** Feasible combinations of the scope. */
  readonly total: number
  /** The scope in words (what the total is of). */
  readonly scope: string
}

/** What a scope is built for: the operation kinds the adapter's programs may use (default all). */
export interface ScopeOptions {
  readonly operations?: readonly string[]
}

/**
 * Actions on a stub the program entered (`programs.ts`, `STUB`): their target is that stub, not the
 * probed session, so the situation they act in is the fresh stub's, whatever the trigger's.
 */
export const STUB_ACTIONS: readonly string[] = STUB_OPERATIONS.map((k) => `op:${k}`)
const STUB_SITUATION = ['absent', 'no', 'none'] as const

/** Whether `trigger` may perform `action` (the language's rule). */
export function actionAllowed(trigger: string, action: string): boolean {
  return action.startsWith('op:') || (trigger !== 'actor' && !trigger.startsWith('abort:'))
}

/** The combination keys of `i` at strength `t`: `factor=value` pairs in factor order, joined by `&`. */
export function combinationsOf(i: Interaction, t: number): string[] {
  const pairs = FACTORS.map((f) => `${f}=${i[f]}`)
  return factorChoices(t).map((choice) => choice.map((k) => pairs[k]!).join('&'))
}

/** Each choice of `t` factors (their indexes, ascending), in lexicographic order: computed once per `t`. */
function factorChoices(t: number): readonly (readonly number[])[] {
  let choices = FACTOR_CHOICES.get(t)
  if (choices === undefined) {
    const out: number[][] = []
    const pick = (from: number, chosen: number[]): void => {
      if (chosen.length === t) {
        out.push(chosen)
        return
      }
      for (let k = from; k < FACTORS.length; k++) pick(k + 1, [...chosen, k])
    }
    pick(0, [])
    FACTOR_CHOICES.set(t, (choices = out))
  }
  return choices
}

/**
 * {@link factorChoices} by `t`. The ledger takes every new interaction's combinations in the thread
 * that feeds the workers, and a scope lists those of every feasible one when it is built.
 */
const FACTOR_CHOICES = new Map<number, readonly (readonly number[])[]>()

/** Each factor's values, by value: its index in {@link FACTOR_VALUES}. */
const VALUE_INDEX: readonly ReadonlyMap<string, number>[] = FACTORS.map((f) => new Map(FACTOR_VALUES[f].map((v, k) => [v, k])))

/** Per strength: each choice of factors, and the codes one choice may need (choice `c`'s codes start at `c` times it). */
interface CodeLayout {
  readonly choices: readonly (readonly number[])[]
  readonly perChoice: number
  /** Per choice, each chosen factor's weight in its code (the product of the later chosen factors' sizes). */
  readonly weights: readonly (readonly number[])[]
}

const LAYOUTS = new Map<number, CodeLayout>()

function layoutOf(t: number): CodeLayout {
  let layout = LAYOUTS.get(t)
  if (layout === undefined) {
    const choices = factorChoices(t)
    const perChoice = Math.max(...choices.map((choice) => choice.reduce((n, k) => n * FACTOR_VALUES[FACTORS[k]!].length, 1)))
    const weights = choices.map((choice) => choice.map((_, k) => choice.slice(k + 1).reduce((n, f) => n * RADIX[f]!, 1)))
    LAYOUTS.set(t, (layout = { choices, perChoice, weights }))
  }
  return layout
}

/** The codes of every combination at strength `t` lie below this. */
function codeSpace(t: number): number {
  const { choices, perChoice } = layoutOf(t)
  return choices.length * perChoice
}

/** Write into `into` the indexes in {@link FACTOR_VALUES} of the values of the interaction with `key` (-1: outside them). */
function valueIndexesOf(key: string, into: Int32Array): Int32Array {
  const values = key.split('|')
  for (let k = 0; k < FACTORS.length; k++) into[k] = VALUE_INDEX[k]!.get(values[k] ?? '') ?? -1
  return into
}

/** Each factor's size, in {@link FACTORS} order. */
const RADIX: readonly number[] = FACTORS.map((f) => FACTOR_VALUES[f].length)

/** The largest factor's size. */
const MAX_RADIX = Math.max(...RADIX)

/**
 * Write into `out` the combination codes (see {@link combinationCodesOf}) of the interaction whose
 * values have the indexes `indexes[at …]` in {@link FACTOR_VALUES} (-1: outside them), at the
 * layout's strength.
 */
function codesInto(indexes: ArrayLike<number>, at: number, layout: CodeLayout, out: Int32Array): void {
  const { choices, perChoice } = layout
  for (let c = 0; c < choices.length; c++) {
    const choice = choices[c]!
    let code = 0
    for (let k = 0; k < choice.length; k++) {
      const f = choice[k]!
      const v = indexes[at + f]!
      if (v < 0) {
        code = -1
        break
      }
      code = code * RADIX[f]! + v
    }
    out[c] = code < 0 ? -1 : c * perChoice + code
  }
}

/**
 * The combinations of `i` at strength `t` as numbers, in the order of {@link combinationsOf}: for
 * each choice of factors, its index times the codes a choice may need, plus the chosen values'
 * indexes in mixed radix; -1 for a choice with a value outside {@link FACTOR_VALUES}. The ledger
 * takes each new interaction's combinations in the thread that feeds the workers: numbers are
 * marked there in flat arrays without building and hashing 20 strings per interaction.
 */
export function combinationCodesOf(i: Interaction, t: number): number[] {
  const layout = layoutOf(t)
  const out = new Int32Array(layout.choices.length)
  codesInto(FACTORS.map((f, k) => VALUE_INDEX[k]!.get(i[f]) ?? -1), 0, layout, out)
  return Array.from(out)
}

/** An interaction scope: its feasible interactions and combinations. */
export class InteractionScope {
  #keys: ReadonlySet<string> | undefined
  readonly #combinations = new Map<number, ReadonlySet<string>>()
  readonly #codes = new Map<number, ReadonlyMap<number, string>>()
  readonly #feasibleCodes = new Map<number, ReadonlySet<number>>()
  /** Per strength: {@link feasibleMask}, and how many of its codes are feasible. */
  readonly #feasibleMasks = new Map<number, { readonly mask: Uint8Array; readonly count: number }>()
  /** Each feasible interaction's value indexes in {@link FACTOR_VALUES}, five per interaction, in the order found. */
  readonly #tuples: Int32Array
  readonly triggers: readonly string[]
  readonly actions: readonly string[]

  constructor(options: ScopeOptions = {}) {
    const kinds = options.operations
    this.actions = ACTIONS.filter((a) => !a.startsWith('op:') || kinds === undefined || kinds.includes(a.slice(3)))
    this.triggers = TRIGGERS.filter((t) => (VARIANT_TABLE[t]?.feasible.length ?? 0) > 0)
    // Built as value indexes, not keys: every campaign and certification builds its scope in the
    // thread that feeds the workers, before the first run (the keys are built when asked, `feasible`).
    const tuples: number[] = []
    const seen = new Set<number>()
    const index = (k: number, value: string): number => {
      const at = VALUE_INDEX[k]!.get(value)
      if (at === undefined) throw new Error(`interaction scope: ${JSON.stringify(value)} is not a ${FACTORS[k]!} of FACTOR_VALUES (variants.ts and features.ts disagree)`)
      return at
    }
    const actions = this.actions.map((a) => ({ index: index(1, a), stub: STUB_ACTIONS.includes(a), a }))
    const add = (trigger: number, action: number, phase: number, pending: number, stage: number): void => {
      const r = MAX_RADIX // (a mixed-radix number of the five indexes)
      const full = (((trigger * r + action) * r + phase) * r + pending) * r + stage
      if (seen.has(full)) return
      seen.add(full)
      tuples.push(trigger, action, phase, pending, stage)
    }
    const [stubPhase, stubPending, stubStage] = STUB_SITUATION.map((v, k) => index(2 + k, v)) as [number, number, number]
    for (const trigger of this.triggers) {
      const t = index(0, trigger)
      for (const situation of VARIANT_TABLE[trigger]!.feasible) {
        const [phase = '', pending = '', stage = ''] = situation.split('|')
        const at = [index(2, phase), index(3, pending), index(4, stage)] as const
        for (const action of actions) if (!action.stub && actionAllowed(trigger, action.a)) add(t, action.index, ...at)
      }
      for (const action of actions) if (action.stub) add(t, action.index, stubPhase, stubPending, stubStage)
    }
    this.#tuples = Int32Array.from(tuples)
  }

  /** Feasible full interactions, by key (built on first use). */
  get feasible(): ReadonlySet<string> {
    if (this.#keys === undefined) {
      const keys = new Set<string>()
      const tuples = this.#tuples
      for (let at = 0; at < tuples.length; at += FACTORS.length) {
        keys.add(FACTORS.map((f, k) => FACTOR_VALUES[f][tuples[at + k]!]!).join('|'))
      }
      this.#keys = keys
    }
    return this.#keys
  }

  /** How many full interactions are feasible. */
  get feasibleInteractions(): number {
    return this.#tuples.length / FACTORS.length
  }

  /** The feasible combinations at strength `t`. */
  combinations(t: number): ReadonlySet<string> {
    let set = this.#combinations.get(t)
    if (set === undefined) this.#combinations.set(t, (set = new Set(this.codes(t).values())))
    return set
  }

  /**
   * The codes ({@link combinationCodesOf}) of the feasible combinations at strength `t`: what a
   * coverage counts against, built without their keys (which only a report needs, {@link codes}).
   */
  feasibleCodes(t: number): ReadonlySet<number> {
    let set = this.#feasibleCodes.get(t)
    if (set === undefined) {
      const all = new Set<number>()
      this.feasibleMask(t).forEach((feasible, code) => feasible === 1 && all.add(code))
      this.#feasibleCodes.set(t, (set = all))
    }
    return set
  }

  /**
   * {@link feasibleCodes} as one byte per code (1: feasible), shared and not to be written: a
   * coverage marks and tests codes against it in the thread that feeds the workers.
   */
  feasibleMask(t: number): Uint8Array {
    return this.#feasible(t).mask
  }

  /** How many combinations at strength `t` are feasible. */
  feasibleCount(t: number): number {
    return this.#feasible(t).count
  }

  #feasible(t: number): { readonly mask: Uint8Array; readonly count: number } {
    let feasible = this.#feasibleMasks.get(t)
    if (feasible === undefined) {
      if (!(t >= 1 && t <= 3)) throw new RangeError(`interaction scope: feasible combinations are counted at strengths 1 to 3, not ${t}`)
      const mask = new Uint8Array(codeSpace(t))
      const { choices, perChoice, weights } = layoutOf(t)
      const tuples = this.#tuples
      const width = FACTORS.length
      let count = 0
      // One tight loop per choice of factors (the codes of combinationCodesOf, every index known to
      // be in FACTOR_VALUES): it runs once per scope, before V8 has optimized anything.
      for (let c = 0; c < choices.length; c++) {
        const choice = choices[c]!
        // Up to three factors, unrolled (a missing one weighs 0).
        const [f0 = 0, f1 = 0, f2 = 0] = choice
        const [w0 = 0, w1 = 0, w2 = 0] = weights[c]!
        const base = c * perChoice
        for (let at = 0; at < tuples.length; at += width) {
          const code = base + tuples[at + f0]! * w0 + tuples[at + f1]! * w1 + tuples[at + f2]! * w2
          if (mask[code] === 0) {
            mask[code] = 1
            count++
          }
        }
      }
      this.#feasibleMasks.set(t, (feasible = { mask, count }))
    }
    return feasible
  }

  /** The feasible combinations at strength `t`, by code ({@link combinationCodesOf}), each with its key. */
  codes(t: number): ReadonlyMap<number, string> {
    let codes = this.#codes.get(t)
    if (codes === undefined) {
      const all = new Map<number, string>()
      for (const key of this.feasible) {
        const i = parseInteraction(key)
        const names = combinationsOf(i, t)
        combinationCodesOf(i, t).forEach((code, k) => all.set(code, names[k]!))
      }
      this.#codes.set(t, (codes = all))
    }
    return codes
  }

  /** The scope in words. */
  describe(): string {
    return `one session: ${this.triggers.length} triggers × ${this.actions.length} actions × phase, pending input, lifecycle stage; ${this.feasibleInteractions} feasible interactions`
  }
}

const SCOPES = new Map<string, InteractionScope>()

/** The scope for these options, built once. */
export function interactionScope(options: ScopeOptions = {}): InteractionScope {
  const key = options.operations === undefined ? '*' : [...options.operations].sort().join(',')
  let scope = SCOPES.get(key)
  if (scope === undefined) SCOPES.set(key, (scope = new InteractionScope(options)))
  return scope
}

/** One strength's coverage: which codes are feasible and which covered (one byte per code), and how many are. */
interface CoveredLevel {
  readonly layout: CodeLayout
  readonly feasible: Uint8Array
  readonly covered: Uint8Array
  count: number
}

/** What runs exercised of a scope: the distinct interactions, and their coverage at each strength. */
export class InteractionCoverage {
  readonly #exercised = new Set<string>()
  /**
   * Per strength (in {@link STRENGTHS} order): its layout, which codes are feasible and which are
   * covered (one byte per code), and how many are covered. Flat arrays, since the feeding thread
   * marks every new interaction's combinations here.
   */
  readonly #levels: CoveredLevel[]
  readonly #indexes = new Int32Array(FACTORS.length)
  readonly #codes: Int32Array

  constructor(readonly scope: InteractionScope) {
    this.#levels = STRENGTHS.map((t) => {
      const feasible = scope.feasibleMask(t)
      return { layout: layoutOf(t), feasible, covered: new Uint8Array(feasible.length), count: 0 }
    })
    this.#codes = new Int32Array(Math.max(...this.#levels.map((l) => l.layout.choices.length)))
  }

  /** Take interactions a run exercised (by key); returns how many combinations were new, over every strength. */
  add(keys: Iterable<string>): number {
    let fresh = 0
    const indexes = this.#indexes
    const codes = this.#codes
    for (const key of keys) {
      if (this.#exercised.has(key)) continue
      this.#exercised.add(key)
      valueIndexesOf(key, indexes)
      for (const level of this.#levels) {
        codesInto(indexes, 0, level.layout, codes)
        for (let c = 0; c < level.layout.choices.length; c++) {
          const code = codes[c]!
          if (code >= 0 && level.feasible[code] === 1 && level.covered[code] === 0) {
            level.covered[code] = 1
            level.count++
            fresh++
          }
        }
      }
    }
    return fresh
  }

  /** The distinct interactions exercised so far, sorted (what a shard report carries, to be merged). */
  exercised(): string[] {
    return [...this.#exercised].sort()
  }

  /** Covered combinations at strength `t`. */
  covered(t: number): number {
    return this.#level(t)?.count ?? 0
  }

  /** Feasible combinations at strength `t` not covered yet (sorted). */
  uncovered(t: number): string[] {
    const covered = this.#level(t)?.covered
    return [...this.scope.codes(t)].filter(([code]) => covered?.[code] !== 1).map(([, key]) => key).sort()
  }

  /** The coverage at every reported strength. */
  levels(): InteractionCoverageLevel[] {
    const scope = this.scope.describe()
    return STRENGTHS.map((t) => ({ t, covered: this.covered(t), total: this.scope.feasibleCount(t), scope }))
  }

  #level(t: number): CoveredLevel | undefined {
    const k = (STRENGTHS as readonly number[]).indexOf(t)
    return k < 0 ? undefined : this.#levels[k]
  }
}
