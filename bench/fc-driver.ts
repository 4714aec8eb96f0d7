/**
 * The baseline of the benchmarks: fast-check's `fc.scheduler()` behind the world's
 * {@link SchedulerPort}, so the same {@link World} (same program, same factory, same trace and
 * checkers) runs under either scheduler.
 *
 * Each `point(label)` is `s.schedule(Promise.resolve(), label)`; blocks never resolve; operations are
 * tracked only to tell `ok` from `deadlock` at the end; the loop is `await s.waitIdle()` after
 * starting the actors. With `clock: true` the kit's virtual clock is installed for the run and, each
 * time fast-check is idle, advanced to the next timer (the pattern fast-check documents for fake
 * timers), so programs with timed model replies run as they do under the kit's scheduler.
 * @module
 */
import type fc from 'fast-check'
import { VirtualClock } from '../sim/world/clock.js'
import { DECISION_LOG_VERSION } from '../sim/trace/decision-log.js'
import type { Decision, DecisionLog } from '../sim/trace/decision-log.js'
import { OperationTracker } from '../sim/engine/operations.js'
import type { OpHandle, RunOutcome } from '../sim/engine/index.js'
import type { RunDriver } from '../sim/world/ports.js'
import { createRng } from '../sim/streams.js'

/** Options of {@link FastCheckDriver}. */
export interface FastCheckDriverOptions {
  /** Install the virtual clock and fire timers when fast-check is idle (default false). */
  readonly clock?: boolean
}

const never = (): Promise<never> => new Promise<never>(() => {})

/** One run of the world under one `fc.scheduler()` instance. */
export class FastCheckDriver implements RunDriver {
  readonly #s: fc.Scheduler
  readonly #ops = new OperationTracker()
  readonly #clock: boolean
  readonly #log: Decision[] = []
  #decisions = 0
  #scheduled = 0
  #budget = 10_000
  #livelock = false
  #draws: ReturnType<typeof createRng> | undefined
  #done = false

  constructor(s: fc.Scheduler, options: FastCheckDriverOptions = {}) {
    this.#s = s
    this.#clock = options.clock ?? false
  }

  get decisionCount(): number {
    return this.#decisions
  }

  point(label: string, _actor: string): Promise<void> {
    if (this.#done) return never()
    // Past the budget nothing more is scheduled, so waitIdle returns and the run ends as a livelock.
    if (this.#scheduled++ >= this.#budget) { this.#livelock = true; return never() }
    return this.#s.schedule(Promise.resolve(), label).then(() => {
      this.#decisions++
      this.#log.push({ kind: 'pick', label })
    })
  }

  block(label: string, actor: string): Promise<never> {
    this.#ops.blocked(actor, label)
    return never()
  }

  beginOp(actor: string, description: string): OpHandle {
    return this.#ops.begin(actor, description)
  }

  /** fast-check's scheduler has no logged draws; the world does not use them on these programs. */
  random(n: number): number {
    this.#draws ??= createRng('fast-check baseline', 'random')
    return this.#draws.int(n)
  }

  async run(main: () => Promise<void>, options: { readonly budget?: number } = {}): Promise<RunOutcome> {
    const budget = (this.#budget = options.budget ?? 10_000)
    const clock = this.#clock ? new VirtualClock() : undefined
    let crash: unknown
    let crashed = false
    const onRejection = (reason: unknown): void => { if (!crashed) { crashed = true; crash = reason } }
    process.on('unhandledRejection', onRejection)
    clock?.install()
    let steps = 0
    try {
      const op = this.#ops.begin('main', 'main()')
      main().then(() => op.end('ok'), (error: unknown) => { op.end('fail'); if (!crashed) { crashed = true; crash = error } })
      for (;;) {
        await this.#s.waitIdle()
        if (this.#livelock) break
        const at = clock?.nextTimerAt()
        if (clock === undefined || at === undefined) break
        steps++
        clock.advanceToNext()
      }
      // Unhandled rejections are reported once the microtask queue drains.
      await new Promise<void>((resolve) => setImmediate(resolve))
    } finally {
      this.#done = true
      clock?.uninstall()
      process.off('unhandledRejection', onRejection)
    }
    steps += this.#decisions
    const decisions: DecisionLog = { v: DECISION_LOG_VERSION, strategy: 'fc.scheduler()', decisions: this.#log }
    if (crashed) return { kind: 'crash', steps, error: crash, source: 'main', decisions }
    if (this.#livelock) return { kind: 'livelock', steps, budget, decisions }
    if (this.#ops.openCount > 0) {
      const blocked = this.#ops.report().filter((b) => b.actor !== 'main')
      return { kind: 'deadlock', steps, blocked: blocked.length > 0 ? blocked : this.#ops.report(), decisions }
    }
    return { kind: 'ok', steps, decisions }
  }
}
