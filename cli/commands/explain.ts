/**
 * `dsh-kit explain`: a saved run's timeline, one line per event with a column per actor, or a
 * self-contained swim-lane page. A viewer, not a verdict: it exits 0 once it drew the timeline,
 * even of a violating run (it prints the violations); `replay` is the command to gate on.
 * @module
 */
import { basename } from 'node:path'
import { checkRun } from '../../conformance/checkers/index.js'
import { normalizeAdapter } from '../../conformance/adapters/adapter.js'
import { buildTimeline, renderHtml, renderLanes } from '../../report/timeline/index.js'
import { readRunFile } from '../../sim/trace/run-file.js'
import { runProgram } from '../../sim/run.js'
import type { RunResult } from '../../sim/run.js'
import { guidedReplay, replay as replayStrategy, ReplayDivergenceError } from '../../sim/strategies/index.js'
import { renderTrace } from '../../sim/trace/trace.js'
import { UsageError } from '../errors.js'
import { EXIT } from '../exit-codes.js'
import { parseOptions, writableFile, writeOutput } from '../options.js'
import { adapterForRunFile } from '../run-file-adapter.js'

export async function explainCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions('explain', args, {
    adapter: { type: 'string' }, force: { type: 'boolean', default: false }, html: { type: 'string' },
    flat: { type: 'boolean', default: false }, 'no-marks': { type: 'boolean', default: false },
  }, true)
  const path = positionals[0]
  if (!path) throw new UsageError('explain needs a run file: dsh-kit explain <run-file>')
  if (positionals.length > 1) throw new UsageError(`explain takes one run file, got ${positionals.length}`)
  if (values.html) writableFile('--html', values.html)
  const file = readRunFile(path)
  const { adapter, module } = await adapterForRunFile(file, path, values.adapter, values.force)
  const processFactory = normalizeAdapter(adapter, module ?? 'reference').processFactory
  let result: RunResult
  let note: string | undefined
  try {
    const strict = replayStrategy(file.decisions)
    strict.beginRun()
    result = await runProgram(file.program, strict, { process: processFactory })
  } catch (error) {
    if (!(error instanceof ReplayDivergenceError)) throw error
    // The log no longer fits (the code changed, or --force named another factory): explain the run
    // that follows it as far as it fits, and say so.
    note = `the log no longer fits ${adapter.name} (${error.message}); showing a guided replay that follows it where it fits`
    const guided = guidedReplay(file.decisions)
    guided.beginRun()
    result = await runProgram(file.program, guided, { process: processFactory })
  }
  // Run files carry the violations' clauses, not their entries: recompute them on the replay.
  const violations = checkRun(file.program, result.trace, result.outcome)
  if (note) console.error(`dsh-kit explain: ${note}`)
  const timeline = buildTimeline(file.program, result.trace, result.decisions.decisions, violations)
  const replayCommand = `npx dsh-kit replay ${path}${module ? ` --adapter ${module}` : ''}`
  if (values.html) {
    const meta = [
      `adapter: ${adapter.name}@${adapter.version}${module ? ` (${module})` : ''}`,
      `outcome: ${file.outcome.detail}`,
      `decisions: ${result.decisions.decisions.length}, trace ${result.hash} (recorded ${file.hash})`,
      `recorded violations: ${(file.violations ?? []).map((v) => v.clause).join(', ') || 'none'}`,
      ...(note ? [note] : []),
      `replay: ${replayCommand}`,
    ]
    writeOutput('--html', values.html, renderHtml(timeline, { title: `dsh-kit explain ${basename(path)}`, lines: meta }))
    console.error(`wrote ${values.html}`)
  }
  if (values.flat) console.log(renderTrace(result.trace, result.decisions.decisions))
  else if (!values.html) console.log(renderLanes(timeline, { hideMarks: values['no-marks'] }))
  if (!values.html || values.flat) for (const v of violations) console.log(`${v.key} violated at entry #${v.entry} (decision ${v.decision}): ${v.message}`)
  return EXIT.ok
}
