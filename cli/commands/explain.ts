/**
 * `dsh-kit explain`: a saved run's timeline, one line per event with a column per actor, or a
 * self-contained swim-lane page. A viewer, not a verdict: it exits 0 once it drew the timeline,
 * even of a violating run (it prints the violations); `replay` is the command to gate on.
 * @module
 */
import { basename } from 'node:path'
import { renderHtml, renderLanes } from '../../report/timeline/index.js'
import { readRunFile } from '../../sim/trace/run-file.js'
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
  // The run replays where the adapter's code runs: a watched worker, with a deadline. Where the log
  // no longer fits (the code changed, or --force named another factory), the worker follows it as
  // far as it fits, and says so.
  const { watched, adapter, module } = await adapterForRunFile(file, path, values.adapter, values.force)
  let result
  try {
    result = await watched.replay({ path, guided: true, timeline: true, trace: values.flat })
  } finally {
    await watched.close()
  }
  if (result.hung !== undefined || result.timeline === undefined) {
    console.error(`dsh-kit explain: ${path} did not replay against ${adapter.name}: ${result.hung ?? 'no timeline'}, though the recorded run finished (the code under test changed or is nondeterministic)`)
    return EXIT.diverged
  }
  const note = result.note === undefined ? undefined : `the log no longer fits ${adapter.name} (${result.note}); showing a guided replay that follows it where it fits`
  const violations = result.violations ?? []
  if (note) console.error(`dsh-kit explain: ${note}`)
  const timeline = result.timeline
  const replayCommand = `npx dsh-kit replay ${path}${module ? ` --adapter ${module}` : ''}`
  if (values.html) {
    const meta = [
      `adapter: ${adapter.name}@${adapter.version}${module ? ` (${module})` : ''}`,
      `outcome: ${file.outcome.detail}`,
      `decisions: ${result.decisions}, trace ${result.hash} (recorded ${file.hash})`,
      `recorded violations: ${(file.violations ?? []).map((v) => v.clause).join(', ') || 'none'}`,
      ...(note ? [note] : []),
      `replay: ${replayCommand}`,
    ]
    writeOutput('--html', values.html, renderHtml(timeline, { title: `dsh-kit explain ${basename(path)}`, lines: meta }))
    console.error(`wrote ${values.html}`)
  }
  if (values.flat) console.log(result.trace)
  else if (!values.html) console.log(renderLanes(timeline, { hideMarks: values['no-marks'] }))
  if (!values.html || values.flat) for (const v of violations) console.log(`${v.key} violated at entry #${v.entry} (decision ${v.decision}): ${v.message}`)
  return EXIT.ok
}
