#!/usr/bin/env node
/**
 * `dsh-kit`: the only place that reads argv/env, the wall clock of a time budget, or sets the exit
 * code. Commands live in `commands/`; every exit code is in `exit-codes.ts`. The guarantee: the exit
 * code is 0 only when the whole requested work ran to completion and passed (for `explain`, a
 * viewer: when it drew the timeline, whatever the run shows); anything else is a documented
 * non-zero code with one line saying why.
 * @module
 */
// First: V8's tiering is set before the kit's modules run.
import './v8-tuning.js'
// Only what every command needs is imported here: the workers of a certification start once its
// command module has read the options, and everything imported here delays them.
import { AdapterError } from '../conformance/adapters/adapter-error.js'
import { crashText } from '../sim/trace/bounded-text.js'
import { InputError, OutputError, UsageError } from './errors.js'
import { EXIT } from './exit-codes.js'
import { installInterruptHandlers } from './interrupt.js'
import { kitVersion } from './kit-version.js'
import { COMMAND_USAGE, usage } from './usage.js'

/**
 * Each command's module, imported when the command runs: a process loads what its command needs
 * (`fuzz` does not load the certification cases, the HTML pages or the comparison), which is most
 * of a short command's start-up.
 */
const COMMANDS: Readonly<Record<string, (args: string[]) => Promise<number>>> = {
  certify: async (args) => (await import('./commands/certify.js')).certifyCommand(args),
  fuzz: async (args) => (await import('./commands/fuzz.js')).fuzzCommand(args),
  merge: async (args) => (await import('./commands/merge.js')).mergeCommand(args),
  run: async (args) => (await import('./commands/run.js')).runCommand(args),
  replay: async (args) => (await import('./commands/replay.js')).replayCommand(args),
  explain: async (args) => (await import('./commands/explain.js')).explainCommand(args),
  list: async (args) => (await import('./commands/list.js')).listCommand(args),
  compare: async (args) => (await import('./commands/compare.js')).compareCommand(args),
  init: async (args) => (await import('./commands/init.js')).initCommand(args),
}

/** Run the CLI; returns the exit code (never throws). */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  try {
    if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
      const topic = command === 'help' ? rest[0] : undefined
      if (topic !== undefined && COMMAND_USAGE[topic] === undefined) throw new UsageError(`unknown command "${topic}"; commands: ${Object.keys(COMMANDS).join(', ')}`)
      console.log(topic === undefined ? usage() : COMMAND_USAGE[topic])
      return command === undefined ? EXIT.usage : EXIT.ok
    }
    if (command === '--version' || command === '-v') {
      console.log(kitVersion())
      return EXIT.ok
    }
    const run = COMMANDS[command]
    if (run === undefined) throw new UsageError(`unknown command "${command}"; commands: ${Object.keys(COMMANDS).join(', ')} (dsh-kit --help)`)
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(COMMAND_USAGE[command])
      return EXIT.ok
    }
    return await run(rest)
  } catch (error) {
    return await report(error)
  }
}

/** One line for what went wrong, and its exit code. */
async function report(error: unknown): Promise<number> {
  const line = (message: string): void => console.error(`dsh-kit: ${message}`)
  if (error instanceof UsageError) return line(error.message), EXIT.usage
  // (loaded here, not at start-up: the command that threw them has loaded them already)
  const [{ ProgramError }, { RunFileError }] = await Promise.all([import('../sim/program/program.js'), import('../sim/trace/run-file.js')])
  if (error instanceof InputError || error instanceof RunFileError || error instanceof ProgramError) return line(error.message), EXIT.input
  if (error instanceof OutputError) return line(error.message), EXIT.output
  if (error instanceof AdapterError || (error instanceof Error && error.name === 'AdapterError')) return line(error.message), EXIT.adapter
  // A pool's worker died, hung or ran away while loading the adapter module (reported once, never respawned).
  if (error instanceof Error && error.name === 'PoolInitError') return line(`cannot load the adapter: ${error.message}`), EXIT.adapter
  line(`internal error (a bug in dsh-kit; please report it with the command line): ${crashText(error)}`)
  return EXIT.internal
}

let finished = false
/** The verdict's exit code, once `main` has it: the only code the process may end with from then on. */
let verdict: number | undefined
// An exception nothing caught ends the process (Node prints it): a crash, not a hang.
let crashed = false
process.on('uncaughtExceptionMonitor', () => {
  crashed = true
})
// For the kit's own tests: the peak memory of the whole process (worker threads included).
if (process.env.DSH_KIT_REPORT_PEAK_RSS === '1') process.on('exit', () => process.stderr.write(`dsh-kit: peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB\n`))
// The exit code is the kit's: once the verdict is known it is re-asserted here, whatever ran before
// this listener (a `beforeExit` handler or a timer calling `process.exit(0)`, a write to
// `process.exitCode`). Before it is known, an exit is a crash or a hang, never a pass: if the event
// loop drains while the command still waits on something, Node would exit with the code set so far.
process.on('exit', () => {
  if (finished) {
    process.exitCode = verdict
    return
  }
  if (crashed) {
    process.stderr.write(`dsh-kit: ${process.argv[2] ?? ''} crashed on an uncaught exception raised outside every run the kit watches (printed below): from the adapter's own code, or a bug in dsh-kit (please report it with the command line)\n`)
    process.exitCode = EXIT.internal
    return
  }
  process.stderr.write(`dsh-kit: ${process.argv[2] ?? ''} did not complete: the event loop went idle while work was still pending (a hang in code nothing watched)\n`)
  process.exitCode = EXIT.incomplete
})

/** Flush stdout and stderr, then end the process with `code` (nothing left running decides it). */
async function exitWith(code: number): Promise<never> {
  finished = true
  verdict = code
  process.exitCode = code
  const flushed = (stream: NodeJS.WriteStream): Promise<void> => new Promise((resolve) => {
    try {
      stream.write('', () => resolve())
    } catch {
      resolve()
    }
  })
  await Promise.race([Promise.all([flushed(process.stdout), flushed(process.stderr)]), new Promise((resolve) => setTimeout(resolve, 5_000).unref())])
  process.exit(code)
}

installInterruptHandlers((code) => {
  finished = true
  verdict = code
  process.exit(code)
})
main(process.argv.slice(2)).then((code) => exitWith(code), async (error: unknown) => exitWith(await report(error)))
