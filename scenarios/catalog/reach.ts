/**
 * Exploring one scenario until its goals are reached: runs rotate over `random`, `pct d=2` and
 * `pct d=3`, each a fresh world, and report which goal was first reached at which run and which
 * outcomes were unexpected (a crash, uncontrolled async work, a livelock, or a deadlock the
 * scenario does not declare).
 * @module
 */
import { crashText } from '../../sim/trace/bounded-text.js'
import type { InstallFactory } from '../../core/process.js'
import type { RunOutcome } from '../../sim/engine/index.js'
import type { RunResult } from '../../sim/run.js'
import { runProgram } from '../../sim/run.js'
import { pct, random } from '../../sim/strategies/index.js'
import type { Strategy } from '../../sim/strategies/index.js'
import type { Scenario } from './scenario.js'

/** Options of {@link reachGoals}. */
export interface ReachOptions {
  /** Maximum runs (all strategies together). Default 200. */
  readonly budget?: number
  /** The factory under test; the reference factory by default. */
  readonly install?: InstallFactory
  /** Root seed of the strategies. Default 0. */
  readonly seed?: string | number
  /** Keep running after every goal was reached (to sample outcomes). Default false. */
  readonly exhaustBudget?: boolean
  /** Run at least this many times even when every goal is reached earlier (default 0). */
  readonly minRuns?: number
  /** Called after each run (for campaigns that also check the trace). */
  readonly onRun?: (result: RunResult, strategy: string, run: number) => void
}

/** An outcome that is a finding for this scenario. */
export interface UnexpectedOutcome {
  readonly run: number
  readonly strategy: string
  readonly kind: RunOutcome['kind']
  readonly detail: string
}

/** What {@link reachGoals} found. */
export interface ReachReport {
  readonly scenario: string
  readonly runs: number
  /** Goal name → the first run (0-based) whose trace reached it, or `undefined`. */
  readonly reached: Record<string, number | undefined>
  /** Goals never reached within the budget. */
  readonly missed: string[]
  readonly outcomes: Record<RunOutcome['kind'], number>
  readonly unexpected: UnexpectedOutcome[]
}

function describe(outcome: RunOutcome): string {
  switch (outcome.kind) {
    case 'crash': return `${outcome.source}: ${crashText(outcome.error)}`
    case 'uncontrolled': return outcome.seen
    case 'livelock': return `budget ${outcome.budget}`
    case 'deadlock': return outcome.blocked.map((b) => `${b.actor} ${b.op} waits on ${b.waitingOn}`).join('; ')
    case 'ok': return ''
  }
}

/** The strategies a scenario is explored with, in rotation. */
export function scenarioStrategies(seed: string | number = 0): Strategy[] {
  return [random({ seed }), pct({ seed, depth: 2 }), pct({ seed, depth: 3 })]
}

/** Run `scenario` until every goal is reached or `budget` runs were spent. */
export async function reachGoals(scenario: Scenario, options: ReachOptions = {}): Promise<ReachReport> {
  const budget = options.budget ?? 200
  const strategies = scenarioStrategies(options.seed ?? 0)
  const reached: Record<string, number | undefined> = Object.fromEntries(scenario.goals.map((g) => [g.name, undefined]))
  const outcomes: Record<RunOutcome['kind'], number> = { ok: 0, deadlock: 0, livelock: 0, uncontrolled: 0, crash: 0 }
  const unexpected: UnexpectedOutcome[] = []
  let runs = 0
  while (runs < budget) {
    const strategy = strategies[runs % strategies.length]!
    strategy.beginRun()
    const name = strategy.name
    const result = await runProgram(scenario.program, strategy, options.install ? { install: options.install } : {})
    outcomes[result.outcome.kind]++
    const kind = result.outcome.kind
    if (kind !== 'ok' && !(kind === 'deadlock' && scenario.expectDeadlock)) {
      unexpected.push({ run: runs, strategy: name, kind, detail: describe(result.outcome) })
    }
    for (const g of scenario.goals) if (reached[g.name] === undefined && g.reached(result.trace)) reached[g.name] = runs
    options.onRun?.(result, name, runs)
    runs++
    if (!options.exhaustBudget && runs >= (options.minRuns ?? 0) && Object.values(reached).every((r) => r !== undefined)) break
  }
  const missed = Object.entries(reached).filter(([, r]) => r === undefined).map(([g]) => g)
  return { scenario: scenario.name, runs, reached, missed, outcomes, unexpected }
}
