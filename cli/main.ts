#!/usr/bin/env node
/**
 * `dsh-kit`: the only place that reads argv/env or calls process.exit. Commands: certify, replay,
 * explain, list. Exit codes: 0 pass, 1 a clause failed or a violation was found, 3 a replay did
 * not reproduce its recorded run, 64 usage error, 78 adapter error.
 * @module
 */
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { AdapterError, REFERENCE_ADAPTER } from '../conformance/adapter.js'
import type { Adapter } from '../conformance/adapter.js'
import { checkRun } from '../conformance/checkers/index.js'
import { CLAUSES, GROUPS } from '../conformance/clauses.js'
import { formatReport } from '../conformance/format-report.js'
import { certify } from '../conformance/suite.js'
import type { Progress } from '../conformance/suite.js'
import { readRunFile, RunFileError } from '../sim/run-file.js'
import { runProgram } from '../sim/run.js'
import { replay as replayStrategy } from '../sim/strategies/index.js'
import { renderTrace } from '../sim/trace.js'
import { loadAdapter } from './adapter-loader.js'

const EXIT = { ok: 0, violation: 1, diverged: 3, usage: 64, adapter: 78 } as const

const USAGE = `usage: dsh-kit <command> [options]

commands:
  certify [--adapter <module>] [--profile quick|thorough] [--json <file>] [--seed N] [--out <dir>] [--timelines] [--only "<GROUP> <n>"]...
      certify an AgentFactory adapter (the built-in reference factory by default) clause by clause
  replay <run-file> [--adapter <module>] [--timeline]
      replay a saved run from its decision log and check it again
  explain <run-file> [--adapter <module>]
      print the run's timeline, one line per event
  list
      print the clause groups and clauses
`

class UsageError extends Error {}

async function adapterFrom(spec: string | undefined): Promise<Adapter> {
  return spec === undefined ? REFERENCE_ADAPTER : loadAdapter(spec)
}

function progressPrinter(): (p: Progress) => void {
  let phase = ''
  let last = 0
  return (p) => {
    if (!process.stderr.isTTY && p.kind === 'tick' && p.done !== p.total) return
    if (p.kind === 'phase') {
      phase = p.phase
      return
    }
    const now = performance.now()
    if (p.done !== p.total && now - last < 100) return
    last = now
    const line = `  ${phase.padEnd(18)} ${String(p.done).padStart(5)}/${p.total}  failing clauses: ${p.failures}`
    process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`)
    if (p.done === p.total && process.stderr.isTTY) process.stderr.write('\n')
  }
}

async function certifyCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: {
    adapter: { type: 'string' }, profile: { type: 'string', default: 'quick' }, json: { type: 'string' },
    seed: { type: 'string' }, out: { type: 'string' }, timelines: { type: 'boolean', default: false }, only: { type: 'string', multiple: true },
  } })
  if (values.profile !== 'quick' && values.profile !== 'thorough') throw new UsageError(`--profile must be quick or thorough, got "${values.profile}"`)
  const seed = values.seed === undefined ? undefined : Number(values.seed)
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new UsageError(`--seed must be an integer, got "${values.seed}"`)
  const adapter = await adapterFrom(values.adapter)
  process.stderr.write(`certifying ${adapter.name}@${adapter.version} (${values.profile})\n`)
  const report = await certify(adapter, {
    profile: values.profile,
    onProgress: progressPrinter(),
    ...(values.adapter ? { adapterModule: values.adapter } : {}),
    ...(seed === undefined ? {} : { seed }),
    ...(values.out ? { outDir: values.out } : {}),
    ...(values.only ? { only: values.only } : {}),
  })
  console.log(formatReport(report, { timelines: values.timelines }))
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 1)}\n`)
  return report.passed ? EXIT.ok : EXIT.violation
}

async function replayCommand(args: string[], explainOnly: boolean): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { adapter: { type: 'string' }, timeline: { type: 'boolean', default: false } } })
  const path = positionals[0]
  if (!path) throw new UsageError(`${explainOnly ? 'explain' : 'replay'} needs a run file`)
  const file = readRunFile(path)
  const adapterSpec = values.adapter ?? file.adapter
  const adapter = await adapterFrom(adapterSpec)
  const { normalizeAdapter } = await import('../conformance/adapter.js')
  const strategy = replayStrategy(file.decisions)
  strategy.beginRun()
  const result = await runProgram(file.program, strategy, { install: normalizeAdapter(adapter, adapterSpec ?? 'reference').installFactory })
  const timeline = renderTrace(result.trace, result.decisions.decisions)
  if (explainOnly) {
    console.log(timeline)
    return EXIT.ok
  }
  const violations = checkRun(file.program, result.trace, result.outcome)
  if (values.timeline) console.log(timeline)
  console.log(`replayed ${path} against ${adapter.name}: ${result.decisions.decisions.length} decisions, trace ${result.hash} (recorded ${file.hash})`)
  for (const v of violations) console.log(`  ${v.key} violated at entry #${v.entry} (decision ${v.decision}): ${v.message}`)
  const recorded = new Set((file.violations ?? []).map((v) => v.clause))
  const found = new Set(violations.map((v) => v.key))
  const reproduced = [...recorded].every((k) => found.has(k))
  if (result.hash !== file.hash) {
    console.log(`replay produced a different trace (${result.hash} ≠ ${file.hash}): the code under test changed or is nondeterministic`)
    return recorded.size > 0 && reproduced ? EXIT.violation : EXIT.diverged
  }
  if (recorded.size > 0) console.log(reproduced ? `reproduced: ${[...recorded].join(', ')}` : `NOT reproduced: ${[...recorded].filter((k) => !found.has(k)).join(', ')}`)
  return violations.length > 0 ? EXIT.violation : EXIT.ok
}

function listCommand(): number {
  for (const group of GROUPS) {
    const clauses = CLAUSES.filter((c) => c.group === group)
    console.log(`${group} (${clauses.length})`)
    for (const c of clauses) console.log(`  ${String(c.clause).padStart(3)}  ${c.title}`)
  }
  return EXIT.ok
}

/** Run the CLI; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case 'certify': return await certifyCommand(rest)
      case 'replay': return await replayCommand(rest, false)
      case 'explain': return await replayCommand(rest, true)
      case 'list': return listCommand()
      case undefined: case '-h': case '--help': case 'help':
        console.log(USAGE)
        return command === undefined ? EXIT.usage : EXIT.ok
      default:
        throw new UsageError(`unknown command "${command}"`)
    }
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && /parseArgs|Unknown option|argument/i.test(error.message))) {
      console.error(`dsh-kit: ${error.message}\n\n${USAGE}`)
      return EXIT.usage
    }
    if (error instanceof AdapterError || error instanceof RunFileError) {
      console.error(`dsh-kit: ${error.message}`)
      return EXIT.adapter
    }
    throw error
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code }, (error) => {
  console.error(error)
  process.exitCode = 70
})
