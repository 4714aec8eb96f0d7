/**
 * `dsh-kit replay`: rerun a saved run from its decision log against its adapter and check it again.
 * @module
 */
import { checkRun } from '../../conformance/checkers/index.js'
import { normalizeAdapter } from '../../conformance/adapters/adapter.js'
import { readRunFile } from '../../sim/trace/run-file.js'
import { runProgram } from '../../sim/run.js'
import { replay as replayStrategy, ReplayDivergenceError } from '../../sim/strategies/index.js'
import { renderTrace } from '../../sim/trace/trace.js'
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
  const { adapter, module } = await adapterForRunFile(file, path, values.adapter, values.force)
  const strategy = replayStrategy(file.decisions)
  strategy.beginRun()
  let result
  try {
    result = await runProgram(file.program, strategy, { process: normalizeAdapter(adapter, module ?? 'reference').processFactory })
  } catch (error) {
    if (!(error instanceof ReplayDivergenceError)) throw error
    console.log(`dsh-kit replay: ${path} did not replay against ${adapter.name}: ${error.message} (the code under test changed or is nondeterministic)`)
    return EXIT.diverged
  }
  const violations = checkRun(file.program, result.trace, result.outcome)
  if (values.timeline) console.log(renderTrace(result.trace, result.decisions.decisions))
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
