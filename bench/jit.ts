/**
 * The JIT's work in a reference campaign, before and after: one `dsh-kit fuzz --runs N --workers 1`
 * per build (the "before" as section 7 builds it) under `node --trace-opt --trace-deopt`, read by
 * `jit-trace.ts`: the functions V8's optimizing compiler compiled, how many it compiled again after
 * throwing their optimized code away (a deoptimization: an object of a hidden class the code was not
 * compiled for, most often), and the compile time V8 reports. Compiling runs on V8's background
 * threads, so it is CPU a campaign pays beside its worker: on a 2-core machine it competes with the
 * second worker. Issue 29 read 781 optimizing compiles of 414 functions in 6,000 runs at 352ea58,
 * most after "wrong map" deoptimizations.
 *
 * Both processes print the traces of every thread (the feeding thread's and the worker's).
 *
 * Run alone: `npm run build --silent && node dist/bench/jit.js [--runs 6000] [--before faee56b]`
 * @module
 */
import { arg, fmt, isMain, table } from './common.js'
import { buildAt, removeBuild } from './before-build.js'
import type { BeforeBuildResult } from './before-build.js'
import { fuzzChild, KIT_ROOT } from './fuzz-child.js'
import { parseJitTrace } from './jit-trace.js'
import type { JitFigures } from './jit-trace.js'
import { DEFAULT_BEFORE, hasWorkers, headCommit } from './run-cost.js'

/** V8's traces of optimizing compiles and deoptimizations. */
export const JIT_TRACE_FLAGS: readonly string[] = ['--trace-opt', '--trace-deopt']

/** One build's campaign. */
export interface JitSide {
  readonly label: 'before' | 'after'
  readonly commit: string
  /** fuzz options besides `--runs`. */
  readonly args: readonly string[]
  /** `--runs`, and the runs the report counts (a named scenario's seed runs it more than once). */
  readonly seeds: number
  readonly runs: number
  readonly cpuMs: number
  readonly figures: JitFigures
}

/** The comparison. */
export interface JitResult {
  readonly after: JitSide
  readonly before?: JitSide
  /** Why there is no "before". */
  readonly skipped?: string
}

/** Options of {@link benchJit}. */
export interface JitOptions {
  /** Runs per campaign (`--runs`). */
  readonly runs: number
  readonly before?: string
  /** A build of `before` made by the caller (left for it to remove); else one is made and removed here. */
  readonly build?: BeforeBuildResult
  readonly log?: (message: string) => void
}

async function side(label: JitSide['label'], root: string, commit: string, runs: number): Promise<JitSide> {
  const args = hasWorkers(root) ? ['--workers', '1'] : []
  const r = await fuzzChild({ kitRoot: root, args: ['--runs', String(runs), ...args], nodeArgs: JIT_TRACE_FLAGS, keepStdout: true })
  return { label, commit, args, seeds: runs, runs: r.runs, cpuMs: r.cpuMs, figures: parseJitTrace(r.stdout ?? '') }
}

/** One traced campaign on each build. */
export async function benchJit(options: JitOptions): Promise<JitResult> {
  const built = options.build ?? buildAt(options.before ?? DEFAULT_BEFORE)
  try {
    options.log?.(`jit: ${fmt(options.runs)} runs per campaign${'dir' in built ? `, before = ${built.commit}` : ` (${built.skipped})`}`)
    const before = 'dir' in built ? await side('before', built.dir, built.commit, options.runs) : undefined
    const after = await side('after', KIT_ROOT, headCommit(), options.runs)
    return { after, ...(before ? { before } : {}), ...('skipped' in built ? { skipped: built.skipped } : {}) }
  } finally {
    if (options.build === undefined) removeBuild(built)
  }
}

const perK = (n: number, runs: number): string => fmt((1000 * n) / runs, 1)

/** The comparison as markdown: one row per build, then what was compiled again most. */
export function jitTables(result: JitResult): string {
  const sides = [result.before, result.after].filter((s): s is JitSide => s !== undefined)
  const reasons = (f: JitFigures): string => Object.entries(f.deoptsByReason).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([r, n]) => `${r} ${n}`).join(', ')
  const rows = table(
    ['build', 'command', 'runs', 'CPU s', 'optimizing compiles', 'functions compiled', 'compiled again: functions / compiles', 'compile ms (V8\'s timing)', 'of it compiling again', 'deoptimizations', 'per 1,000 runs: compiles / deoptimizations', 'top reasons'],
    sides.map((s) => {
      const f = s.figures
      return [
        `${s.label} (${s.commit})`, `\`dsh-kit fuzz --runs ${fmt(s.seeds)}${s.args.length ? ` ${s.args.join(' ')}` : ''}\``, fmt(s.runs), fmt(s.cpuMs / 1000, 1),
        fmt(f.compiles), fmt(f.functions), `${fmt(f.recompiled)} / ${fmt(f.recompiles)}`, fmt(f.compileMs), `${fmt(f.recompileMs)} (${fmt((100 * f.recompileMs) / Math.max(1e-9, f.compileMs))}%)`,
        fmt(f.deopts), `${perK(f.compiles, s.runs)} / ${perK(f.deopts, s.runs)}`, reasons(f) || 'none',
      ]
    }),
  )
  const again = result.after.figures.byRecompileMs.slice(0, 8).map((f) => `${f.name} ${f.compiles}× (${fmt(f.recompileMs)} ms again)`).join(', ')
  return `${rows}\n\nCompiled again most (${result.after.commit}, by compile time after the first compile): ${again || 'none'}.`
}

if (isMain(import.meta.url)) {
  const before = arg('before')
  const result = await benchJit({ runs: Number(arg('runs') ?? 6000), ...(before !== undefined ? { before } : {}), log: (m) => process.stderr.write(`${m}\n`) })
  console.log(jitTables(result))
}
