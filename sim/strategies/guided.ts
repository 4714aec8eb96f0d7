/**
 * Guided replay: follow a recorded decision log as far as it still fits, and where it no longer
 * does, take the least surprising choice instead of failing. The shrinker runs edited programs
 * and edited logs with it (where strict {@link replay} would throw at the first divergence), and
 * replaying a mutant's failing log against a correct factory, whose run diverges from the
 * mutant's, uses it too.
 *
 * The default choice is "no preemption, else first-in-first-out": the actor picked last continues
 * if it has a pending point, else the point that became pending first proceeds.
 *
 * @module
 */
import type { Decision, DecisionLog } from '../trace/decision-log.js'
import { notInRun, type PendingPoint, type PickContext, type Strategy } from './strategy.js'

/** How a guided replay matches the log's picks to the pending points. */
export type GuidedMatch =
  /**
   * Pick number `t` follows the log's pick number `t` when that label is pending. Editing one
   * pick leaves the others where they were: the decision shrinker's mode.
   */
  | 'position'
  /**
   * Among the pending points, the one whose label comes first in the not yet used part of the
   * log proceeds, and that log entry is used up. Points that no longer exist (an operation was
   * removed from the program) just drop out, and the surviving ones keep their relative order:
   * the program shrinker's mode. On an unchanged program this is an exact replay.
   */
  | 'label'

/** Options of {@link guidedReplay}. */
export interface GuidedOptions {
  /** Default `label`. */
  readonly match?: GuidedMatch
  /** Follow only the first `upTo` picks of the log; later picks take the default choice. */
  readonly upTo?: number
  /** Pick numbers (0-based, counting picks only) that take the default choice instead of the log's. */
  readonly skip?: ReadonlySet<number>
}

/** What the guided run did at one pick. */
export interface GuidedStep {
  /** The label that proceeded. */
  readonly label: string
  /** It was what the log asked for (else the default choice was taken). */
  readonly followed: boolean
  /** It was also the default choice (no preemption, else FIFO): a pick the shrinker cannot simplify. */
  readonly isDefault: boolean
  /** The last actor had a pending point and another actor's point proceeded. */
  readonly preemption: boolean
}

/** A guided replay strategy; `steps` describes each pick of its (single) run. */
export interface GuidedStrategy extends Strategy {
  readonly steps: readonly GuidedStep[]
}

/** Index of the default choice: the last actor's earliest pending point, else the earliest point. */
export function defaultChoice(pending: readonly PendingPoint[], lastActor: string | undefined): number {
  if (lastActor !== undefined) {
    for (let i = 0; i < pending.length; i++) if (pending[i]!.actor === lastActor) return i
  }
  return 0
}

/**
 * Follow `log` where it fits (see {@link GuidedMatch}); elsewhere take the default choice (no
 * preemption, else FIFO). A random draw takes the log's next draw of the same range, else 0. Runs
 * exactly once and never throws a divergence: the run's own decision log, not `log`, is what a
 * strict replay reproduces afterwards.
 */
export function guidedReplay(log: DecisionLog, options: GuidedOptions = {}): GuidedStrategy {
  const match = options.match ?? 'label'
  const picks = log.decisions.filter((d): d is Extract<Decision, { kind: 'pick' }> => d.kind === 'pick').map((d) => d.label)
  const draws = log.decisions.filter((d): d is Extract<Decision, { kind: 'random' }> => d.kind === 'random')
  const upTo = Math.min(options.upTo ?? picks.length, picks.length)
  const skip = options.skip ?? new Set<number>()
  // label mode: the log's picks not used yet, in order (skipped and cut-off ones never are).
  const remaining: (string | undefined)[] = picks.slice(0, upTo).map((label, t) => (skip.has(t) ? undefined : label))
  let firstRemaining = 0
  const steps: GuidedStep[] = []
  let draw = 0
  let begun = false
  let active = false

  const fromLog = (pending: readonly PendingPoint[], t: number): number => {
    if (match === 'position') {
      if (t >= upTo || skip.has(t)) return -1
      const want = picks[t]
      return pending.findIndex((p) => p.label === want)
    }
    let best = -1
    let bestAt = Number.POSITIVE_INFINITY
    for (let i = 0; i < pending.length; i++) {
      const at = remaining.indexOf(pending[i]!.label, firstRemaining)
      if (at >= 0 && at < bestAt) {
        best = i
        bestAt = at
      }
    }
    if (best >= 0) {
      remaining[bestAt] = undefined
      while (firstRemaining < remaining.length && remaining[firstRemaining] === undefined) firstRemaining++
    }
    return best
  }

  // A guided replay of a guided replay (as the shrinker chains them) names the original strategy once.
  const base = log.strategy.replace(/^(guided replay \((label|position)\) of )+/, '')
  return {
    name: `guided replay (${match}) of ${base}`,
    ...(log.seed === undefined ? {} : { seed: log.seed }),
    steps,
    beginRun() {
      if (begun) return false
      begun = true
      active = true
      return true
    },
    pick(pending: readonly PendingPoint[], ctx: PickContext) {
      if (!active) throw notInRun('guided replay', 'pick')
      const fallback = defaultChoice(pending, ctx.lastActor)
      const logged = fromLog(pending, steps.length)
      const index = logged >= 0 ? logged : fallback
      const chosen = pending[index]!
      const lastCanRun = ctx.lastActor !== undefined && pending.some((p) => p.actor === ctx.lastActor)
      steps.push({ label: chosen.label, followed: logged >= 0, isDefault: index === fallback, preemption: lastCanRun && chosen.actor !== ctx.lastActor })
      return index
    },
    random(n: number) {
      if (!active) throw notInRun('guided replay', 'random')
      while (draw < draws.length) {
        const d = draws[draw++]!
        if (d.n === n) return d.value
      }
      return 0
    },
    endRun() {
      active = false
    },
  }
}

/** Preemptions in a guided run (see {@link GuidedStep.preemption}). */
export function countPreemptions(steps: readonly GuidedStep[]): number {
  let n = 0
  for (const s of steps) if (s.preemption) n++
  return n
}
