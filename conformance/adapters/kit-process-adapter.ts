/**
 * The kit's own runtime certified as a *process* adapter: `kitProcess` over the reference factory,
 * booted whole through `process(services)` as a foreign runtime would be. Its certificate must equal
 * the reference factory adapter's: every clause checked, all pass.
 *
 *   npx dsh-kit certify --adapter conformance/adapters/kit-process-adapter.ts
 * @module
 */
import { kitProcess } from '../../core/process.js'
import { installReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Adapter } from './adapter.js'

/** The reference factory on the kit's registry, store and scope, exposed as a process adapter. */
export const KIT_PROCESS_ADAPTER: Adapter = {
  name: 'dsh-lifecycle-kit reference (as a process)',
  version: '0.1.0',
  supports: { queue: true, scopeMinting: true, preparations: true, noPersistence: true, warnings: true, agentEvents: true, effectLabels: true, crash: true },
  process: kitProcess((ctx) => installReferenceFactory(ctx)),
}

export default KIT_PROCESS_ADAPTER
