/**
 * The conformance suite's public face: adapters, `certify`, `defineConformanceSuite`, checkers.
 * @module
 */
export { factoryAdapter, referenceAdapter, REFERENCE_ADAPTER, normalizeAdapter, AdapterError, DEFAULT_SUPPORTS } from './adapter.js'
export type { Adapter, AdapterWorld, InstalledAdapter, Supports, NormalizedAdapter } from './adapter.js'
export { certify, PROFILES, SUITE_VERSION, strategyFor } from './suite.js'
export type { CertifyOptions, ClauseResult, Failure, Profile, Progress, Report } from './suite.js'
export { declaredClauses, defineConformanceSuite } from './define-suite.js'
export type { Declared, DefineSuiteOptions, TestBody, TestFramework, TestFunction } from './define-suite.js'
export { describeShrink, formatReport, formatFailure, formatClauseTable, verdictOf } from './format-report.js'
export { checkRun, CHECKED_CLAUSES } from './checkers/index.js'
export type { Violation } from './checkers/index.js'
export { CLAUSES, GROUPS } from './clauses.js'
export type { Clause } from './clauses.js'
export { CONTRACT_SECTIONS } from './contract-sections.js'
export type { ContractSection } from './contract-sections.js'
export { checksOf, findClause, formatClauseEntry, sectionsOf } from './clause-reference.js'
export type { ClauseChecks, Coverage } from './clause-reference.js'
export { DIRECTED_PROGRAMS } from './programs.js'
export { randomProgram } from './random-programs.js'
export { CERTIFY_SHRINK_BUDGET } from './certify-shrink.js'
export type { FailureShrink } from './certify-shrink.js'
