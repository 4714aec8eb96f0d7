/**
 * Decisions per second and runs per second of the kit's scheduler on fixed programs, against
 * fast-check's `fc.scheduler()` driving the same world (bench/fc-driver.ts).
 *
 * The programs: 1, 4 and 16 actors, each creating its own session with a 2-step async setup, as
 * plain `Program` JSON run with `runProgram` (kit) or `runProgramWith` + `FastCheckDriver`
 * (baseline). Both sides build the same world, run the reference factory, record the same trace.
 * Batches of runs alternate kit / fast-check, sized from a discarded warm-up batch to about a second
 * each; each figure is the median over the batches.
 *
 * A second table isolates the schedulers from the world (folded in from the former
 * `scheduler-engine.bench.ts`): 3 actors of 10 or 300 bare scheduling points, no world, no factory.
 *
 * Run alone: `npm run build --silent && node dist/bench/scheduler.js [--reps 5] [--only kit|fc] [--actors 16]`
 * @module
 */
import fc from 'fast-check'
import { explore } from '../sim/engine/explore.js'
import type { Scheduler } from '../sim/engine/scheduler.js'
import type { Program } from '../sim/program/program.js'
import { runProgram, runProgramWith } from '../sim/run.js'
import { random } from '../sim/strategies/random.js'
import { arg, fmt, isMain, median, quietAbortListeners, table, timed } from './common.js'
import { FastCheckDriver } from './fc-driver.js'

/** `n` concurrent creates, each with a 2-step async setup. */
export function concurrentCreates(n: number): Program {
  return {
    v: 1,
    name: `${n} concurrent create${n === 1 ? '' : 's'}`,
    actors: Array.from({ length: n }, (_, i) => ({ id: `a${i + 1}`, ops: [{ op: 'create' as const, session: `s${i + 1}`, setup: { steps: 2 } }] })),
  }
}

/** Actor counts of the benchmark, with the runs of one batch (about a second each). */
export const SIZES: readonly { readonly actors: number; readonly batch: number }[] = [
  { actors: 1, batch: 400 },
  { actors: 4, batch: 160 },
  { actors: 16, batch: 50 },
]

interface Batch {
  readonly runs: number
  readonly decisions: number
  readonly wallMs: number
  readonly cpuMs: number
}

/** `runs` runs of `program` under the kit's scheduler (`random` strategy, seeds from `seed`). */
export async function kitBatch(program: Program, runs: number, seed: number): Promise<Batch> {
  const t = await timed(async () => {
    let decisions = 0
    for (let k = 0; k < runs; k++) {
      const strategy = random({ seed: seed + k })
      strategy.beginRun()
      const result = await runProgram(program, strategy)
      if (result.outcome.kind !== 'ok') throw new Error(`kit run ${k} of "${program.name}" ended ${result.outcome.kind}`)
      decisions += result.outcome.steps
    }
    return decisions
  })
  return { runs, decisions: t.value, wallMs: t.wallMs, cpuMs: t.cpuMs }
}

/** `runs` runs of `program` under `fc.scheduler()` inside `fc.assert`, as a fast-check user writes it. */
export async function fcBatch(program: Program, runs: number, seed: number): Promise<Batch> {
  const t = await timed(async () => {
    let decisions = 0
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const result = await runProgramWith(program, new FastCheckDriver(s))
        if (result.outcome.kind !== 'ok') throw new Error(`fast-check run of "${program.name}" ended ${result.outcome.kind}`)
        decisions += result.outcome.steps
      }),
      { numRuns: runs, seed },
    )
    return decisions
  })
  return { runs, decisions: t.value, wallMs: t.wallMs, cpuMs: t.cpuMs }
}

/** One row of the scheduler table. */
export interface SchedulerRow {
  readonly program: string
  readonly decisionsPerRun: { readonly kit: number; readonly fc: number }
  readonly kit: Rates
  readonly fc: Rates
  /** kit / fc, decisions per second (wall clock). */
  readonly ratio: number
  /** kit / fc, decisions per CPU second. */
  readonly cpuRatio: number
  readonly batches: number
  readonly runsPerBatch: number
}

