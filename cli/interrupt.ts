/**
 * SIGINT and SIGTERM: the first one asks the running command to stop dispatching work, print its
 * partial summary, write its `--json` and exit with the signal's code; a second one quits at once.
 * @module
 */
import { EXIT } from './exit-codes.js'

let received: 'SIGINT' | 'SIGTERM' | undefined

/**
 * Install the handlers (once, by `main`, before anything else can). `quit` ends the process at once
 * with the signal's code (the second signal). The main thread runs no adapter code, so no handler
 * of an adapter can take a signal from the kit.
 */
export function installInterruptHandlers(quit: (code: number) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (received !== undefined) {
        process.stderr.write(`\ndsh-kit: ${signal} again: quitting at once\n`)
        quit(exitCodeOf(signal))
        return
      }
      received = signal
      process.stderr.write(`\ndsh-kit: ${signal} received: finishing the work in flight, then printing the partial summary (${signal === 'SIGINT' ? 'Ctrl-C' : 'the signal'} again quits at once)\n`)
    })
  }
}

/** The signal received so far, if any. */
export function interrupted(): 'SIGINT' | 'SIGTERM' | undefined {
  return received
}

/** The exit code of an interrupted command. */
export function exitCodeOf(signal: 'SIGINT' | 'SIGTERM'): number {
  return signal === 'SIGINT' ? EXIT.interrupted : EXIT.terminated
}
