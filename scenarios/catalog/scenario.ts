/**
 * Named race scenarios (design.md concept 2 and 6): a program aimed at one or more clause groups of
 * the contract's §9 (`docs/clauses.md`), plus the "sometimes" goals a campaign must reach at least
 * once for the scenario to have been explored at all.
 * @module
 */
import type { Program } from '../../sim/program/program.js'
import { validateProgram } from '../../sim/program/program.js'
import type { Trace } from '../../sim/trace/trace.js'

/** The clause groups of §9 (`docs/clauses.md`), by test ID. */
export const CLAUSE_GROUPS = [
  'AGENT-FACTORY-SEAM',
  'AGENT-PUBLIC-INTERFACE',
  'AGENT-RUNTIME-SCOPE',
  'AGENT-SETUP-CONTRACT',
  'AGENT-CREATE-RESUME',
  'AGENT-PREPARE-PUBLISH',
  'AGENT-ATOMIC-TEST',
  'AGENT-REGISTRY-LIFECYCLE',
  'AGENT-REGISTRY-TEST',
  'AGENT-TEARDOWN-TEST',
  'AGENT-INBOX-REPLAY',
  'AGENT-INBOX-COMMIT',
  'AGENT-INBOX-TEST',
  'AGENT-INITIATOR-API',
  'AGENT-INITIATOR-DRAIN',
  'X-CANCEL',
  'X-INPUT',
  'X-SESSION',
] as const

/** One clause group of §9. */
export type ClauseGroup = (typeof CLAUSE_GROUPS)[number]

/**
 * A "sometimes" goal: an interesting state a campaign must reach at least once (e.g. "both same-id
 * creates were inside setup at once"). It reads the trace only: marks, events, appends, outcomes.
 * A goal says nothing about correctness; the checkers do that.
 */
export interface Goal {
  /** Kebab-case, unique within its scenario. */
  readonly name: string
  reached(trace: Trace): boolean
}

/** A named race program and the goals that show it was explored. */
export interface Scenario {
  /** Kebab-case, unique across {@link SCENARIOS}. */
  readonly name: string
  /** One line saying what races. */
  readonly title: string
  /** Clause groups it aims at. */
  readonly groups: readonly ClauseGroup[]
  readonly program: Program
  readonly goals: readonly Goal[]
  /**
   * The scenario deliberately hangs something (a model call, a load or a setup) that some schedules
   * never release, so a `deadlock` outcome is expected there and is not a finding.
   */
  readonly expectDeadlock?: boolean
}

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** A scenario definition failed its own checks; the message names the scenario and the field. */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError'
}

/** Check a scenario's shape (names, groups, goals, program) and return it unchanged. */
export function defineScenario(scenario: Scenario): Scenario {
  const where = checkNames(scenario)
  try {
    validateProgram(scenario.program)
  } catch (error) {
    throw new ScenarioError(`${where}: ${(error as Error).message}`, { cause: error })
  }
  return scenario
}

/**
 * {@link defineScenario} for the catalog's own scenarios, whose programs `scenarios.test.ts`
 * validates: they are not validated again at every import, which was about a third of the
 * catalog's load in each thread that loads it (a campaign's feeding thread and every worker).
 */
export function catalogScenario(scenario: Scenario): Scenario {
  checkNames(scenario)
  return scenario
}

/** Check a scenario's names, groups and goals; returns how messages name it. */
function checkNames(scenario: Scenario): string {
  const where = `scenario ${JSON.stringify(scenario.name)}`
  if (!KEBAB.test(scenario.name)) throw new ScenarioError(`${where}: name must be kebab-case`)
  if (scenario.title.length === 0) throw new ScenarioError(`${where}: title must not be empty`)
  if (scenario.groups.length === 0) throw new ScenarioError(`${where}: groups must name at least one clause group`)
  for (const group of scenario.groups) {
    if (!(CLAUSE_GROUPS as readonly string[]).includes(group)) {
      throw new ScenarioError(`${where}: unknown clause group ${JSON.stringify(group)}; expected one of ${CLAUSE_GROUPS.join(', ')}`)
    }
  }
  if (scenario.goals.length === 0) throw new ScenarioError(`${where}: a scenario needs at least one goal`)
  const names = new Set<string>()
  for (const goal of scenario.goals) {
    if (!KEBAB.test(goal.name)) throw new ScenarioError(`${where}: goal name ${JSON.stringify(goal.name)} must be kebab-case`)
    if (names.has(goal.name)) throw new ScenarioError(`${where}: duplicate goal ${JSON.stringify(goal.name)}`)
    names.add(goal.name)
  }
  return where
}

/** A goal from a name and a trace predicate. */
export function goal(name: string, reached: (trace: Trace) => boolean): Goal {
  return { name, reached }
}
