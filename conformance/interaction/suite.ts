/**
 * The interaction suite: every program the interaction mode runs, in a fixed order, each class of
 * programs (up to id renaming and actor order, `canonical.ts`) once.
 *
 * For each trigger `T`, the mode runs the variants `variants.ts` chose for it (`V_T`: drives and
 * filters that together meet every situation the mode's schedules can meet at `T`), each with every
 * action `T` may perform. The order is in rounds: round `r` runs, for each action (most disruptive
 * first, {@link actionOrder}) and each trigger still having variants, the variant
 * `V_T[(r + rank of the action) mod |V_T|]`. Round 0 therefore pairs every trigger with every action
 * once and, rotating the variant with the action, meets every situation of every trigger: it is the
 * pairwise part of the suite; the rounds after it complete every trigger × action × variant, which
 * covers every 3-way combination the variants reach.
 * @module
 */
import type { Program } from '../../sim/program/program.js'
import { validateProgram } from '../../sim/program/program.js'
import { canonicalKey } from './canonical.js'
import { interactionProgram, variantName, variantsOf } from './programs.js'
import type { InteractionSpec } from './programs.js'
import { actionAllowed, combinationsOf, interactionScope } from './scope.js'
import type { ScopeOptions } from './scope.js'
import { VARIANT_TABLE } from './variants.js'

/**
 * The order actions are paired with triggers in: operations that end or interrupt a lifecycle or
 * its turn first, then those that change its inbox, start a lifecycle, wait on it or run beside it,
 * then the registry's own steps, then a listener's plain misbehaviours; an operation kind not named
 * here (added to the language later) comes last, in the language's order. Races between an
 * observer and the lifecycle it observes are made of the first ones.
 */
export const ACTION_PRIORITY: readonly string[] = [
  'op:dispose', 'op:cancel', 'op:unloadOwner', 'op:followup', 'op:steer', 'op:shutdown', 'op:restart', 'op:crash', 'op:unloadFactory',
  'op:abortSignal', 'op:inject', 'op:queue', 'op:remove', 'op:resend', 'op:create', 'op:resume', 'op:whenIdle', 'op:runMaintenance',
  'op:boundary', 'op:register', 'op:enter', 'op:announce', 'op:detach', 'throw', 'reject', 'slow', 'block',
]

/** `actions` in {@link ACTION_PRIORITY} order, unknown ones last in their own order. */
export function actionOrder(actions: readonly string[]): string[] {
  const rank = (a: string): number => {
    const i = ACTION_PRIORITY.indexOf(a)
    return i < 0 ? ACTION_PRIORITY.length + actions.indexOf(a) : i
  }
  return [...actions].sort((x, y) => rank(x) - rank(y))
}

/** One program of the suite, with what it is made of and the round it belongs to. */
export interface SuiteEntry extends InteractionSpec {
  readonly round: number
  readonly program: Program
}

/** The whole suite for these options, and the length of its pairwise prefix. */
export interface InteractionSuite {
  /** Every entry (the whole suite is built on first read). */
  readonly entries: readonly SuiteEntry[]
  /**
   * Entry `index`, building the suite only up to it (undefined past its end): a campaign reads
   * entries in order, a few hundred in a short one, and a thread that builds the whole suite first
   * pays about 0.15 s of CPU for entries it may never run.
   */
  at(index: number): SuiteEntry | undefined
  /**
   * How many entries, from the first, are predicted (from what each variant met on the reference)
   * to cover every 2-way combination of the scope that the whole suite covers.
   */
  readonly pairwise: number
}

const SUITES = new Map<string, InteractionSuite>()

/** The suite for these options (the adapter's operation kinds), built once. */
export function interactionSuite(options: ScopeOptions = {}): InteractionSuite {
  const key = options.operations === undefined ? '*' : [...options.operations].sort().join(',')
  let suite = SUITES.get(key)
  if (suite === undefined) SUITES.set(key, (suite = buildSuite(options)))
  return suite
}

