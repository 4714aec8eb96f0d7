/**
 * `dsh-kit certify`: a certificate per clause, from worker threads the kit can always stop. This
 * module reads the options and starts the workers before it loads the suite (`certify-run.ts`):
 * each worker then loads its modules while this thread loads its own, which starting them from the
 * suite left for after (about a quarter of a second of a quick certification).
 * @module
 */
import { REFERENCE_ADAPTER } from '../../conformance/adapters/adapter.js'
import { DEFAULT_PROBE_TIMEOUT_MS, describeAdapter } from '../../conformance/adapters/watched-adapter.js'
import { startCertifyPool } from '../../conformance/certify/certify-pool.js'
import type { Profile } from '../../conformance/certify/plan.js'
import type { CertifyOptions } from '../../conformance/certify/report.js'
import { UsageError } from '../errors.js'
import { intOption, onlyOption, parseDuration, parseOptions, workersOption, writableDir, writableFile } from '../options.js'
import { reporterOptions } from '../reporters/index.js'
import { readBaselineFile } from '../baseline-file.js'

export async function certifyCommand(args: string[]): Promise<number> {
  const { values } = parseOptions('certify', args, {
    adapter: { type: 'string' }, profile: { type: 'string', default: 'quick' }, json: { type: 'string' },
    seed: { type: 'string' }, out: { type: 'string' }, html: { type: 'string' }, timelines: { type: 'boolean', default: false }, only: { type: 'string', multiple: true },
    workers: { type: 'string' }, timeout: { type: 'string' }, 'case-timeout': { type: 'string' }, 'fail-fast': { type: 'boolean', default: false },
    reporter: { type: 'string', multiple: true },
    'no-shrink': { type: 'boolean', default: false },
    baseline: { type: 'string' }, 'write-baseline': { type: 'string' }, badge: { type: 'string' },
  })
  const profile = values.profile as Profile['name'] // (checked on the next line)
  if (profile !== 'quick' && profile !== 'thorough') throw new UsageError(`--profile must be quick or thorough, got "${profile}"`)
  const seed = intOption('seed', values.seed, 0)
  const only = onlyOption(values.only)
  const workers = workersOption(values.workers)
  const deadlineMs = values.timeout === undefined ? undefined : parseDuration('timeout', values.timeout)
  const unitTimeoutMs = values['case-timeout'] === undefined ? undefined : parseDuration('case-timeout', values['case-timeout'])
  const outDir = values.out === undefined ? undefined : writableDir('--out', values.out)
  const reporters = reporterOptions('certify', values.reporter, values.json)
  if (values.html !== undefined) writableFile('--html', values.html)
  if (values.badge !== undefined) writableFile('--badge', values.badge)
  if (values['write-baseline'] !== undefined) writableFile('--write-baseline', values['write-baseline'])
  const baseline = values.baseline === undefined ? undefined : readBaselineFile(values.baseline)
  // The adapter's module is loaded and probed only in a watched worker (never in this thread).
  const adapter = values.adapter === undefined ? REFERENCE_ADAPTER
    : await describeAdapter(values.adapter, { probe: true, probeTimeoutMs: Math.max(unitTimeoutMs ?? 0, DEFAULT_PROBE_TIMEOUT_MS) })
  process.stderr.write(`certifying ${adapter.name}@${adapter.version} (${profile}, ${workers} worker${workers === 1 ? '' : 's'})\n`)
  const options: CertifyOptions & { readonly workers: number } = {
    profile, workers, failFast: values['fail-fast'], shrink: !values['no-shrink'],
    ...(values.adapter ? { adapterModule: values.adapter, probed: true } : {}),
    ...(seed === undefined ? {} : { seed }),
    ...(outDir ? { outDir } : {}),
    ...(only ? { only } : {}),
    ...(unitTimeoutMs === undefined ? {} : { unitTimeoutMs }),
  }
  const pool = startCertifyPool(workers, options)
  let run: typeof import('./certify-run.js')
  try {
    run = await import('./certify-run.js')
  } catch (error) {
    await pool.pool.close()
    throw error
  }
  return run.runCertification({
    adapter, options, pool, deadlineMs, reporters, baseline,
    values: { adapter: values.adapter, timeout: values.timeout, timelines: values.timelines, baseline: values.baseline, writeBaseline: values['write-baseline'], html: values.html, badge: values.badge },
  })
}
