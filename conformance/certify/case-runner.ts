/**
 * Running one directed case against a runtime: through the process port (for factory and process
 * adapters alike), under the livelock guard, with every process it booted released afterwards.
 * @module
 */
import type { ProcessHandle } from '../../core/process.js'
import type { NormalizedAdapter, Supports } from '../adapters/adapter.js'
import type { CaseTarget, DirectedCase } from '../cases/index.js'
import { guardLivelock } from '../cases/guard.js'

/** Model calls plus checkpoints one case's process may make (the reference needs a few dozen at most). */
export const CASE_BUDGET = 1_000

/** The livelock guard's verdict, as a case failure message. */
export const CASE_LIVELOCK = `livelock: more than ${CASE_BUDGET} model calls and checkpoints in one process (stopped by the guard)`

/** What the directed cases run against for an adapter: its process and its manifest. */
export function caseTarget(adapter: NormalizedAdapter): CaseTarget {
  return { process: adapter.processFactory, supports: adapter.supports }
}

/** Why a case cannot run on an adapter (a missing capability, or no resume), or undefined. */
export function caseSkipReason(c: DirectedCase, supports: Supports): string | undefined {
  const missing = (c.needs ?? []).filter((n) => !supports[n])
  if (missing.length > 0) return `needs capability ${missing.join(', ')}`
  if ((c.resumes ?? /resume|restart/i.test(c.title)) && !supports.resume) return 'needs resume (supports.resume is false)'
  return undefined
}

/**
 * Run one directed case under the livelock guard: resolves when it passed, rejects with its
 * failure (or {@link CASE_LIVELOCK}). It sets no timer: the caller watches for hangs.
 */
export async function runGuardedCase(c: DirectedCase, target: CaseTarget): Promise<void> {
  const tripped: { value: boolean; onTrip?: () => void } = { value: false }
  // Every process the case boots is abandoned once it settles: a case does not shut its processes
  // down, and what they hold process-wide (an enabled AsyncLocalStorage, patched globals, hooks)
  // would slow or disturb every later case and simulated run.
  const booted: ProcessHandle[] = []
  const boot = guardLivelock(target.process, CASE_BUDGET, tripped)
  const guarded: CaseTarget = { ...target, process: async (services) => { const handle = await boot(services); booted.push(handle); return handle } }
  const livelock = new Promise<never>((_, reject) => { tripped.onTrip = () => reject(new Error(CASE_LIVELOCK)) })
  livelock.catch(() => undefined)
  try {
    await Promise.race([c.run(guarded), livelock])
    if (tripped.value) throw new Error(CASE_LIVELOCK)
  } finally {
    for (const handle of booted) {
      try { handle.abandon() } catch { /* a process that cannot be abandoned is left as it is */ }
    }
  }
}

/**
 * Run one directed case with a time limit: its failure message, or undefined when it passed (the
 * form scripts and the mutant meta-test use; `certify` watches cases with its own watchdogs).
 */
export async function runCase(c: DirectedCase, target: CaseTarget, timeoutMs = 10_000): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`did not settle within ${timeoutMs} ms (a hang)`), timeoutMs)
    timer.unref()
  })
  try {
    return await Promise.race([runGuardedCase(c, target).then(() => undefined, (error: unknown) => (error instanceof Error ? error.message : String(error))), timeout])
  } finally {
    clearTimeout(timer)
  }
}
