/**
 * The capabilities of the process port (`conformance/adapters/capabilities.ts`) a program needs to
 * mean what it says: a crash needs `crash`, persistence preparations `preparations`, a process
 * without persistence `noPersistence`, behaviours inside scope minting `scopeMinting`. A process
 * without one would not fail such a program, it would quietly run another one: certify runs a
 * directed program only on an adapter that declares all it needs.
 * @module
 */
import type { Program } from '../../sim/program/program.js'
import { containsOperation } from '../../sim/program/contains-operation.js'
import type { Capability } from '../adapters/capabilities.js'

/** The capabilities `program` needs, in a stable order. */
export function programCapabilities(program: Program): Capability[] {
  const needs: Capability[] = []
  if (containsOperation(program, 'crash')) needs.push('crash')
  if (program.env?.preparations !== undefined) needs.push('preparations')
  if (program.env?.persistence === false) needs.push('noPersistence')
  if (program.env?.minting?.length) needs.push('scopeMinting')
  return needs
}
