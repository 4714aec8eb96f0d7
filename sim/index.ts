/**
 * The simulator's public face: programs, worlds, the scheduler and its strategies, traces, run files.
 * @module
 */
export { runProgram, runProgramWith, referenceInstall } from './run.js'
export type { RunProgramOptions, RunResult } from './run.js'
export type { SchedulerPort, RunDriver } from './ports.js'
export { validateProgram, parseProgram, ProgramError, OPERATION_KINDS, PROGRAM_VERSION, operationCount } from './program.js'
export type { Program, ActorSpec, Operation, EnvironmentSpec, SetupSpec, ListenerSpec, EffectSpec, ModelStepSpec, LoadSpec, MintingSpec, Action, CauseKind } from './program.js'
export { createStubAgent } from './stub-agent.js'
export { Scheduler, explore, DEFAULT_BUDGET } from './engine/index.js'
export type { RunOutcome, BlockedOperation } from './engine/index.js'
export { random, pct, dfs, replay, portfolio, ReplayDivergenceError, guidedReplay, defaultChoice, countPreemptions } from './strategies/index.js'
export type { Strategy, PendingPoint, PickContext, GuidedMatch, GuidedOptions, GuidedStep, GuidedStrategy } from './strategies/index.js'
export { createStreams, createRng } from './streams.js'
export type { Rng, Streams } from './streams.js'
export { traceHash, renderTrace, renderEntry, TRACE_VERSION } from './trace.js'
export type { Trace, TraceEntry, Snapshot, InboxSnapshot } from './trace.js'
export { readRunFile, writeRunFile, toRunFile, validateRunFile, describeOutcome, RunFileError } from './run-file.js'
export type { RunFile, SavedViolation } from './run-file.js'
export { parseDecisionLog, formatDecisionLog, validateDecisionLog } from './decision-log.js'
export type { DecisionLog, Decision } from './decision-log.js'
