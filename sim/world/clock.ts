/**
 * The virtual clock of a run.
 *
 * Wraps `@sinonjs/fake-timers` so that `setTimeout`, `setInterval`, their
 * `clear*` twins, `Date` and `performance` follow virtual time, and timers
 * fire only when the scheduler calls {@link VirtualClock.advanceToNext}.
 * `setImmediate`, `queueMicrotask` and `process.nextTick` are deliberately left
 * real: the engine settles the process with a real macrotask turn, and faking
 * microtasks would change the semantics of `await` in the code under test.
 *
 * @module
 */
import { createRequire } from 'node:module'
import type FakeTimersModule from '@sinonjs/fake-timers'
import type { Clock, FakeMethod } from '@sinonjs/fake-timers'

/**
 * fake-timers, loaded when the first clock is made: the thread that feeds a campaign's workers
 * imports this module (through the campaign's code) but never runs a program, and loading and
 * evaluating fake-timers was a tenth of its start-up.
 */
const loadFakeTimers = (): typeof FakeTimersModule => createRequire(import.meta.url)('@sinonjs/fake-timers') as typeof FakeTimersModule

/**
 * The real `setImmediate`, captured when this module is first evaluated, before
 * any clock of ours is installed, so the engine can always take a real turn.
 */
export const realSetImmediate: typeof setImmediate = globalThis.setImmediate
/** The real `clearTimeout`, captured at module evaluation, to cancel real timers leaked by code under test. */
export const realClearTimeout: typeof clearTimeout = globalThis.clearTimeout

/**
 * The default virtual start time: 0 ms since the epoch, a constant so that two
 * runs of the same schedule see the same `Date.now()`; never real time.
 */
export const VIRTUAL_START = 0

const FAKED: FakeMethod[] = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance']

/**
 * `FakeTimers.withGlobal(globalThis)` builds fake-timers' whole API (and captures the real globals);
 * it costs as much as an install, so it is built once and reused for as long as the globals it
 * captured are still the process's real ones (someone replacing `setTimeout` or `Date` for good,
 * outside any run, gets a fresh one).
 */
let fakeTimers: { api: ReturnType<typeof FakeTimersModule.withGlobal>; setTimeout: unknown; Date: unknown } | undefined

function fakeTimersForGlobals(): ReturnType<typeof FakeTimersModule.withGlobal> {
  if (fakeTimers === undefined || fakeTimers.setTimeout !== globalThis.setTimeout || fakeTimers.Date !== globalThis.Date) {
    fakeTimers = { api: loadFakeTimers().withGlobal(globalThis), setTimeout: globalThis.setTimeout, Date: globalThis.Date }
  }
  return fakeTimers.api
}

/** The one clock currently installed in this process, if any: globals can only be faked once. */
let installedClock: VirtualClock | undefined

/**
 * A fake-timers clock kept installed between runs (see {@link keepClockBetweenRuns}): the next run
 * resets it instead of installing a new one.
 */
let kept: { clock: Clock; start: number } | undefined
let keepBetweenRuns = false

/**
 * Keep the fake timers installed between runs and reset them at each install, instead of
 * installing and uninstalling them per run (installing costs about a tenth of a reference run).
 * Only for a thread that does nothing but runs (a fuzz worker): between runs its `setTimeout`,
 * `Date` and `performance` stay virtual. A reset clock is as fresh as a new one: time back at the
 * start, no timer, no job. `keep` false (a certify worker before a directed case, which runs on
 * real time) restores the real globals at once, and installs and uninstalls per run again.
 */
export function keepClockBetweenRuns(keep = true): void {
  keepBetweenRuns = keep
  if (!keep && kept !== undefined && installedClock === undefined) {
    kept.clock.uninstall()
    kept = undefined
  }
}

/** Options of {@link VirtualClock}. */
export interface VirtualClockOptions {
  /** Virtual time at install, in ms since the epoch. Defaults to {@link VIRTUAL_START}. */
  readonly start?: number
}

/**
 * A virtual clock for one run. Install it for the run and uninstall it after,
 * in a `finally`: while installed, the process's global timers are fake.
 */
export class VirtualClock {
  /** Virtual time at install, in ms since the epoch. */
  readonly start: number
  #clock: Clock | undefined
  #lastNow: number

  constructor(options: VirtualClockOptions = {}) {
    this.start = options.start ?? VIRTUAL_START
    this.#lastNow = this.start
  }

  /** Whether this clock currently owns the global timers. */
  get installed(): boolean {
    return this.#clock !== undefined
  }

  /**
   * Fake the global timers, `Date` and `performance`, starting at {@link start}.
   * @throws Error when this or another virtual clock is already installed, or
   *   when the global timers are already faked by someone else (for example
   *   `vi.useFakeTimers()`), because two fakes would silently fight.
   */
  install(): void {
    if (this.#clock !== undefined) {
      throw new Error('VirtualClock.install(): this clock is already installed; uninstall it first')
    }
    if (installedClock !== undefined) {
      throw new Error('VirtualClock.install(): another VirtualClock is installed; only one run can own the global timers at a time')
    }
    if (kept !== undefined) {
      if (kept.start === this.start) {
        kept.clock.reset()
        this.#clock = kept.clock
        installedClock = this
        return
      }
      kept.clock.uninstall()
      kept = undefined
    }
    if ('clock' in globalThis.setTimeout) {
      throw new Error('VirtualClock.install(): setTimeout is already faked (vi.useFakeTimers() or another fake-timers clock?); restore real timers first')
    }
    this.#clock = fakeTimersForGlobals().install({
      now: this.start,
      toFake: FAKED,
      // Timers created before install are real ones the engine must never
      // fire; leave them to the real event loop.
      shouldClearNativeTimers: false,
    })
    if (keepBetweenRuns) kept = { clock: this.#clock, start: this.start }
    installedClock = this
  }

  /** Restore the real globals. Safe to call when not installed, so it can sit in a `finally`. */
  uninstall(): void {
    const clock = this.#clock
    if (clock === undefined) return
    this.#lastNow = clock.now
    this.#clock = undefined
    if (installedClock === this) installedClock = undefined
    if (kept?.clock !== clock) clock.uninstall()
  }

  /** Current virtual time in ms (the time at uninstall once uninstalled). */
  now(): number {
    return this.#clock === undefined ? this.#lastNow : this.#clock.now
  }

  /** Number of virtual timers waiting to fire. */
  pendingTimers(): number {
    return this.#clock === undefined ? 0 : this.#clock.countTimers()
  }

  /** Virtual time at which the next timer is due, or `undefined` when none is waiting. */
  nextTimerAt(): number | undefined {
    const clock = this.#clock
    if (clock === undefined) return undefined
    // fake-timers has no public "when is the next timer" query; its typed
    // internal heap (created with the first timer) answers in O(1). The clock
    // tests pin this, so a release that changes the internals fails loudly.
    return clock.timerHeap?.peek()?.callAt
  }

  /**
   * Advance virtual time to the next due timer and fire exactly that one timer
   * (fake-timers orders timers due at the same instant by creation). Timers
   * due at the same instant fire on later calls, so the engine can settle the
   * process between them as the real event loop drains microtasks between timers.
   * An exception thrown by the timer's callback propagates to the caller.
   * @throws Error when the clock is not installed or no timer is waiting.
   */
  advanceToNext(): void {
    const clock = this.#clock
    if (clock === undefined) throw new Error('VirtualClock.advanceToNext(): the clock is not installed')
    if (clock.countTimers() === 0) throw new Error('VirtualClock.advanceToNext(): no timer is waiting')
    clock.next()
  }
}
