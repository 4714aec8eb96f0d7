/**
 * The sizes of a run (its program and decision log) that shrinking reduces, and how a report prints
 * their change. Apart from `shrink.ts`, which runs programs, so that a report can print sizes
 * without loading the simulator.
 * @module
 */

/** How a program and its schedule measure, for before/after reports. */
export interface RunSize {
  readonly actors: number
  /** Operations anywhere in the program: actors' lists and those nested in behaviours. */
  readonly operations: number
  /** Listeners, effects, model steps, load behaviours, persisted logs, minting behaviours and setup faults. */
  readonly behaviours: number
  /** Every decision of the log (picks, time advances, random draws). */
  readonly decisions: number
  /** Picks that switched away from an actor that could have continued. */
  readonly preemptions: number
}

/** `before → after` for each measure that changed (and the unchanged ones as one number). */
export function formatSizes(before: RunSize, after: RunSize): string {
  const keys: (keyof RunSize)[] = ['operations', 'actors', 'behaviours', 'decisions', 'preemptions']
  return keys.map((k) => (before[k] === after[k] ? `${k} ${after[k]}` : `${k} ${before[k]} → ${after[k]}`)).join(', ')
}
