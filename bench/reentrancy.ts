/**
 * How often the campaign's programs draw reentrant shapes: operations performed from inside a
 * dispatch while work is pending. The issue that motivated listener targeting measured one shape,
 * a teardown requested from inside an append observer (`session/event`) while the agent it tears
 * down has pending inbox items, at about once in 10⁵ programs.
 *
 * Two measures over the run seeds `0..n-1` of a random-program campaign (`drawForSeed`, so named
 * scenarios and swarm programs are mixed in as in `dsh-kit fuzz`):
 * - **drawn**: the program holds a `session/event` listener (any site) whose action is a teardown
 *   (`dispose`, `unloadOwner`, `unloadFactory`, `shutdown`, `restart`) — a static property;
 * - **fired with work pending**: run under the campaign's schedule for that seed (`portfolio`), the
 *   trace shows such a teardown performed from inside a `session/event` observer while an agent it
 *   tears down had pending inbox items before the observed append (the live inbox an observer sees,
 *   §6.3); likewise any teardown, cancel or send performed from inside any dispatch (listener,
 *   abort observer, disposer) while its target had pending items.
 *
 * Run alone: `npm run build --silent && node dist/bench/reentrancy.js [--programs 100000] [--runs 10000]`
 * @module
 */
import { walkProjections } from '../conformance/checkers/projection.js'
import type { Operation, Program } from '../sim/program/program.js'
import { runProgram } from '../sim/run.js'
import type { Trace } from '../sim/trace/trace.js'
import { strategyForSeed } from '../scenarios/campaign/seed-strategy.js'
import { drawForSeed } from '../scenarios/campaign/draw.js'
import { arg, fmt, isMain, quietAbortListeners } from './common.js'

const TEARDOWNS = new Set(['dispose', 'unloadOwner', 'unloadFactory', 'shutdown', 'restart'])
const SENDS = new Set(['followup', 'steer', 'inject', 'queue'])

/** Every listener of a program with the actions it may play (nested operations included). */
function* listeners(value: unknown): Generator<{ event: string; action: { do: string; op?: Operation } }> {
  if (Array.isArray(value)) {
    for (const v of value) yield* listeners(v)
    return
  }
  if (typeof value !== 'object' || value === null) return
  const o = value as Record<string, unknown>
  if (typeof o.event === 'string' && typeof o.action === 'object' && o.action !== null) yield o as never
  for (const v of Object.values(o)) yield* listeners(v)
}

/** Whether `program` holds an append observer whose action is a teardown (the shape, drawn). */
export function drawsTeardownInAppendObserver(program: Program): boolean {
  for (const l of listeners(program)) {
    if (l.event === 'session/event' && l.action.do === 'op' && l.action.op && TEARDOWNS.has(l.action.op.op)) return true
  }
  return false
}

/** What a run's trace shows of reentrant shapes. */
export interface ReentrantShapes {
  /** A teardown performed from inside a `session/event` observer while an agent it tears down had pending items. */
  readonly teardownInAppendObserverWithPending: boolean
  /** Any teardown, cancel or send performed from inside a dispatch while its target had pending items. */
  readonly reentrantOpWithPending: boolean
}

/** Find the reentrant shapes in one run's trace. */
export function reentrantShapes(trace: Trace): ReentrantShapes {
  let appendObserver = false
  let any = false
  let lastAppend: { world: number; id: string; pending: string[] } | undefined
  let lastMark: string | undefined
  walkProjections(trace.entries, (e, projections) => {
    if (e.k === 'append') {
      // What the observers of this append see live: the projection before it (§6.3).
      lastAppend = { world: e.world, id: e.id, pending: projections.pending(e.world, e.id) }
      lastMark = undefined
      return
    }
    if (e.k === 'mark') {
      lastMark = e.label
      return
    }
    if (e.k !== 'invoke' || e.actor !== 'inline') return
    const op = e.spec
    if (!TEARDOWNS.has(op.op) && op.op !== 'cancel' && !SENDS.has(op.op)) return
    const pendingOf = (id: string): number => (lastAppend && lastAppend.world === e.world && lastAppend.id === id ? lastAppend.pending : projections.pending(e.world, id)).length
    const targets = 'session' in op ? [op.session] : [...new Set(trace.entries.filter((x) => x.k === 'event' && x.world === e.world && x.i < e.i && x.name === 'session/created').map((x) => (x as { id: string }).id))]
    const pending = targets.some((id) => pendingOf(id) > 0)
    if (!pending) return
    any = true
    if (TEARDOWNS.has(op.op) && lastMark?.endsWith('listener:session/event op')) appendObserver = true
  })
  return { teardownInAppendObserverWithPending: appendObserver, reentrantOpWithPending: any }
}

/** The measurement. */
export interface ReentrancyReport {
  readonly programs: number
  readonly drawn: number
  readonly runs: number
  readonly firedWithPending: number
  readonly reentrantWithPending: number
}

/** Measure over the first `programs` run seeds (static) and the first `runs` of them (run). */
export async function benchReentrancy(options: { programs?: number; runs?: number } = {}): Promise<ReentrancyReport> {
  const programs = options.programs ?? 100_000
  const runs = Math.min(options.runs ?? 10_000, programs)
  let drawn = 0
  let fired = 0
  let reentrant = 0
  for (let r = 0; r < programs; r++) {
    const { program } = drawForSeed(r)
    if (drawsTeardownInAppendObserver(program)) drawn++
    if (r >= runs) continue
    const strategy = strategyForSeed('portfolio', r)
    strategy.beginRun()
    const result = await runProgram(program, strategy)
    const shapes = reentrantShapes(result.trace)
    if (shapes.teardownInAppendObserverWithPending) fired++
    if (shapes.reentrantOpWithPending) reentrant++
  }
  return { programs, drawn, runs, firedWithPending: fired, reentrantWithPending: reentrant }
}

/** The report as markdown lines. */
export function formatReentrancy(r: ReentrancyReport): string {
  const per = (n: number, of: number): string => fmt((n * 10_000) / of, 2)
  return [
    `- programs drawn with a teardown in an append observer: ${fmt(r.drawn)} of ${fmt(r.programs)} (${per(r.drawn, r.programs)} per 10⁴ programs)`,
    `- runs where it fired while the agent had pending work: ${fmt(r.firedWithPending)} of ${fmt(r.runs)} (${per(r.firedWithPending, r.runs)} per 10⁴ runs)`,
    `- runs with any teardown, cancel or send from inside a dispatch while its target had pending work: ${fmt(r.reentrantWithPending)} of ${fmt(r.runs)} (${per(r.reentrantWithPending, r.runs)} per 10⁴ runs)`,
  ].join('\n')
}

if (isMain(import.meta.url)) {
  quietAbortListeners()
  const report = await benchReentrancy({ programs: Number(arg('programs') ?? 100_000), runs: Number(arg('runs') ?? 10_000) })
  console.log(formatReentrancy(report))
}
