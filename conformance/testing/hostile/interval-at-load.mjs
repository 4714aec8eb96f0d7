// A ref'd interval started at load keeps the event loop alive after the report.
setInterval(() => {}, 1_000)
export { default } from './reject-all.mjs'
