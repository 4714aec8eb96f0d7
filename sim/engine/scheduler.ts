/**
 * The scheduler of one run: the loop that lets the process settle, asks the
 * strategy which pending point proceeds, and advances virtual time when
 * nothing is pending, until the run ends one way or another.
 * @module
 */
import { VirtualClock } from '../world/clock.js'
import { DecisionRecorder } from '../trace/decision-log.js'
import type { PendingPoint, PickContext, Strategy } from '../strategies/strategy.js'
import { OperationTracker, type OpHandle } from './operations.js'
import type { BlockedOperation, CrashSource, RunOutcome } from './outcome.js'
import { ProcessWatch } from './process-watch.js'

/** The actor and operation under which `main` itself is tracked. */
const MAIN_ACTOR = 'main'
const MAIN_OP = 'main()'

/** Default step budget of a run; a run still going after it is a livelock. */
export const DEFAULT_BUDGET = 10_000

/** Options of {@link Scheduler.run}. */
export interface RunOptions {
  /** Maximum scheduling steps (picks plus time advances); defaults to {@link DEFAULT_BUDGET}. */
  readonly budget?: number
  /** Virtual time at the start of the run, in ms since the epoch; defaults to 0. */
  readonly clockStart?: number
  /**
   * Asked between steps: a reason ends the run as a livelock (a trace that outgrew its cap, say),
   * so a run's memory stays bounded even when its step count does not grow.
   */
  readonly runaway?: () => string | undefined
}

/** Decisions (steps plus random draws) a run may record per step of its budget before it is a livelock. */
const DECISIONS_PER_STEP = 20

class Point implements PendingPoint {
  constructor(
    readonly label: string,
    readonly actor: string,
    readonly seq: number,
    readonly resolve: () => void,
  ) {}
}

interface MutableContext {
  step: number
  lastActor: string | undefined
}

type State = 'new' | 'running' | 'done'

const never = (): Promise<never> => new Promise<never>(() => {})

/**
 * Runs one program under one strategy, once. The world wires its waits into
 * the scheduler with {@link point}, {@link block}, {@link beginOp} and
 * {@link random}; the driver calls {@link run}.
 *
 * The driver owns the strategy's `beginRun()` (it needs the answer to know
 * whether to run at all); the scheduler calls `endRun()` when its run ends.
 *
 * @example
 * ```ts
 * const strategy = random({ seed: 1 })
 * strategy.beginRun()
 * const s = new Scheduler(strategy)
 * const outcome = await s.run(async () => {
 *   await Promise.all(['a', 'b'].map(async (actor) => { await s.point(`${actor}:step`, actor) }))
 * })
 * ```
 */
export class Scheduler {
  readonly #strategy: Strategy
  readonly #recorder = new DecisionRecorder()
  readonly #ops = new OperationTracker()
  readonly #pending: Point[] = []
  readonly #labels = new Set<string>()
  readonly #ctx: MutableContext = { step: 0, lastActor: undefined }
  readonly #watch = new ProcessWatch(() => this.#recorder.length)
  #state: State = 'new'
  #seq = 0
  #steps = 0
  #mainOp: OpHandle | undefined
  #crash: { error: unknown; source: CrashSource } | undefined
  #harnessError: { error: unknown } | undefined
  #probe: ((turn: () => Promise<void>, last: boolean) => Promise<void> | undefined) | undefined
  readonly #turn = (): Promise<void> => this.#watch.turn()
  #clock: VirtualClock | undefined

  /** @param strategy a strategy on which `beginRun()` returned `true` for this run. */
  constructor(strategy: Strategy) {
    this.#strategy = strategy
  }

  /** Scheduling steps taken so far (picks plus time advances). */
  get steps(): number {
    return this.#steps
  }

  /** Decisions recorded so far (steps plus random draws). */
  get decisionCount(): number {
    return this.#recorder.length
  }

