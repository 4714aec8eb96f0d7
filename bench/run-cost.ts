/**
 * The kit's CPU per run, before and after: a reference campaign as users run it
 * (`dsh-kit fuzz --runs N`, `--workers 1` where the build has workers), on this checkout and on an
 * earlier commit (`--before`, default faee56b, issue 29's) built in a temporary directory in the same bench run
 * (`git archive <commit>`, this checkout's `node_modules` linked, `tsc -p tsconfig.build.json`).
 * The two builds are measured alternately (before, after, before, after, …) so the ratio comes
 * from one run on one machine.
 *
 * Each campaign's CPU time covers every thread of its process (main, worker, V8's GC and compiler
 * threads). It is split into the code under test and the kit by a CPU profile of one more campaign
 * per build (`--cpu-prof`: one profile per thread), charged by `cpu-attribution.ts`: `core/` (the
 * reference factory and runtime) is the code under test; the kit is everything else (sim,
 * conformance, scenarios, fast-check, fake-timers, GC, Node's own work). Threads that do not run
 * JavaScript (GC helpers, the compiler) are charged in the same proportions.
 *
 * The "after" build is measured twice: as users run it (a guided campaign, the default) and with
 * `--guidance off`, the kind of campaign fe2d5bf ran (random programs and named scenarios, no
 * corpus), so the work per run is compared on like workloads too.
 *
 * Run alone: `npm run build --silent && node dist/bench/run-cost.js [--before faee56b] [--reps 3] [--seconds 12]`
 * @module
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AREAS, attribute, busyMs, codeUnderTestShare, emptyAttribution, isCodeUnderTest } from './cpu-attribution.js'
import type { Area, Attribution, CpuProfile } from './cpu-attribution.js'
import { arg, fmt, isMain, median, table } from './common.js'
import { fuzzChild, KIT_ROOT, sizeCampaign } from './fuzz-child.js'
import { buildAt, removeBuild } from './before-build.js'
import type { BeforeBuildResult } from './before-build.js'
import type { FuzzChildResult } from './fuzz-child.js'

/**
 * The commit issue 29's goal is measured against, side by side: the "before" of the cheaper-runs work
 * (`npm run bench -- --before <commit>` names another).
 */
export const DEFAULT_BEFORE = 'faee56b'

/**
 * Builds whose kit CPU per run is the one issue 29 asks to cut three times: 352ea58, where the issue
 * read 5.39 ms on 2 Dec (its goal, at most 1.8 ms, is a third of that), and faee56b, ten commits
 * later (checker fixes and tidying). Side by side with the same checkout on 5 Dec they read 2.71 and
 * 2.76 ms, and fe2d5bf, 3.13 ms on 2 Dec, read 2.06 ms in campaigns of about that day's length: the
 * host was slower then. An absolute goal in ms moves with the day; the ratio measured side by side
 * does not (fe2d5bf ÷ 352ea58 0.58× on 2 Dec; 352ea58 ÷ this work 1.44× and fe2d5bf ÷ it 0.80× on 5 Dec).
 */
const THREE_TIMES_BASES: readonly string[] = ['352ea58', 'faee56b']

/**
 * The kit CPU per run that is three times cheaper than the "before", at the speed of this run, when
 * the before is one of {@link THREE_TIMES_BASES} (NaN otherwise).
 */
export function threeTimesTarget(result: RunCostResult): number {
  const commit = result.before?.commit
  if (commit === undefined || !THREE_TIMES_BASES.some((c) => c.startsWith(commit) || commit.startsWith(c))) return Number.NaN
  return kitPerRun(result.before!) / 3
}

/** One build's measurements. */
export interface RunCostSide {
  readonly label: 'before' | 'after' | 'after, unguided'
  /** The commit (short hash), or this checkout's HEAD. */
  readonly commit: string
  /** The fuzz options used (without `--runs`). */
  readonly args: readonly string[]
  readonly samples: readonly FuzzChildResult[]
  /** Campaigns of one run: the CPU a fuzz process spends whatever N (start-up, module loading, the first run). */
  readonly startup: readonly FuzzChildResult[]
  /** The profiled campaign's non-idle time per area. */
  readonly attribution: Attribution
}

/** The comparison. */
export interface RunCostResult {
  readonly runs: number
  readonly after: RunCostSide
  /** This checkout with `--guidance off` (only when it has the option). */
  readonly unguided?: RunCostSide
  readonly before?: RunCostSide
  /** Why there is no "before". */
  readonly skipped?: string
}

/** Options of {@link benchRunCost}. */
export interface RunCostOptions {
  readonly before?: string
  /** A build of `before` made by the caller (left for it to remove); else one is made and removed here. */
  readonly build?: BeforeBuildResult
  /** Alternating pairs. */
  readonly reps?: number
  /** Target wall time of one campaign (sizes N). */
  readonly seconds?: number
  readonly maxRuns?: number
  readonly log?: (message: string) => void
}

