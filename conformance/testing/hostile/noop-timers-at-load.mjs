// A correct factory whose module replaces setTimeout/setInterval/setImmediate with no-ops at load.
globalThis.setTimeout = () => 0
globalThis.setInterval = () => 0
globalThis.setImmediate = () => 0
export { REFERENCE_ADAPTER as default } from 'dsh-lifecycle-kit/conformance'
