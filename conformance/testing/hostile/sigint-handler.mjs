// An adapter that installs its own SIGINT/SIGTERM handlers (a library cleaning up on Ctrl-C), on a failing factory.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { process.stderr.write(`adapter: ${signal}, cleaning up\n`); process.exit(2) })
export { default } from './reject-all.mjs'
