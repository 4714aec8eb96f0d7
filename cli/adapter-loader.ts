/**
 * The CLI loads adapters through the conformance suite's loader (workers load them the same way).
 * @module
 */
export { KIT_ROOT, loadAdapter, resolveAdapterModule } from '../conformance/adapters/adapter-loader.js'
