/**
 * Cost of certifying and of a long campaign:
 * - wall time, CPU time and peak memory of `dsh-kit certify` quick and thorough on the reference
 *   factory as users run it: the built CLI in a fresh child process with its default workers (every
 *   core), measured from outside (`fuzz-child.ts`: wall time around the child, Node's start-up
 *   included; CPU of all its threads; peak RSS);
 * - memory of a 100,000-run guided fuzz campaign (`runCampaign` of scenarios/campaign/campaign.ts, as
 *   `dsh-kit fuzz` runs by default: corpus, portfolio strategy, checkers on) in a child run with
 *   `--expose-gc`: heapUsed after a forced GC, and RSS, every 10,000 runs. It must stay flat beyond
 *   the corpus: nothing a run builds may survive it.
 *
 * - `certify --profile quick` side by side with an earlier build (`--before <commit>`): alternating, so
 *   the ratio holds whatever the host's speed that day.
 *
 * Run alone: `npm run build --silent && node dist/bench/certify.js [--quick-reps 3] [--thorough-reps 2] [--campaign-runs 100000] [--before <commit> [--pairs 5]]`
 * @module
 */
// First, as in the CLI: V8's tiering as `dsh-kit` sets it (the campaign child runs what `dsh-kit fuzz` runs).
import '../cli/v8-tuning.js'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../conformance/certify/report.js'
import { runCampaign } from '../scenarios/campaign/campaign.js'
import { arg, benchModule, fmt, isMain, median, node, quietAbortListeners, table, timed } from './common.js'
import { KIT_ROOT, measuredChild } from './fuzz-child.js'
import type { MeasuredChild } from './fuzz-child.js'
import { buildAt, removeBuild } from './before-build.js'
import type { BeforeBuild } from './before-build.js'

const MB = 1024 * 1024

/** One certify run, measured in its own process. */
export interface CertifySample {
  readonly profile: 'quick' | 'thorough'
  readonly wallMs: number
  readonly cpuMs: number
  readonly runs: number
  readonly directedCases: number
  readonly passed: boolean
  readonly failing: readonly string[]
  /** Peak resident set of the whole process, MB. */
  readonly maxRssMB: number
  /** CPU per thread (Linux): main, workers, the rest (V8's GC and compiler threads). */
  readonly threads?: MeasuredChild['threads']
}

/** One memory sample of the campaign. */
export interface CampaignSample {
  readonly runs: number
  /** heapUsed right after a forced full GC, MB. */
  readonly heapMB: number
  /**
   * ArrayBuffers after the same GC, MB: off the heap, so not in `heapMB`. Mostly the tables of
   * transitions (`guidance/transition-table.ts`), which double as coverage grows, up to their bound.
   */
  readonly arrayBuffersMB: number
  readonly rssMB: number
  readonly seconds: number
}

/** The campaign child's result. */
export interface CampaignResult {
  readonly runs: number
  readonly wallMs: number
  readonly cpuMs: number
  readonly violatingRuns: number
  /** Violating runs per clause (the reference factory should have none). */
  readonly violationCounts: Record<string, number>
  /** The first violating run of each clause, with the command that reruns it. */
  readonly failures: readonly { readonly key: string; readonly runSeed: number; readonly strategy: string; readonly message: string; readonly rerun: string }[]
  readonly outcomes: Record<string, number>
  readonly samples: readonly CampaignSample[]
  readonly maxRssMB: number
}

/**
 * One `dsh-kit certify --profile <profile>` on the reference, as users run it, measured from outside;
 * with `root`, another build's CLI (an earlier commit's, {@link benchCertifyBeside}).
 */
