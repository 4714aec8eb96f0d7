// "Flush, then exit": a common library pattern, on a failing factory.
process.on('beforeExit', () => process.exit(0))
export { default } from './reject-all.mjs'
