/**
 * The livelock guard of directed cases: a runtime can loop through turns on microtasks only (an
 * idle listener re-sending to an agent that is never torn down), which starves the timers a hang
 * detector relies on.
 * @module
 */
import type { Model } from '../../core/contract.js'
import type { ProcessFactory } from '../../core/process.js'

/**
 * Wrap a process so a livelocking factory cannot freeze the process: a mutant can loop through
 * turns on microtasks only (e.g. an idle listener re-sending to an agent that is never torn down),
 * which starves the timers a hang detector relies on. Every world's `checkpoint` and model calls
 * are counted; past `budget` they never settle, the loop stops, and `onTrip` is told (or the case times out). The
 * wrapper returns the original promises otherwise, so timing is unchanged (a correct factory never
 * comes near the budget: the reference passes every case through it).
 */
export function guardLivelock(boot: ProcessFactory, budget: number, tripped: { value: boolean; onTrip?: () => void }): ProcessFactory {
  return (services) => {
    let calls = 0
    const over = (): boolean => {
      if (++calls <= budget) return false
      if (!tripped.value) tripped.onTrip?.()
      tripped.value = true
      return true
    }
    const { checkpoint, model } = services
    const guarded: Model = { call: (request) => (over() ? new Promise(() => undefined) : model.call(request)) }
    return boot({ ...services, checkpoint: (label) => (over() ? new Promise<void>(() => undefined) : checkpoint(label)), model: guarded })
  }
}

