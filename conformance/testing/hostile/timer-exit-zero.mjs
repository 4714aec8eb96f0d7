// A ref'd timer that ends the process with 0 later, on a failing factory.
setTimeout(() => process.exit(0), 8_000)
export { default } from './reject-all.mjs'
