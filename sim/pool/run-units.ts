/**
 * Run a list of independent units with at most `concurrency` in flight, in index order of
 * dispatch, collecting each verdict at its index (so a merge by index is the same whatever the
 * concurrency). `shouldStop` is asked before each dispatch: a stop lets the units in flight finish
 * and dispatches no more.
 * @module
 */

/** Options of {@link runUnits}. */
export interface RunUnitsOptions<V> {
  readonly concurrency: number
  /** Asked before each dispatch; `true` ends the run early. */
  readonly shouldStop?: () => boolean
  /** Called as each unit's verdict arrives (in completion order). */
  readonly onVerdict?: (index: number, verdict: V) => void
}

/** What {@link runUnits} returns: verdicts by unit index (`undefined` for units never run). */
export interface UnitsRun<V> {
  readonly verdicts: readonly (V | undefined)[]
  /** Units that ran. */
  readonly ran: number
  /** Whether `shouldStop` ended the run before every unit was dispatched. */
  readonly stopped: boolean
}

/** Run `units` through `exec`; rejects as soon as any `exec` rejects (a kit error, not a finding). */
export function runUnits<U, V>(units: readonly U[], exec: (unit: U, index: number) => Promise<V>, options: RunUnitsOptions<V>): Promise<UnitsRun<V>> {
  const verdicts: (V | undefined)[] = new Array(units.length).fill(undefined)
  let next = 0
  let inFlight = 0
  let ran = 0
  let stopped = false
  let failed = false
  return new Promise((resolve, reject) => {
    const pump = (): void => {
      if (failed) return
      while (inFlight < options.concurrency && next < units.length) {
        if (options.shouldStop?.()) {
          stopped = true
          break
        }
        const index = next++
        inFlight++
        exec(units[index]!, index).then((verdict) => {
          inFlight--
          ran++
          verdicts[index] = verdict
          options.onVerdict?.(index, verdict)
          pump()
        }, (error: unknown) => {
          failed = true
          reject(error)
        })
      }
      if (inFlight === 0 && (stopped || next >= units.length)) resolve({ verdicts, ran, stopped })
    }
    pump()
  })
}
