/**
 * Where the kit is installed, in a module of its own: the CLI reads its version from there before
 * it loads the adapter loader.
 * @module
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The kit's package root (this file is `dist/conformance/adapters/kit-root.js` or `conformance/adapters/kit-root.ts`). */
export const KIT_ROOT = (() => {
  // Two folders up from the sources, three from `dist/`: the first ancestor with a package.json.
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir)
  return dir
})()