/** Whether a build's `fuzz` takes `--workers` (it runs in-thread before it did). */
export function hasWorkers(root: string): boolean {
  return usageMentions(root, '--workers')
}

/** Whether the build at `root` has `fuzz --guidance`. */
function hasGuidance(root: string): boolean {
  return usageMentions(root, '--guidance')
}

function usageMentions(root: string, option: string): boolean {
  const usage = join(root, 'dist/cli/usage.js')
  return existsSync(usage) && readFileSync(usage, 'utf8').includes(option)
}

/** Charge every thread profile in `dir`. */
function attributeDir(dir: string): Attribution {
  let a = emptyAttribution()
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.cpuprofile'))) a = attribute(JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile, a)
  return a
}

/** This checkout's HEAD, short. */
export function headCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: KIT_ROOT, encoding: 'utf8' }).trim()
  } catch {
    return 'this checkout'
  }
}

/** Measure both builds. */
export async function benchRunCost(options: RunCostOptions = {}): Promise<RunCostResult> {
  const reps = options.reps ?? 3
  const seconds = options.seconds ?? 12
  const afterArgs = hasWorkers(KIT_ROOT) ? ['--workers', '1'] : []
  const unguidedArgs = hasGuidance(KIT_ROOT) ? [...afterArgs, '--guidance', 'off'] : undefined
  const sized = await sizeCampaign((n) => fuzzChild({ args: ['--runs', String(n), ...afterArgs] }), seconds, 200, 800)
  const runs = Math.min(sized.runs, options.maxRuns ?? Number.POSITIVE_INFINITY)
  const built = options.build ?? buildAt(options.before ?? DEFAULT_BEFORE)
  const before = 'dir' in built ? { root: built.dir, commit: built.commit, args: hasWorkers(built.dir) ? ['--workers', '1'] : [] } : undefined
  options.log?.(`run cost: ${fmt(runs)} runs per campaign, ${reps} alternating pairs${before ? `, before = ${before.commit}` : ` (${'skipped' in built ? built.skipped : ''})`}`)
  try {
    const samples = { before: [] as FuzzChildResult[], after: [] as FuzzChildResult[], unguided: [] as FuzzChildResult[] }
    const startup = { before: [] as FuzzChildResult[], after: [] as FuzzChildResult[], unguided: [] as FuzzChildResult[] }
    for (let i = 0; i < reps; i++) {
      if (before) samples.before.push(await fuzzChild({ kitRoot: before.root, args: ['--runs', String(runs), ...before.args] }))
      samples.after.push(await fuzzChild({ args: ['--runs', String(runs), ...afterArgs] }))
      if (unguidedArgs) samples.unguided.push(await fuzzChild({ args: ['--runs', String(runs), ...unguidedArgs] }))
      if (before) startup.before.push(await fuzzChild({ kitRoot: before.root, args: ['--runs', '1', ...before.args] }))
      startup.after.push(await fuzzChild({ args: ['--runs', '1', ...afterArgs] }))
      if (unguidedArgs) startup.unguided.push(await fuzzChild({ args: ['--runs', '1', ...unguidedArgs] }))
    }
    const profiled = async (root: string | undefined, args: readonly string[]): Promise<Attribution> => {
      const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-prof-'))
      try {
        await fuzzChild({ ...(root ? { kitRoot: root } : {}), args: ['--runs', String(runs), ...args], cpuProfDir: dir })
        return attributeDir(dir)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
    const beforeProfile = before ? await profiled(before.root, before.args) : undefined
    const afterProfile = await profiled(undefined, afterArgs)
    const unguidedProfile = unguidedArgs ? await profiled(undefined, unguidedArgs) : undefined
    return {
      runs,
      after: { label: 'after', commit: headCommit(), args: afterArgs, samples: samples.after, startup: startup.after, attribution: afterProfile },
      ...(unguidedArgs && unguidedProfile ? { unguided: { label: 'after, unguided', commit: headCommit(), args: unguidedArgs, samples: samples.unguided, startup: startup.unguided, attribution: unguidedProfile } } : {}),
      ...(before && beforeProfile ? { before: { label: 'before', commit: before.commit, args: before.args, samples: samples.before, startup: startup.before, attribution: beforeProfile } } : {}),
      ...('skipped' in built ? { skipped: built.skipped } : {}),
    }
  } finally {
    if (options.build === undefined) removeBuild(built)
  }
}

/** CPU ms per run of a side (median over its campaigns). */
export function cpuPerRun(side: RunCostSide): number {
  return median(side.samples.map((s) => s.cpuMs / s.runs))
}

/** CPU ms per run once started: (CPU of N runs − CPU of a one-run campaign) ÷ (N − 1), medians. */
export function marginalPerRun(side: RunCostSide): number {
  const n = median(side.samples.map((s) => s.runs))
  return (median(side.samples.map((s) => s.cpuMs)) - median(side.startup.map((s) => s.cpuMs))) / (n - 1)
}

/** CPU ms per run of one area of a side: its CPU per run times the area's share of its profile. */
export function perArea(side: RunCostSide, area: Area): number {
  return (cpuPerRun(side) * side.attribution[area]) / busyMs(side.attribution)
}

/** Kit CPU ms per run of a side: its CPU per run times the kit's share of its profile. */
export function kitPerRun(side: RunCostSide): number {
  return cpuPerRun(side) * (1 - codeUnderTestShare(side.attribution))
}

/** The comparison as markdown: totals, then CPU per run by area. */
export function runCostTables(result: RunCostResult): string {
  const sides = [result.before, result.after, result.unguided].filter((s): s is RunCostSide => s !== undefined)
  const command = (s: RunCostSide): string => `\`dsh-kit fuzz --runs ${fmt(result.runs)}${s.args.length ? ` ${s.args.join(' ')}` : ''}\``
  const totals = table(
    ['build', 'command', 'campaigns', 'wall s (median)', 'runs/s (median)', 'CPU s (median)', 'CPU s of a 1-run campaign (start-up)', 'CPU ms/run (median)', 'CPU ms/run after start-up', 'code under test share', 'code under test CPU ms/run', 'kit CPU ms/run', 'kit CPU ms/run after start-up'],
    sides.map((s) => {
      const cut = codeUnderTestShare(s.attribution)
      return [
        `${s.label} (${s.commit})`, command(s), s.samples.length, fmt(median(s.samples.map((x) => x.wallMs)) / 1000, 1), fmt(median(s.samples.map((x) => x.runs / (x.wallMs / 1000))), 0),
        fmt(median(s.samples.map((x) => x.cpuMs)) / 1000, 1), fmt(median(s.startup.map((x) => x.cpuMs)) / 1000, 2),
        fmt(cpuPerRun(s), 2), fmt(marginalPerRun(s), 2), `${fmt(cut * 100, 1)}%`, fmt(cpuPerRun(s) * cut, 2), fmt(kitPerRun(s), 2), fmt(marginalPerRun(s) * (1 - cut), 2),
      ]
    }),
  )
  const areas = (Object.keys(AREAS) as Area[]).filter((a) => sides.some((s) => s.attribution[a] > 0))
  const later = result.before ? sides.slice(1) : []
  const byArea = table(
    ['area', ...sides.map((s) => `${s.label}: CPU ms/run`), ...later.map((s) => `before ÷ ${s.label}`)],
    areas.map((a) => [
      isCodeUnderTest(a) ? `**${AREAS[a]}**` : AREAS[a], ...sides.map((s) => fmt(perArea(s, a), 3)),
      ...later.map((s) => (perArea(s, a) > 0 ? `${fmt(perArea(result.before!, a) / perArea(s, a), 2)}×` : '—')),
    ]),
  )
  return `${totals}\n\nCPU per run by area (each build's CPU per run split by its profile's shares):\n\n${byArea}`
}

/** Before ÷ after of the kit's CPU per run (NaN without a "before"); `after` defaults to the guided campaign. */
export function kitRatio(result: RunCostResult, after: RunCostSide | undefined = result.after): number {
  return result.before && after ? kitPerRun(result.before) / kitPerRun(after) : Number.NaN
}

/** Before ÷ after of the kit's CPU per run once started (NaN without a "before"). */
export function kitMarginalRatio(result: RunCostResult, after: RunCostSide | undefined = result.after): number {
  if (!result.before || !after) return Number.NaN
  const kit = (s: RunCostSide): number => marginalPerRun(s) * (1 - codeUnderTestShare(s.attribution))
  return kit(result.before) / kit(after)
}

if (isMain(import.meta.url)) {
  const result = await benchRunCost({ before: arg('before') ?? DEFAULT_BEFORE, reps: Number(arg('reps') ?? 3), seconds: Number(arg('seconds') ?? 12), log: (m) => process.stderr.write(`${m}\n`) })
  console.log(runCostTables(result))
  if (result.skipped) console.log(`\n(before skipped: ${result.skipped})`)
  else {
    console.log(`\nkit CPU per run, before ÷ after: ${fmt(kitRatio(result), 2)}× (after start-up: ${fmt(kitMarginalRatio(result), 2)}×); before ÷ after unguided: ${fmt(kitRatio(result, result.unguided), 2)}×`)
    const third = threeTimesTarget(result)
    if (Number.isFinite(third)) console.log(`three times cheaper than ${result.before!.commit}: at most ${fmt(third, 2)} ms at this hour's speed (this checkout: ${fmt(kitPerRun(result.after), 2)} ms)`)
  }
}
