/**
 * Run directed cases against one installed factory and collect which ones fail: the engine of the
 * mutant meta-test (a mutant is "caught" by every case that fails on it).
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { guardLivelock } from '../cases/guard.js'
import { caseTitle } from '../cases/harness.js'
import type { CaseTarget, DirectedCase } from '../cases/harness.js'
import { caseSkipReason } from '../certify/certify.js'

/**
 * Directed cases do not shut their worlds down, and a failing or hanging case never could; each
 * world's initiator scope keeps its AsyncLocalStorage enabled, and thousands of enabled storages
 * make every later promise slow (spurious timeouts late in a long mutant run). While cases run,
 * record the storages that install initiator frames (`{ agent, run }`, core/initiator.ts) and
 * disable them once the case is over; its world is dead by then (a hung world is stalled).
 */
function trackInitiatorStorages(): { release(): void; restore(): void } {
  const seen = new Set<AsyncLocalStorage<unknown>>()
  const proto = AsyncLocalStorage.prototype as unknown as { run: (this: AsyncLocalStorage<unknown>, store: unknown, ...rest: unknown[]) => unknown }
  const original = proto.run
  proto.run = function (store, ...rest) {
    if (typeof store === 'object' && store !== null && 'agent' in store && 'run' in store) seen.add(this)
    return original.call(this, store, ...rest)
  }
  return {
    release: () => { for (const storage of seen) storage.disable(); seen.clear() },
    restore: () => { proto.run = original },
  }
}

/** One failing case. */
export interface CaseFailure {
  readonly title: string
  /** `timeout` when the case did not settle within the budget (a hang), else the error message. */
  readonly reason: string
}

/** Options of {@link runDirected}. */
export interface RunDirectedOptions {
  /**
   * Wall-clock budget per case in ms (a hang detector only: cases are deterministic and settle in
   * milliseconds; a mutant that deadlocks a teardown would otherwise hang the meta-test).
   */
  readonly timeoutMs?: number
  /** Checkpoints plus model calls allowed per world before the livelock guard stalls it (default 5000). */
  readonly budget?: number
}

/**
 * Run every case in order against `target`; returns the failures (empty = every case passed). A
 * case needing a capability the target lacks is not run.
 */
export async function runDirected(target: CaseTarget, cases: readonly DirectedCase[], options: RunDirectedOptions = {}): Promise<CaseFailure[]> {
  const timeoutMs = options.timeoutMs ?? 1_000
  const failures: CaseFailure[] = []
  const storages = trackInitiatorStorages()
  try {
    for (const c of cases) {
      if (caseSkipReason(c, target.supports) !== undefined) continue
      const failure = await runOne(c, target, timeoutMs, options.budget ?? 5_000)
      storages.release()
      if (failure) failures.push(failure)
    }
  } finally {
    storages.release()
    storages.restore()
  }
  return failures
}

async function runOne(c: DirectedCase, target: CaseTarget, timeoutMs: number, budget: number): Promise<CaseFailure | undefined> {
  const title = caseTitle(c)
  const tripped = { value: false }
  const guarded: CaseTarget = { ...target, process: guardLivelock(target.process, budget, tripped) }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), timeoutMs) })
  try {
    const outcome = await Promise.race([Promise.resolve().then(() => c.run(guarded)).then(() => 'ok' as const), timeout])
    if (outcome === 'ok') return undefined
    return { title, reason: tripped.value ? 'livelock (stopped by the guard)' : `timeout after ${timeoutMs} ms` }
  } catch (error) {
    if (tripped.value) return { title, reason: 'livelock (stopped by the guard)' }
    const message = error instanceof Error ? error.message : String(error)
    return { title, reason: message.split('\n')[0]!.slice(0, 160) }
  } finally {
    clearTimeout(timer)
  }
}
