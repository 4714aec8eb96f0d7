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
import { ACTIONS, FACTORS, interactionKey, parseInteraction, TRIGGERS } from './features.js'
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

/** An interaction scope: its feasible interactions and combinations. */
export class InteractionScope {
  /** Feasible full interactions, by key. */
  readonly feasible: ReadonlySet<string>
  readonly #combinations = new Map<number, ReadonlySet<string>>()
  readonly triggers: readonly string[]
  readonly actions: readonly string[]

  constructor(options: ScopeOptions = {}) {
    const kinds = options.operations
    this.actions = ACTIONS.filter((a) => !a.startsWith('op:') || kinds === undefined || kinds.includes(a.slice(3)))
    this.triggers = TRIGGERS.filter((t) => (VARIANT_TABLE[t]?.feasible.length ?? 0) > 0)
    const feasible = new Set<string>()
    for (const trigger of this.triggers) {
      for (const situation of VARIANT_TABLE[trigger]!.feasible) {
        const [phase = '', pending = '', stage = ''] = situation.split('|')
        for (const action of this.actions) {
          if (actionAllowed(trigger, action) && !STUB_ACTIONS.includes(action)) feasible.add(interactionKey({ trigger, action, phase, pending, stage }))
        }
      }
      const [phase, pending, stage] = STUB_SITUATION
      for (const action of this.actions) if (STUB_ACTIONS.includes(action)) feasible.add(interactionKey({ trigger, action, phase, pending, stage }))
    }
    this.feasible = feasible
  }

  /** The feasible combinations at strength `t`. */
  combinations(t: number): ReadonlySet<string> {
    let set = this.#combinations.get(t)
    if (set === undefined) {
      const all = new Set<string>()
      for (const key of this.feasible) for (const c of combinationsOf(parseInteraction(key), t)) all.add(c)
      this.#combinations.set(t, (set = all))
    }
    return set
  }

  /** The scope in words. */
  describe(): string {
    return `one session: ${this.triggers.length} triggers × ${this.actions.length} actions × phase, pending input, lifecycle stage; ${this.feasible.size} feasible interactions`
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

/** What runs exercised of a scope: the distinct interactions, and their coverage at each strength. */
export class InteractionCoverage {
  readonly #exercised = new Set<string>()
  readonly #covered = new Map<number, Set<string>>()

  constructor(readonly scope: InteractionScope) {
    for (const t of STRENGTHS) this.#covered.set(t, new Set())
  }

  /** Take interactions a run exercised (by key); returns how many combinations were new, over every strength. */
  add(keys: Iterable<string>): number {
    let fresh = 0
    for (const key of keys) {
      if (this.#exercised.has(key)) continue
      this.#exercised.add(key)
      const i = parseInteraction(key)
      for (const t of STRENGTHS) {
        const covered = this.#covered.get(t)!
        const feasible = this.scope.combinations(t)
        for (const c of combinationsOf(i, t)) {
          if (feasible.has(c) && !covered.has(c)) {
            covered.add(c)
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
    return this.#covered.get(t)?.size ?? 0
  }

  /** Feasible combinations at strength `t` not covered yet (sorted). */
  uncovered(t: number): string[] {
    const covered = this.#covered.get(t) ?? new Set()
    return [...this.scope.combinations(t)].filter((c) => !covered.has(c)).sort()
  }

  /** The coverage at every reported strength. */
  levels(): InteractionCoverageLevel[] {
    const scope = this.scope.describe()
    return STRENGTHS.map((t) => ({ t, covered: this.covered(t), total: this.scope.combinations(t).size, scope }))
  }
}