  /**
   * A scheduling point: `actor` waits here until the strategy picks it.
   *
   * `label` names the point in decision logs and replay; it should say who and
   * where (`a1:create@setup.2`). If a point with the same label is already
   * pending, this one is labelled `label#2` (then `#3`, ...), which is
   * deterministic because the pending set is. The point also becomes what the
   * actor's innermost open operation waits on.
   *
   * After the run has ended the world is abandoned: the promise never settles.
   */
  point(label: string, actor: string): Promise<void> {
    if (this.#state === 'done') return never()
    let unique = label
    if (this.#labels.has(label)) {
      let n = 2
      while (this.#labels.has((unique = `${label}#${n}`))) n++
    }
    this.#labels.add(unique)
    this.#ops.reached(actor, unique)
    return new Promise<void>((resolve) => {
      this.#pending.push(new Point(unique, actor, this.#seq++, resolve))
    })
  }

  /**
   * Declare that `actor` is blocked forever on `label` (a persistence load that
   * hangs, a model call that never answers): its innermost open operation is
   * reported as waiting on `label` if the run deadlocks. Returns a promise that
   * never settles, for the blocked code to await.
   */
  block(label: string, actor: string): Promise<never> {
    this.#ops.blocked(actor, label)
    return never()
  }

  /**
   * Call `probe` each time the process has settled, before the next decision (the last call, with
   * `last`, sees the state the run ends in: nothing pending, no timer). The probe observes: it may await microtasks and, through `turn`,
   * one more real macrotask turn, but it takes no decision. A probe that throws is a harness error.
   */
  onSettled(probe: (turn: () => Promise<void>, last: boolean) => Promise<void> | undefined): void {
    this.#probe = probe
  }

  /** Open an operation of `actor`; the run deadlocks if it is still open when nothing can run. */
  beginOp(actor: string, description: string): OpHandle {
    return this.#ops.begin(actor, description)
  }

  /**
   * A random draw in `[0, n)` made by the strategy and logged, for choices
   * inside a run (which fault, which model reply) that replay must reproduce.
   * @throws RangeError when `n` is not an integer >= 1.
   * @throws Error when called outside {@link run}: an unlogged draw would break replay.
   */
  random(n: number): number {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`Scheduler.random(n) needs an integer n >= 1, got n=${String(n)}`)
    if (this.#state !== 'running') throw new Error('Scheduler.random() called outside run(); draws must happen during the run so they are logged')
    let value: number
    try {
      value = this.#strategy.random(n)
    } catch (error) {
      // The caller is code under test, which might swallow this; the loop rethrows it.
      this.#harnessError ??= { error }
      throw error
    }
    if (!Number.isInteger(value) || value < 0 || value >= n) {
      const error = new Error(`strategy "${this.#strategy.name}" returned ${String(value)} from random(${n}); expected an integer in [0, ${n})`)
      this.#harnessError ??= { error }
      throw error
    }
    this.#recorder.random(n, value)
    return value
  }

  /**
   * Run `main` to the end under the virtual clock and return how it ended.
   *
   * The loop: let the process settle; if points are pending, the strategy picks
   * one and it proceeds; else if a virtual timer is waiting, time advances to it
   * and it fires; else the run ends, as a deadlock if operations are still open
   * (`main`'s own promise counts as one, for actor `"main"`). Between two steps
   * the process settles: all microtasks run, then a real macrotask turn, again
   * as long as code under test queued real immediates. Virtual timers never fire
   * on their own.
   *
   * The outcome is returned, never thrown. `run` rejects only for harness
   * errors: a second `run`, another run already active in the process, a
   * strategy error (a `ReplayDivergenceError`, an out-of-range pick).
   */
  async run(main: () => void | Promise<void>, options: RunOptions = {}): Promise<RunOutcome> {
    if (this.#state !== 'new') throw new Error('Scheduler.run(): this scheduler has already run; create one Scheduler per run')
    const budget = options.budget ?? DEFAULT_BUDGET
    if (!Number.isInteger(budget) || budget < 0) throw new RangeError(`Scheduler.run(): budget must be an integer >= 0, got budget=${String(budget)}`)
    const clock = options.clockStart === undefined ? new VirtualClock() : new VirtualClock({ start: options.clockStart })
    this.#clock = clock
    clock.install()
    let outcome: RunOutcome | undefined
    try {
      this.#watch.start()
      this.#state = 'running'
      this.#startMain(main)
      outcome = await this.#loop(clock, budget, options.runaway)
    } finally {
      this.#state = 'done'
      this.#watch.stop()
      clock.uninstall()
      if (outcome === undefined) {
        // A harness error is propagating; the strategy's own end-of-run
        // complaints would only hide it.
        try {
          this.#strategy.endRun?.()
        } catch {
          // deliberately ignored, see above
        }
      }
    }
    this.#strategy.endRun?.()
    return outcome
  }

  /**
   * The open operations at a deadlock. `main()` is left out when anything else
   * is open: it is then (typically) waiting for those, and naming it adds
   * nothing; alone, it is the only lead.
   */
  #blocked(): BlockedOperation[] {
    const others = this.#ops.report(this.#mainOp)
    return others.length > 0 ? others : this.#ops.report()
  }

  #startMain(main: () => void | Promise<void>): void {
    const op = this.#ops.begin(MAIN_ACTOR, MAIN_OP)
    this.#mainOp = op
    this.#watch.immediateSeen = false
    let result: void | Promise<void>
    try {
      result = this.#watch.runInRun(main)
    } catch (error) {
      op.end('fail')
      this.#crash ??= { error, source: 'main' }
      return
    }
    if (result !== undefined && typeof (result as Promise<void>).then === 'function') {
      ;(result as Promise<void>).then(
        () => op.end('ok'),
        (error: unknown) => {
          op.end('fail')
          this.#crash ??= { error, source: 'main' }
        },
      )
    } else {
      op.end('ok')
    }
  }

  async #loop(clock: VirtualClock, budget: number, runaway: (() => string | undefined) | undefined): Promise<RunOutcome> {
    const strategy = this.#strategy
    const pending = this.#pending
    const watch = this.#watch
    const ctx = this.#ctx
    await this.#settle()
    for (;;) {
      const ended = this.#ended()
      if (ended !== undefined) return ended
      const runawayReason = runaway?.() ?? (this.#recorder.length > (budget + 1) * DECISIONS_PER_STEP ? `${this.#recorder.length} decisions recorded in ${this.#steps} steps` : undefined)
      if (runawayReason !== undefined) return { kind: 'livelock', steps: this.#steps, budget, reason: runawayReason, decisions: this.#log() }
      if (pending.length > 0) {
        if (this.#steps >= budget) return { kind: 'livelock', steps: this.#steps, budget, decisions: this.#log() }
        ctx.step = this.#steps
        const index = strategy.pick(pending, ctx)
        const point = pending[index]
        if (point === undefined || !Number.isInteger(index)) {
          throw new Error(`strategy "${strategy.name}" picked index ${String(index)} of ${pending.length} pending points`)
        }
        pending.splice(index, 1)
        this.#labels.delete(point.label)
        this.#recorder.pick(point.label)
        ctx.lastActor = point.actor
        this.#steps++
        watch.immediateSeen = false
        point.resolve()
      } else {
        const at = clock.nextTimerAt()
        if (at === undefined) {
          return this.#ops.openCount > 0
            ? { kind: 'deadlock', steps: this.#steps, blocked: this.#blocked(), decisions: this.#log() }
            : { kind: 'ok', steps: this.#steps, decisions: this.#log() }
        }
        if (this.#steps >= budget) return { kind: 'livelock', steps: this.#steps, budget, decisions: this.#log() }
        strategy.advanceTime?.(at)
        this.#recorder.time(at)
        this.#steps++
        watch.immediateSeen = false
        try {
          clock.advanceToNext()
        } catch (error) {
          this.#crash ??= { error, source: 'timer' }
        }
      }
      await this.#settle()
    }
  }

  /** The outcome if something other than the loop ended the run, else `undefined`. */
  #ended(): RunOutcome | undefined {
    if (this.#harnessError !== undefined) throw this.#harnessError.error
    const uncontrolled = this.#watch.uncontrolled
    if (uncontrolled !== undefined) {
      const { type, decision, where } = uncontrolled
      return { kind: 'uncontrolled', steps: this.#steps, seen: `real ${type} created at decision ${decision} (${where})`, decisions: this.#log() }
    }
    const crash = this.#crash ?? this.#watch.crash
    if (crash !== undefined) return { kind: 'crash', steps: this.#steps, error: crash.error, source: crash.source, decisions: this.#log() }
    return undefined
  }

  /**
   * Let the process settle: one real turn drains every microtask and runs every
   * immediate queued before it; immediates queued by code under test during
   * the turn run after it, so they take one more turn each generation. Then
   * the quiescence probe, if any, observes the settled process.
   */
  async #settle(): Promise<void> {
    const watch = this.#watch
    await watch.turn()
    while (watch.immediateSeen) {
      watch.immediateSeen = false
      await watch.turn()
    }
    const probe = this.#probe
    if (probe === undefined || this.#state !== 'running') return
    try {
      // Most probes record at once; only one that waits for a whenIdle() returns a promise.
      const waiting = probe(this.#turn, this.#pending.length === 0 && this.#clock?.nextTimerAt() === undefined)
      if (waiting !== undefined) await waiting
    } catch (error) {
      this.#harnessError ??= { error }
    }
    // What the probe's observations queued runs before the next decision.
    while (watch.immediateSeen) {
      watch.immediateSeen = false
      await watch.turn()
    }
  }

  #log() {
    return this.#recorder.toLog(this.#strategy.name, this.#strategy.seed)
  }
}