async function certifySample(profile: 'quick' | 'thorough', root = KIT_ROOT): Promise<CertifySample> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-certify-'))
  try {
    const json = join(dir, 'report.json')
    const workers = availableParallelism()
    const child = await measuredChild({ argv: [join(root, 'dist/cli/main.js'), 'certify', '--profile', profile, '--json', json, '--out', join(dir, 'failures')], workers, cwd: root })
    if (!existsSync(json)) throw new Error(`dsh-kit certify --profile ${profile} wrote no report (exit ${String(child.code)}): ${child.stderr.slice(-500)}`)
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report
    return {
      profile, wallMs: child.wallMs, cpuMs: child.cpuMs, runs: report.runs, directedCases: report.directedCases, passed: report.passed,
      failing: report.failing, maxRssMB: child.maxRssMB, ...(child.threads ? { threads: child.threads } : {}),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function campaignChild(runs: number, every: number): Promise<CampaignResult> {
  quietAbortListeners()
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error('the campaign memory bench needs node --expose-gc')
  const samples: CampaignSample[] = []
  const started = performance.now()
  const sample = (done: number): void => {
    gc()
    const m = process.memoryUsage()
    samples.push({ runs: done, heapMB: m.heapUsed / MB, arrayBuffersMB: m.arrayBuffers / MB, rssMB: m.rss / MB, seconds: (performance.now() - started) / 1000 })
  }
  sample(0)
  let last = 0
  // Guided, as `dsh-kit fuzz` runs by default: the corpus, the guided draw and the ledger live for the whole
  // campaign, so this is where a leak shows (an unguided campaign keeps nothing between runs).
  const t = await timed(() => runCampaign({
    runs, keepGoing: true, shrink: false, guidance: true,
    onProgress: (p) => {
      if (p.phase === 'running' && p.runs >= last + every) {
        last = p.runs - (p.runs % every)
        sample(p.runs)
      }
    },
  }))
  if (samples.at(-1)!.runs !== t.value.runs) sample(t.value.runs)
  return {
    runs: t.value.runs, wallMs: t.wallMs, cpuMs: t.cpuMs, violatingRuns: t.value.violatingRuns, violationCounts: t.value.violationCounts,
    failures: t.value.failures.map((f) => ({ key: f.key, runSeed: f.runSeed, strategy: f.strategy, message: f.message, rerun: f.rerun })),
    outcomes: t.value.outcomes,
    samples, maxRssMB: process.resourceUsage().maxRSS / 1024,
  }
}

/** Options of {@link benchCertify}. */
export interface CertifyBenchOptions {
  readonly quickReps?: number
  readonly thoroughReps?: number
}

/** Certify quick and thorough, each `reps` times in a fresh process. */
export async function benchCertify(options: CertifyBenchOptions = {}): Promise<CertifySample[]> {
  const samples: CertifySample[] = []
  const plan: ('quick' | 'thorough')[] = [
    ...Array<'quick'>(options.quickReps ?? 3).fill('quick'),
    ...Array<'thorough'>(options.thoroughReps ?? 2).fill('thorough'),
  ]
  for (const profile of plan) samples.push(await certifySample(profile))
  return samples
}

/** Quick certifications of an earlier build and of this checkout, alternating (see {@link benchCertifyBeside}). */
export interface CertifyBeside {
  /** The earlier build's short hash. */
  readonly commit: string
  readonly before: readonly CertifySample[]
  readonly after: readonly CertifySample[]
}

/**
 * `certify --profile quick` of the build at `before` and of this checkout, alternating (before, after,
 * before, …) `pairs` times. A wall-time goal on a shared VM moves with the host by a quarter from day to
 * day; the ratio of two builds measured in turns does not.
 */
export async function benchCertifyBeside(before: BeforeBuild, pairs: number): Promise<CertifyBeside> {
  const result = { commit: before.commit, before: [] as CertifySample[], after: [] as CertifySample[] }
  for (let i = 0; i < pairs; i++) {
    result.before.push(await certifySample('quick', before.dir))
    result.after.push(await certifySample('quick'))
  }
  return result
}

/** This checkout's median wall time over the earlier build's, quick certifications side by side. */
export function certifyBesideRatio(beside: CertifyBeside): number {
  return median(beside.after.map((x) => x.wallMs)) / median(beside.before.map((x) => x.wallMs))
}

/** The side-by-side table as markdown. */
export function certifyBesideTable(beside: CertifyBeside, head: string): string {
  const row = (label: string, s: readonly CertifySample[]): (string | number)[] => [
    label, s.length, fmt(median(s.map((x) => x.runs))), fmt(median(s.map((x) => x.directedCases))),
    fmt(median(s.map((x) => x.wallMs)) / 1000, 2), s.map((x) => fmt(x.wallMs / 1000, 2)).join(', '), fmt(median(s.map((x) => x.cpuMs)) / 1000, 1),
  ]
  return table(['build', 'repeats', 'runs', 'directed cases', 'wall s (median)', 'wall s (each, in turn)', 'CPU s (median)'], [
    row(`before (${beside.commit})`, beside.before), row(`this checkout (${head})`, beside.after),
  ])
}

/** The 100,000-run campaign in a child process with `--expose-gc`. */
export async function benchCampaign(runs = 100_000, every = 10_000): Promise<CampaignResult> {
  return JSON.parse(await node(['--expose-gc', benchModule('certify'), '--child', 'campaign', '--runs', String(runs), '--every', String(every)])) as CampaignResult
}

/** The certify table as markdown. */
export function certifyTable(samples: readonly CertifySample[]): string {
  const rows = (['quick', 'thorough'] as const).flatMap((profile) => {
    const s = samples.filter((x) => x.profile === profile)
    if (s.length === 0) return []
    return [[
      profile, s.length, fmt(median(s.map((x) => x.runs))), fmt(median(s.map((x) => x.directedCases))),
      fmt(median(s.map((x) => x.wallMs)) / 1000, 1), s.map((x) => fmt(x.wallMs / 1000, 1)).join(', '),
      fmt(median(s.map((x) => x.cpuMs)) / 1000, 1), threadsText(s), fmt(Math.max(...s.map((x) => x.maxRssMB))),
      s.every((x) => x.passed) ? 'yes' : `no (${[...new Set(s.flatMap((x) => x.failing))].join(', ')})`,
    ]]
  })
  return table(['profile', 'repeats', 'runs', 'directed cases', 'wall s (median)', 'wall s (each)', 'CPU s (median)', 'CPU s: main / workers / other threads (median)', 'peak RSS MB', 'passed'], rows)
}

/** Median CPU per thread of samples, in seconds. */
function threadsText(samples: readonly CertifySample[]): string {
  const t = samples.flatMap((x) => (x.threads ? [x.threads] : []))
  if (t.length === 0) return '—'
  const s = (ms: number): string => fmt(ms / 1000, 2)
  return `${s(median(t.map((x) => x.mainMs)))} / ${s(median(t.map((x) => x.workersMs.reduce((a, b) => a + b, 0))))} / ${s(median(t.map((x) => x.otherMs)))}`
}

/** Growth of heapUsed after GC from the first sample past warm-up to the last, MB, and the per-10k slope. */
export function campaignGrowth(result: CampaignResult): { readonly growthMB: number; readonly slopeMBPer10k: number } {
  const s = result.samples.filter((x) => x.runs > 0)
  if (s.length < 2) return { growthMB: 0, slopeMBPer10k: 0 }
  const xs = s.map((x) => x.runs / 10_000)
  const ys = s.map((x) => x.heapMB)
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length
  const my = ys.reduce((a, b) => a + b, 0) / ys.length
  const slope = xs.reduce((acc, x, i) => acc + (x - mx) * (ys[i]! - my), 0) / xs.reduce((acc, x) => acc + (x - mx) ** 2, 0)
  return { growthMB: ys.at(-1)! - ys[0]!, slopeMBPer10k: slope }
}

/** The campaign memory table as markdown. */
export function campaignTable(result: CampaignResult): string {
  return table(
    ['runs', 'heapUsed after GC, MB', 'ArrayBuffers after GC, MB', 'RSS MB', 'elapsed s'],
    result.samples.map((s) => [fmt(s.runs), fmt(s.heapMB, 1), fmt(s.arrayBuffersMB, 1), fmt(s.rssMB, 0), fmt(s.seconds, 0)]),
  )
}

if (isMain(import.meta.url)) {
  const child = arg('child')
  if (child === 'campaign') {
    console.log(JSON.stringify(await campaignChild(Number(arg('runs') ?? 100_000), Number(arg('every') ?? 10_000))))
  } else {
    const samples = await benchCertify({ quickReps: Number(arg('quick-reps') ?? 3), thoroughReps: Number(arg('thorough-reps') ?? 2) })
    console.log(certifyTable(samples))
    const beforeCommit = arg('before')
    if (beforeCommit !== undefined) {
      const built = buildAt(beforeCommit)
      try {
        if ('skipped' in built) console.log(`\nno side-by-side certification: ${built.skipped}`)
        else {
          const beside = await benchCertifyBeside(built, Number(arg('pairs') ?? 5))
          console.log(`\n${certifyBesideTable(beside, 'HEAD')}\n\nthis checkout ÷ ${beside.commit}: ${fmt(certifyBesideRatio(beside), 2)}×`)
        }
      } finally {
        removeBuild(built)
      }
    }
    const runs = Number(arg('campaign-runs') ?? 100_000)
    if (runs > 0) {
      const campaign = await benchCampaign(runs, Number(arg('every') ?? Math.max(1, Math.round(runs / 10))))
      console.log(`\n${campaignTable(campaign)}\n\ngrowth: ${JSON.stringify(campaignGrowth(campaign))}`)
    }
  }
}
