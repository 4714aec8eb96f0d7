/**
 * Running a program: a fresh world under one scheduler, returning the outcome and the trace as data.
 * @module
 */
import type { InstallFactory, ProcessFactory } from '../core/process.js'
import { kitProcess } from '../core/process.js'
import { installReferenceFactory } from '../core/factory/reference-factory.js'
import type { DecisionLog } from './trace/decision-log.js'
import { Scheduler } from './engine/index.js'
import type { RunOutcome } from './engine/index.js'
import type { RunDriver } from './world/ports.js'
import type { Program } from './program/program.js'
import { validateProgram } from './program/program.js'
import type { Strategy } from './strategies/strategy.js'
import type { Trace } from './trace/trace.js'
import { DEFAULT_MAX_TRACE_ENTRIES, TraceRecorder, traceHash } from './trace/trace.js'
import { World } from './world/world.js'

/** The reference factory as an installer (the default factory under test). */
export const referenceInstall: InstallFactory = (ctx) => installReferenceFactory(ctx)

/** Options of {@link runProgram}. */
export interface RunProgramOptions {
  /** The factory under test, installed in the kit's own process; the reference factory by default. */
  install?: InstallFactory
  /** A whole process to boot instead (a foreign runtime); takes precedence over `install`. */
  process?: ProcessFactory
  /** Step budget (livelock bound). */
  budget?: number
  /**
   * The caller vouches that `program` passes `validateProgram` (a campaign's generated and mutated
   * programs do by construction): it is not validated again for this run.
   */
  validated?: boolean
  /**
   * Record the trace's facts (default true): what the checkers decide with beyond the entries. Off,
   * the run records the same entries (the same hash) and no fact.
   */
  facts?: boolean
}

/** One run's result. */
export interface RunResult {
  readonly outcome: RunOutcome
  readonly trace: Trace
  /** Stable hash of the trace. */
  readonly hash: string
  readonly decisions: DecisionLog
}

/**
 * Processes a run may boot: a program whose listeners crash or restart every process they are
 * registered in loops through new ones by its own design, a few steps each, and its trace (about 18
 * entries per process) and checkers grow with it; honest programs boot a handful.
 */
export const MAX_PROCESSES = 256

function bootLoop(world: World | undefined): string | undefined {
  return world !== undefined && world.generation >= MAX_PROCESSES ? `the program booted ${MAX_PROCESSES} processes (its crashes and restarts)` : undefined
}

/**
 * Run `program` once under `strategy` (on which `beginRun()` must have returned true) in a fresh
 * world. Everything the run uses is built inside it; nothing survives to the next run.
 */
export function runProgram(program: Program, strategy: Strategy, options: RunProgramOptions = {}): Promise<RunResult> {
  return runProgramWith(program, new Scheduler(strategy), options)
}

/**
 * Run `program` once in a fresh world driven by `driver`, a fresh {@link RunDriver} that has not run
 * yet: {@link runProgram} passes the kit's `Scheduler`; a benchmark passes another scheduler behind
 * the same port to compare the two on the same world.
 */
export async function runProgramWith(program: Program, driver: RunDriver, options: RunProgramOptions = {}): Promise<RunResult> {
  if (options.validated !== true) validateProgram(program)
  const trace = new TraceRecorder(() => driver.decisionCount, DEFAULT_MAX_TRACE_ENTRIES, options.facts ?? true)
  let world: World | undefined
  const outcome = await driver.run(async () => {
    world = await World.create({ program, process: options.process ?? kitProcess(options.install ?? referenceInstall), port: driver, trace })
    const w = world
    await Promise.all(program.actors.map((actor) => w.operations.runActor(actor.id, actor.ops)))
  }, { ...(options.budget === undefined ? {} : { budget: options.budget }), runaway: () => trace.overflow ?? bootLoop(world) })
  world?.recordFinal()
  world?.abandon()
  return new HashedLazily(outcome, trace.toTrace())
}

/**
 * A run's result whose hash is computed on first read: hashing serialises the whole trace, and most
 * callers (certify, campaigns) never read it. A class, not an object literal with a getter: V8 gives
 * each such literal a map of its own, allocated in old space, and that map holds the getter's closure
 * and with it the run's trace and world past every young-generation collection until the next full
 * one (measured: about a third of a run's allocation was promoted through such literals).
 */
class HashedLazily implements RunResult {
  #hash: string | undefined
  readonly decisions: DecisionLog

  constructor(readonly outcome: RunOutcome, readonly trace: Trace) {
    this.decisions = outcome.decisions
  }

  get hash(): string { return (this.#hash ??= traceHash(this.trace)) }
}
