/**
 * The conformance suite's public face: adapters, `certify`, `defineConformanceSuite`, checkers.
 * @module
 */
export { factoryAdapter, referenceAdapter, REFERENCE_ADAPTER, normalizeAdapter, AdapterError, DEFAULT_SUPPORTS } from './adapter.js'
export type { Adapter, AdapterWorld, InstalledAdapter, Supports, NormalizedAdapter } from './adapter.js'
export { certify, PROFILES, SUITE_VERSION, strategyFor, caseTarget, caseSkipReason, runCase } from './suite.js'
export type { CertifyOptions, CheckedBy, ClauseResult, Failure, Profile, Progress, Report } from './suite.js'
export { CAPABILITIES, CAPABILITY_NAMES } from './capabilities.js'
export type { Capabilities, Capability } from './capabilities.js'
export { DIRECTED_CASES, caseTitle, makeHarness } from './cases/index.js'
export type { CaseTarget, DirectedCase, Harness, HarnessOptions } from './cases/index.js'
export { SUITE_DEMANDS } from './demands.js'
export type { SuiteDemand } from './demands.js'
export { KIT_PROCESS_ADAPTER } from './kit-process-adapter.js'
export { defineConformanceSuite } from './define-suite.js'
export type { DefineSuiteOptions, TestFramework } from './define-suite.js'
export { formatReport, formatFailure, formatClauseTable } from './format-report.js'
export { checkRun, CHECKED_CLAUSES } from './checkers/index.js'
export type { Violation } from './checkers/index.js'
export { CLAUSES, GROUPS } from './clauses.js'
export type { Clause } from './clauses.js'
export { DIRECTED_PROGRAMS } from './programs.js'
export { randomProgram } from './random-programs.js'
