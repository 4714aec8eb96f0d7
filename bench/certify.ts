/**
 * Cost of certifying and of a long campaign:
 * - wall time, CPU time and peak memory of `certify` quick and thorough on the reference factory,
 *   each in a fresh child process (peak RSS from `process.resourceUsage().maxRSS`; heapUsed sampled
 *   every 100 runs through the progress callback);
 * - memory of a 100,000-run guided fuzz campaign (`runCampaign` of scenarios/campaign/campaign.ts, as
 *   `dsh-kit fuzz` runs by default: corpus, portfolio strategy, checkers on) in a child run with
 *   `--expose-gc`: heapUsed after a forced GC, and RSS, every 10,000 runs. It must stay flat beyond
 *   the corpus: nothing a run builds may survive it.
 *
 * Run alone: `npm run build --silent && node dist/bench/certify.js [--quick-reps 3] [--thorough-reps 2] [--campaign-runs 100000]`
 * @module
 */
// First, as in the CLI: V8's tiering as `dsh-kit` sets it (the certify child measures what `dsh-kit certify` runs).
import '../cli/v8-tuning.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REFERENCE_ADAPTER } from '../conformance/adapters/adapter.js'
import { certify } from '../conformance/certify/certify.js'
import { runCampaign } from '../scenarios/campaign/campaign.js'
import { arg, benchModule, fmt, isMain, median, node, quietAbortListeners, table, timed } from './common.js'

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
  /** Highest heapUsed seen at a progress tick (no forced GC), MB. */
  readonly peakHeapMB: number
}

/** One memory sample of the campaign. */
export interface CampaignSample {
  readonly runs: number
  /** heapUsed right after a forced full GC, MB. */
  readonly heapMB: number
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

async function certifyChild(profile: 'quick' | 'thorough'): Promise<CertifySample> {
  quietAbortListeners()
  const outDir = mkdtempSync(join(tmpdir(), 'dsh-bench-certify-'))
  let peakHeap = 0
  let ticks = 0
  try {
    const t = await timed(() => certify(REFERENCE_ADAPTER, {
      profile, outDir,
      onProgress: (p) => {
        if (p.kind === 'tick' && ++ticks % 100 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
      },
    }))
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
    const report = t.value
    return {
      profile, wallMs: t.wallMs, cpuMs: t.cpuMs, runs: report.runs, directedCases: report.directedCases, passed: report.passed,
      failing: report.failing, maxRssMB: process.resourceUsage().maxRSS / 1024, peakHeapMB: peakHeap / MB,
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true })
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
    samples.push({ runs: done, heapMB: m.heapUsed / MB, rssMB: m.rss / MB, seconds: (performance.now() - started) / 1000 })
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
  for (const profile of plan) samples.push(JSON.parse(await node([benchModule('certify'), '--child', 'certify', '--profile', profile])) as CertifySample)
  return samples
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
      fmt(median(s.map((x) => x.cpuMs)) / 1000, 1), fmt(Math.max(...s.map((x) => x.maxRssMB))), fmt(Math.max(...s.map((x) => x.peakHeapMB))),
      s.every((x) => x.passed) ? 'yes' : `no (${[...new Set(s.flatMap((x) => x.failing))].join(', ')})`,
    ]]
  })
  return table(['profile', 'repeats', 'runs', 'directed cases', 'wall s (median)', 'wall s (each)', 'CPU s (median)', 'peak RSS MB', 'peak heapUsed MB', 'passed'], rows)
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
    ['runs', 'heapUsed after GC, MB', 'RSS MB', 'elapsed s'],
    result.samples.map((s) => [fmt(s.runs), fmt(s.heapMB, 1), fmt(s.rssMB, 0), fmt(s.seconds, 0)]),
  )
}

if (isMain(import.meta.url)) {
  const child = arg('child')
  if (child === 'certify') {
    console.log(JSON.stringify(await certifyChild(arg('profile') === 'thorough' ? 'thorough' : 'quick')))
  } else if (child === 'campaign') {
    console.log(JSON.stringify(await campaignChild(Number(arg('runs') ?? 100_000), Number(arg('every') ?? 10_000))))
  } else {
    const samples = await benchCertify({ quickReps: Number(arg('quick-reps') ?? 3), thoroughReps: Number(arg('thorough-reps') ?? 2) })
    console.log(certifyTable(samples))
    const runs = Number(arg('campaign-runs') ?? 100_000)
    if (runs > 0) {
      const campaign = await benchCampaign(runs, Number(arg('every') ?? Math.max(1, Math.round(runs / 10))))
      console.log(`\n${campaignTable(campaign)}\n\ngrowth: ${JSON.stringify(campaignGrowth(campaign))}`)
    }
  }
}
