#!/usr/bin/env node
/**
 * Reruns one directed case of the conformance suite on this adapter in a fresh process, as the
 * replay of a case failure: prints `passed` or `failed: <message>`. Run it from the kit's root with
 * the local Node 22, after `npm run build`:
 *
 *   node adapters/dsh-agent-loop/scripts/rerun-case.mjs "AGENT-TEARDOWN-TEST 110: a waking send …"
 *
 * Exit code: 0 when the case ran (passed or failed), 64 when no case has that title.
 * @module
 */
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const HERE = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const KIT_ROOT = resolve(HERE, '..', '..')
const kit = (path) => import(pathToFileURL(join(KIT_ROOT, 'dist', path)).href)
const { loadAdapter } = await kit('cli/adapter-loader.js')
const { normalizeAdapter } = await kit('conformance/adapters/adapter.js')
const { DIRECTED_CASES, caseTitle } = await kit('conformance/cases/index.js')
const { runCase, caseTarget } = await kit('conformance/certify/certify.js')

const title = process.argv[2]
const found = DIRECTED_CASES.find((c) => caseTitle(c) === title)
if (!found) {
  console.error(`rerun-case: no directed case is titled ${JSON.stringify(title)}`)
  process.exit(64)
}
const spec = relative(KIT_ROOT, HERE)
const adapter = normalizeAdapter(await loadAdapter(join(KIT_ROOT, spec)), spec)
const error = await runCase(found, caseTarget(adapter))
console.log(error === undefined ? 'passed' : `failed: ${error}`)
process.exit(0)
