/**
 * `dsh-kit run <program>`: a program the user wrote (the builder code a report prints, in a `.mjs`
 * module, or JSON) under many schedules with every checker on — how a bug report becomes a
 * reproduction and then a regression. It is a fuzz campaign over that one program
 * (`scenarios/campaign/campaign.ts`): each violated clause is shrunk, saved as a run file and printed with
 * its replay command and the command that reruns its schedule.
 * @module
 */
import { join } from 'node:path'
import { REFERENCE_ADAPTER } from '../../conformance/adapters/adapter.js'
import { CAMPAIGN_STRATEGIES, CampaignError, runCampaign } from '../../scenarios/campaign/campaign.js'
import type { CampaignReport, CampaignStrategy } from '../../scenarios/campaign/campaign.js'
import { formatCampaign } from '../../report/campaign-text.js'
import type { Scenario } from '../../scenarios/catalog/scenario.js'
import { describeAdapter } from '../../conformance/adapters/watched-adapter.js'
import { InputError, UsageError } from '../errors.js'
import { fuzzExitCode } from './fuzz.js'
import { interrupted } from '../interrupt.js'
import { intOption, parseOptions, workersOption, writableDir, writableFile, writeOutput } from '../options.js'
import { readProgramFile } from '../program-file.js'
import { knownViolations } from '../../conformance/certify/baseline.js'
import { readBaselineFile } from '../baseline-file.js'

/** Schedules `run` tries when given no `--runs`. */
export const DEFAULT_RUN_SCHEDULES = 100

export async function runCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions('run', args, {
    adapter: { type: 'string' }, runs: { type: 'string' }, seed: { type: 'string' },
    strategy: { type: 'string', default: 'portfolio' }, out: { type: 'string' }, json: { type: 'string' },
    'keep-going': { type: 'boolean', default: false }, 'no-shrink': { type: 'boolean', default: false },
    'no-timelines': { type: 'boolean', default: false }, workers: { type: 'string' }, baseline: { type: 'string' },
  }, true)
  const path = positionals[0]
  if (!path) throw new UsageError('run needs a program file: dsh-kit run <program.mjs|program.json>')
  if (positionals.length > 1) throw new UsageError(`run takes one program file, got ${positionals.length}`)
  if (!(CAMPAIGN_STRATEGIES as readonly string[]).includes(values.strategy)) throw new UsageError(`--strategy must be one of ${CAMPAIGN_STRATEGIES.join(', ')}, got "${values.strategy}"`)
  const runs = intOption('runs', values.runs, 1) ?? DEFAULT_RUN_SCHEDULES
  const seed = intOption('seed', values.seed, 0) ?? 0
  const workers = workersOption(values.workers)
  const outDir = writableDir('--out', values.out ?? join('.dsh-kit', 'run'))
  if (values.json !== undefined) writableFile('--json', values.json)
  const known = values.baseline === undefined ? undefined : knownViolations(readBaselineFile(values.baseline))
  const file = await readProgramFile(path)
  const adapter = values.adapter === undefined ? REFERENCE_ADAPTER : await describeAdapter(values.adapter, { probe: false })
  // The campaign's scenario mode, for a program with no goals of its own.
  const scenario: Scenario = { name: file.name, title: `program file ${path}`, groups: [], program: file.program, goals: [] }
  const started = performance.now()
  process.stderr.write(`running ${path} (${file.kind}) against ${adapter.name}@${adapter.version}: strategy ${values.strategy}, seed ${seed}, ${runs} schedule${runs === 1 ? '' : 's'}\n`)
  let report: CampaignReport
  try {
    report = await runCampaign({
      adapter, scenario, strategy: values.strategy as CampaignStrategy, seed, runs, outDir,
      keepGoing: values['keep-going'], shrink: !values['no-shrink'], rerunAs: `npx dsh-kit run ${path}`, workers,
      ...(values.adapter ? { adapterModule: values.adapter } : {}),
      ...(known ? { known } : {}),
      shouldStop: () => (interrupted() ? 'interrupted' : false),
    })
  } catch (error) {
    // The one campaign error a valid program can still cause: it resumes and the adapter cannot.
    if (error instanceof CampaignError) throw new InputError(`${path}: ${error.message.replace(/^scenario "[^"]*"/, 'the program')}`)
    throw error
  }
  const durationMs = Math.round(performance.now() - started)
  console.log(formatCampaign(report, { durationMs, timelines: !values['no-timelines'], heading: { command: 'dsh-kit run', subject: `program ${path}` } }))
  if (values.json) writeOutput('--json', values.json, `${JSON.stringify({ ...report, program: path, durationMs }, null, 1)}\n`)
  return fuzzExitCode(report)
}
