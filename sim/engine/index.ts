/**
 * The deterministic scheduling engine: knows nothing about agents, only about
 * scheduling points, operations, virtual time and strategies.
 * @module
 */
export { Scheduler, DEFAULT_BUDGET, type RunOptions } from './scheduler.js'
export { explore, type ExploreOptions } from './explore.js'
export type { OpHandle, OpOutcome } from './operations.js'
export type {
  BlockedOperation,
  CrashOutcome,
  CrashSource,
  DeadlockOutcome,
  LivelockOutcome,
  OkOutcome,
  RunOutcome,
  UncontrolledOutcome,
} from './outcome.js'
