/**
 * The kit's version, from its package.json (`dsh-kit --version`, the certificate page).
 * @module
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { KIT_ROOT } from '../conformance/adapters/kit-root.js'

/** The `version` of the kit's package.json. */
export function kitVersion(): string {
  return (JSON.parse(readFileSync(join(KIT_ROOT, 'package.json'), 'utf8')) as { version: string }).version
}
