/**
 * The adapter `dsh-kit certify` loads: the factory, built in its own plugin context for each run.
 *
 *     npm run build && npx dsh-kit certify --adapter examples/from-scratch-factory/adapter.ts
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchFactory } from './factory.js'

export default factoryAdapter(
  { name: 'from-scratch-factory', version: '0.1.0', supports: { queue: true } },
  (pluginCtx) => new ScratchFactory(pluginCtx),
)