/** Medians over batches. */
export interface Rates {
  readonly decisionsPerSec: number
  readonly runsPerSec: number
  readonly decisionsPerCpuSec: number
  /** Wall time of one decision, µs (median batch). */
  readonly usPerDecision: number
}

function rates(batches: readonly Batch[]): Rates {
  return {
    decisionsPerSec: median(batches.map((b) => (b.decisions / b.wallMs) * 1000)),
    runsPerSec: median(batches.map((b) => (b.runs / b.wallMs) * 1000)),
    decisionsPerCpuSec: median(batches.map((b) => (b.decisions / b.cpuMs) * 1000)),
    usPerDecision: median(batches.map((b) => (b.wallMs * 1000) / b.decisions)),
  }
}

/** Options of {@link benchScheduler}. */
export interface SchedulerBenchOptions {
  /** Measured batches per side and program (after one warm-up batch each). */
  readonly reps?: number
  readonly only?: 'kit' | 'fc'
  readonly actors?: readonly number[]
  /** Scale the warm-up batch sizes (e.g. 0.1 for a smoke run). */
  readonly scale?: number
  /** Target wall time of one measured batch, seconds (default 1). */
  readonly batchSeconds?: number
}

/** Run the scheduler benchmark; one row per program. */
export async function benchScheduler(options: SchedulerBenchOptions = {}): Promise<SchedulerRow[]> {
  quietAbortListeners()
  const reps = options.reps ?? 5
  const rows: SchedulerRow[] = []
  for (const size of SIZES.filter((s) => !options.actors || options.actors.includes(s.actors))) {
    const program = concurrentCreates(size.actors)
    const measure = {
      kit: options.only === 'fc' ? undefined : (runs: number, seed: number) => kitBatch(program, runs, seed),
      fc: options.only === 'kit' ? undefined : (runs: number, seed: number) => fcBatch(program, runs, seed),
    }
    rows.push(await compare(program.name!, measure, Math.max(1, Math.round(size.batch * (options.scale ?? 1))), reps, options.batchSeconds ?? 1))
  }
  return rows
}

type Measure = ((runs: number, seed: number) => Promise<Batch>) | undefined

/**
 * Alternate kit and fast-check batches. The warm-up batch (`warmRuns` runs, discarded) also sizes
 * the measured batches to about `batchSeconds` of wall time for the slower side, so a fast machine
 * does not time 0.1 s batches and a loaded one does not spend minutes.
 */
async function compare(name: string, measure: { kit: Measure; fc: Measure }, warmRuns: number, reps: number, batchSeconds: number): Promise<SchedulerRow> {
  const warmKit = measure.kit ? await measure.kit(warmRuns, 0) : undefined
  const warmFc = measure.fc ? await measure.fc(warmRuns, 0) : undefined
  const perRunMs = Math.max(warmKit ? warmKit.wallMs / warmKit.runs : 0, warmFc ? warmFc.wallMs / warmFc.runs : 0)
  const runs = Math.min(100_000, Math.max(5, Math.round((batchSeconds * 1000) / Math.max(perRunMs, 1e-3))))
  const kit: Batch[] = []
  const base: Batch[] = []
  for (let rep = 0; rep < reps; rep++) {
    if (measure.kit) kit.push(await measure.kit(runs, 1000 * (rep + 1)))
    if (measure.fc) base.push(await measure.fc(runs, 1000 * (rep + 1)))
  }
  const kr = rates(kit)
  const fr = rates(base)
  return {
    program: name,
    decisionsPerRun: { kit: kit.length ? kit[0]!.decisions / kit[0]!.runs : Number.NaN, fc: base.length ? base[0]!.decisions / base[0]!.runs : Number.NaN },
    kit: kr,
    fc: fr,
    ratio: kr.decisionsPerSec / fr.decisionsPerSec,
    cpuRatio: kr.decisionsPerCpuSec / fr.decisionsPerCpuSec,
    batches: reps,
    runsPerBatch: runs,
  }
}

