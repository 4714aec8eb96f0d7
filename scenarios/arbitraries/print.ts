/**
 * The program printer lives in `sim/program/program-print.ts` (so `certify`'s report prints programs the
 * same way); re-exported here, where the campaign and the tests have always found it.
 * @module
 */
export { literal, operation, printProgram } from '../../sim/program/program-print.js'
export type { PrintOptions } from '../../sim/program/program-print.js'
