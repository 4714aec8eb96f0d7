/**
 * `dsh-kit replay`: rerun a saved run from its decision log against its adapter and check it again.
 * @module
 */
import { readRunFile } from '../../sim/trace/run-file.js'
import { UsageError } from '../errors.js'
import { EXIT } from '../exit-codes.js'
import { parseOptions } from '../options.js'
import { adapterForRunFile } from '../run-file-adapter.js'

export async function replayCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions('replay', args, {
    adapter: { type: 'string' }, force: { type: 'boolean', default: false }, timeline: { type: 'boolean', default: false },
  }, true)
  const path = positionals[0]
  if (!path) throw new UsageError('replay needs a run file: dsh-kit replay <run-file>')
  if (positionals.length > 1) throw new UsageError(`replay takes one run file, got ${positionals.length}`)
  const file = readRunFile(path)
  // The run replays where the adapter's code runs: a watched worker, with a deadline.
  const { watched, adapter } = await adapterForRunFile(file, path, values.adapter, values.force)
  let result
  try {
    result = await watched.replay({ path, guided: false, trace: values.timeline })
  } finally {
    await watched.close()
  }
  if (result.diverged !== undefined) {
    console.log(`dsh-kit replay: ${path} did not replay against ${adapter.name}: ${result.diverged} (the code under test changed or is nondeterministic)`)
    return EXIT.diverged
  }
  if (result.hung !== undefined) {
    console.log(`dsh-kit replay: ${path} did not replay against ${adapter.name}: ${result.hung}, though the recorded run finished (the code under test changed or is nondeterministic)`)
    return EXIT.diverged
  }
  const violations = result.violations ?? []
  if (values.timeline && result.trace !== undefined) console.log(result.trace)
  console.log(`replayed ${path} against ${adapter.name}: ${result.decisions} decisions, trace ${result.hash} (recorded ${file.hash})`)
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