/** The scheduler table as markdown. */
export function schedulerTable(rows: readonly SchedulerRow[]): string {
  return table(
    ['program', 'runs/batch', 'decisions/run (kit / fc)', 'kit decisions/s', 'kit runs/s', 'fc decisions/s', 'fc runs/s', 'kit/fc (wall)', 'kit/fc (CPU)', 'kit µs/decision', 'fc µs/decision'],
    rows.map((r) => [
      r.program, fmt(r.runsPerBatch), `${fmt(r.decisionsPerRun.kit, 1)} / ${fmt(r.decisionsPerRun.fc, 1)}`,
      fmt(r.kit.decisionsPerSec), fmt(r.kit.runsPerSec), fmt(r.fc.decisionsPerSec), fmt(r.fc.runsPerSec),
      `${fmt(r.ratio, 2)}×`, `${fmt(r.cpuRatio, 2)}×`, fmt(r.kit.usPerDecision, 1), fmt(r.fc.usPerDecision, 1),
    ]),
  )
}

const ENGINE_ACTORS = ['a', 'b', 'c']

/** `runs` runs of 3 actors x `steps` bare points under the kit's engine (no world). */
export async function engineKitBatch(steps: number, runs: number, seed: number): Promise<Batch> {
  const program = async (s: Scheduler): Promise<void> => {
    await Promise.all(ENGINE_ACTORS.map(async (actor) => {
      for (let i = 0; i < steps; i++) await s.point(`${actor}:${i}`, actor)
    }))
  }
  const t = await timed(async () => {
    let decisions = 0
    for await (const outcome of explore(random({ seed }), program, { maxRuns: runs })) {
      if (outcome.kind !== 'ok') throw new Error(`engine run ended ${outcome.kind}`)
      decisions += outcome.steps
    }
    return decisions
  })
  return { runs, decisions: t.value, wallMs: t.wallMs, cpuMs: t.cpuMs }
}

/** The same under `fc.scheduler()`. */
export async function engineFcBatch(steps: number, runs: number, seed: number): Promise<Batch> {
  const t = await timed(async () => {
    let decisions = 0
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const all = Promise.all(ENGINE_ACTORS.map(async (actor) => {
          for (let i = 0; i < steps; i++) {
            await s.schedule(Promise.resolve(`${actor}:${i}`))
            decisions++
          }
        }))
        await s.waitIdle()
        await all
      }),
      { numRuns: runs, seed },
    )
    return decisions
  })
  return { runs, decisions: t.value, wallMs: t.wallMs, cpuMs: t.cpuMs }
}

/** Engine-only comparison: 3 x 10 points (per-run costs dominate) and 3 x 300 (per-decision costs). */
export async function benchEngine(options: { readonly reps?: number; readonly scale?: number; readonly batchSeconds?: number } = {}): Promise<SchedulerRow[]> {
  const rows: SchedulerRow[] = []
  for (const { steps, batch } of [{ steps: 10, batch: 300 }, { steps: 300, batch: 20 }]) {
    const warm = Math.max(1, Math.round(batch * (options.scale ?? 1)))
    rows.push(await compare(`engine only: 3 actors x ${steps} points`, {
      kit: (runs, seed) => engineKitBatch(steps, runs, seed),
      fc: (runs, seed) => engineFcBatch(steps, runs, seed),
    }, warm, options.reps ?? 5, options.batchSeconds ?? 1))
  }
  return rows
}

if (isMain(import.meta.url)) {
  const only = arg('only') as 'kit' | 'fc' | undefined
  const actors = arg('actors')
  const rows = await benchScheduler({
    reps: Number(arg('reps') ?? 5),
    ...(only ? { only } : {}),
    ...(actors ? { actors: actors.split(',').map(Number) } : {}),
    scale: Number(arg('scale') ?? 1),
    batchSeconds: Number(arg('batch-seconds') ?? 1),
  })
  if (process.argv.includes('--engine')) rows.push(...await benchEngine({ reps: Number(arg('reps') ?? 5), scale: Number(arg('scale') ?? 1), batchSeconds: Number(arg('batch-seconds') ?? 1) }))
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows))
  else console.log(schedulerTable(rows))
}