function buildSuite(options: ScopeOptions): InteractionSuite {
  const scope = interactionScope(options)
  const entries: SuiteEntry[] = []
  const source = generateEntries(options, scope)
  let complete = false
  const buildUpTo = (length: number): void => {
    while (!complete && entries.length < length) {
      const next = source.next()
      if (next.done === true) complete = true
      else entries.push(next.value)
    }
  }
  let pairwise: number | undefined
  return {
    get entries() {
      buildUpTo(Number.POSITIVE_INFINITY)
      return entries
    },
    at(index) {
      buildUpTo(index + 1)
      return entries[index]
    },
    // Only certify asks for it: predicted from the variant table, 2-way combinations only.
    get pairwise() { return (pairwise ??= pairwisePrefix(this.entries, scope)) },
  }
}

/** The suite's entries in order (see the module documentation). */
function* generateEntries(options: ScopeOptions, scope: ReturnType<typeof interactionScope>): Generator<SuiteEntry> {
  const actions = actionOrder(scope.actions)
  // A variant whose drive uses an operation the adapter's programs may not (a resume without resume support) is left out.
  const usable = (v: { drive: { ops: readonly { op: string }[]; also?: readonly { op: string }[] } }): boolean =>
    options.operations === undefined || [...v.drive.ops, ...(v.drive.also ?? [])].every((o) => options.operations!.includes(o.op))
  const byTrigger = new Map(scope.triggers.map((t) => {
    const all = variantsOf(t)
    const chosen = (VARIANT_TABLE[t]?.variants ?? []).map(([name]) => all.find((v) => variantName(v) === name)).filter((v) => v !== undefined && usable(v))
    return [t, chosen as NonNullable<(typeof chosen)[number]>[]]
  }))
  const rounds = Math.max(0, ...[...byTrigger.values()].map((v) => v.length))
  const seen = new Set<string>()
  for (let round = 0; round < rounds; round++) {
    for (let rank = 0; rank < actions.length; rank++) {
      const action = actions[rank]!
      for (const trigger of scope.triggers) {
        const variants = byTrigger.get(trigger)!
        if (round >= variants.length || !actionAllowed(trigger, action)) continue
        const variant = variants[(round + rank) % variants.length]!
        const program = interactionProgram({ ...variant, trigger, action })
        // A combination the language refuses as a whole program (an operation naming what nothing defines) is not run.
        if (program === undefined || !valid(program)) continue
        const canonical = canonicalKey(program)
        if (seen.has(canonical)) continue
        seen.add(canonical)
        yield { ...variant, trigger, action, round, program }
      }
    }
  }
}

/** The shortest prefix of `entries` whose probes, as the variant table says they meet, cover every 2-way combination the whole suite does. */
function pairwisePrefix(entries: readonly SuiteEntry[], scope: ReturnType<typeof interactionScope>): number {
  const feasible = scope.combinations(2)
  const covered = new Set<string>()
  let prefix = 0
  entries.forEach((e, i) => {
    const reached = VARIANT_TABLE[e.trigger]!.variants.find(([name]) => name === variantName(e))?.[1] ?? []
    for (const s of reached) {
      const [phase = '', pending = '', stage = ''] = s.split('|')
      for (const c of combinationsOf({ trigger: e.trigger, action: e.action, phase, pending, stage }, 2)) {
        if (feasible.has(c) && !covered.has(c)) {
          covered.add(c)
          prefix = i + 1
        }
      }
    }
  })
  return prefix
}

function valid(program: Program): boolean {
  try {
    validateProgram(program)
    return true
  } catch {
    return false
  }
}

/** The program at `index` of the suite (undefined past its end). */
export function interactionProgramAt(index: number, options: ScopeOptions = {}): Program | undefined {
  return interactionSuite(options).at(index)?.program
}
