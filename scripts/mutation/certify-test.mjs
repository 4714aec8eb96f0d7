#!/usr/bin/env node
// The "test" StrykerJS runs for each mutant (its command runner): the built CLI's `certify` on
// the reference, in the Stryker sandbox this runs in, so the mutated `dist/core/...js` is what
// certify loads (the instrumented code reads the active mutant from __STRYKER_ACTIVE_MUTANT__,
// which worker threads inherit).
//
// Exit codes, as Stryker reads them: 0 = survived, non-zero = killed. Only certify's exit 1 with a
// failing clause named is a kill; exit 0 is a survivor; anything else (another exit code, a
// signal, exit 1 without a clause) is a verdict bug of the kit and is logged as such, so the
// summary (summarize.mjs) does not count it as killed whatever Stryker says.
//
// One JSON line per run is appended to $DSH_MUTATION_LOG (when set): the mutant id, certify's
// exit code, the failing clauses and the first one's counterexample (what killed the mutant).
import { spawn } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const mutant = process.env.__STRYKER_ACTIVE_MUTANT__ ?? null
const workers = process.env.DSH_MUTATION_CERTIFY_WORKERS ?? '1'
const scratch = mkdtempSync(join(tmpdir(), 'dsh-mutant-'))
const report = join(scratch, 'report.json')
const args = ['dist/cli/main.js', 'certify', '--profile', 'quick', '--fail-fast', '--no-shrink',
  '--workers', workers, '--json', report, '--out', join(scratch, 'failures')]
const started = performance.now()
const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
let output = ''
child.stdout.on('data', (chunk) => { output += chunk })
child.stderr.on('data', (chunk) => { output += chunk })
const forward = (signal) => () => child.kill(signal)
process.on('SIGTERM', forward('SIGTERM'))
process.on('SIGINT', forward('SIGINT'))
child.on('close', (code, signal) => {
  const ms = Math.round(performance.now() - started)
  let parsed
  try { parsed = JSON.parse(readFileSync(report, 'utf8')) } catch { parsed = undefined }
  rmSync(scratch, { recursive: true, force: true })
  const failing = parsed?.failing ?? []
  const first = parsed?.clauses?.find((c) => c.key === failing[0])
  const failure = first?.failure
  const by = failure === undefined ? undefined
    : failure.via === 'directed case' ? `directed case "${failure.caseTitle}"`
    : `${failure.via} "${failure.programName ?? '?'}"`
  let verdict
  if (code === 0) verdict = 'survived'
  else if (code === 1 && failing.length > 0) verdict = 'killed'
  // Exit 78 is certify refusing the runtime before any case ran: install threw, or no factory got
  // registered (README's exit-code table). The mutant is caught, with a reason named, not a clause.
  else if (code === 78 && /^dsh-kit: /m.test(output)) verdict = 'refused'
  else verdict = 'verdict-bug'
  const entry = {
    mutant, verdict, code, signal, ms, failing,
    ...(failure ? { by, message: String(failure.message).slice(0, 400) } : {}),
    ...(verdict === 'verdict-bug' || verdict === 'refused' ? { output: output.slice(-2000) } : {}),
  }
  if (process.env.DSH_MUTATION_LOG) appendFileSync(process.env.DSH_MUTATION_LOG, `${JSON.stringify(entry)}\n`)
  if (mutant === null && verdict !== 'survived') process.stderr.write(output)
  process.exit(verdict === 'survived' ? 0 : 1)
})
