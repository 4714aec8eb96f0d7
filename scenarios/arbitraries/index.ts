/**
 * fast-check arbitraries generating whole programs, the coverage keys they exercise, and a printer
 * for reports.
 * @module
 */
export {
  actionArbitrary, actorArbitrary, DEFAULT_ARBITRARY_OPTIONS, effectArbitrary, environmentArbitrary, environmentEffectArbitrary,
  listenerArbitrary, loadArbitrary, mintingArbitrary, modelStepArbitrary, operationArbitrary, ownerArbitrary, persistedLogArbitrary,
  filterFieldsOf, gateArbitrary, payloadFilterArbitrary, preparationArbitrary, programArbitrary, REENTRANT_OPERATIONS, reentrantListenerArbitrary, reentrantProgramArbitrary,
  SESSION_EVENT_TYPES, sessionArbitrary, setupArbitrary, signalArbitrary,
} from './program.js'
export type { ArbitraryOptions, OperationKind } from './program.js'
export { ALL_COVERAGE_KEYS, classifyLog, coverageOf, mergeCoverage, missingCoverage, OPERATION_SITES } from './coverage.js'
export type { LogClass } from './coverage.js'
export { literal, operation as printOperation, printProgram } from './print.js'
export type { PrintOptions } from './print.js'
