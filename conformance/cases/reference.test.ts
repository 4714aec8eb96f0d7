import { describe, it } from 'vitest'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../adapters/adapter.js'
import { KIT_PROCESS_ADAPTER } from '../adapters/kit-process-adapter.js'
import { caseTitle, DIRECTED_CASES } from './index.js'
import type { CaseTarget } from './index.js'

const reference = normalizeAdapter(REFERENCE_ADAPTER)
const kitAsProcess = normalizeAdapter(KIT_PROCESS_ADAPTER)
const targets: [string, CaseTarget][] = [
  ['the reference factory', { process: reference.processFactory, supports: reference.supports }],
  ['the kit as a process adapter', { process: kitAsProcess.processFactory, supports: kitAsProcess.supports }],
]

for (const [name, target] of targets) {
  describe(`directed cases on ${name}`, () => {
    for (const c of DIRECTED_CASES) it(caseTitle(c), () => c.run(target))
  })
}
