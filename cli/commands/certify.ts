/**
 * `dsh-kit certify`: a certificate per clause, from worker threads the kit can always stop. This
 * module reads the options and starts the workers before it loads the suite (`certify-run.ts`):
 * each worker then loads its modules while this thread loads its own, which starting them from the
 * suite left for after (about a quarter of a second of a quick certification).
 * @module
 */
import { DEFAULT_PROBE_TIMEOUT_MS, describeAdapter } from '../../conformance/adapters/watched-adapter.js'
import { startCertifyPool } from '../../conformance/certify/certify-pool.js'
import type { Profile } from '../../conformance/certify/plan.js'
import type { CertifyOptions } from '../../conformance/certify/report.js'
import { UsageError } from '../errors.js'
import { intOption, onlyOption, parseDuration, parseOptions, workersOption, writableDir, writableFile } from '../options.js'
import { reporterOptions } from '../reporters/index.js'

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
  const baseline = values.baseline === undefined ? undefined : (await import('../baseline-file.js')).readBaselineFile(values.baseline)
  // The adapter's module is loaded and probed only in a watched worker (never in this thread). The
  // reference is loaded with the suite, after the workers start.
  const adapter = values.adapter === undefined ? undefined
    : await describeAdapter(values.adapter, { probe: true, probeTimeoutMs: Math.max(unitTimeoutMs ?? 0, DEFAULT_PROBE_TIMEOUT_MS) })
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
  let reference: typeof import('../../conformance/adapters/adapter.js')['REFERENCE_ADAPTER']
  try {
    [run, { REFERENCE_ADAPTER: reference }] = await Promise.all([import('./certify-run.js'), import('../../conformance/adapters/adapter.js')])
  } catch (error) {
    await pool.pool.close()
    throw error
  }
  const certified = adapter ?? reference
  process.stderr.write(`certifying ${certified.name}@${certified.version} (${profile}, ${workers} worker${workers === 1 ? '' : 's'})\n`)
  return run.runCertification({
    adapter: certified, options, pool, deadlineMs, reporters, baseline,
    values: { adapter: values.adapter, timeout: values.timeout, timelines: values.timelines, baseline: values.baseline, writeBaseline: values['write-baseline'], html: values.html, badge: values.badge },
  })
}
