/**
 * The labels of the marks gates and persistence preparations leave (a program's `openGate` and what waits on it: `wait` actions,
 * gated loads and preparation hand-overs), which the liveness checker reads: a run that deadlocks
 * while a gate it waits on was never opened hung by the program's own choice.
 * @module
 */

/** Every gate mark starts with this: `gate:<name> wait <who>` or `gate:<name> open`. */
export const GATE_MARK = 'gate:'

/** The gates a run waited on and never opened, from its marks' labels. */
export function closedGates(labels: Iterable<string>): string[] {
  const waited = new Set<string>()
  const opened = new Set<string>()
  for (const label of labels) {
    if (!label.startsWith(GATE_MARK)) continue
    const m = /^gate:(.*?) (wait|open)(?: |$)/.exec(label)
    if (!m) continue
    ;(m[2] === 'wait' ? waited : opened).add(m[1]!)
  }
  return [...waited].filter((g) => !opened.has(g)).sort()
}

/**
 * Every preparation mark starts with this (programs with `env.preparations`):
 * `prepare:<id>#<n> handed out`, `… arrived`, `… released`.
 */
export const PREPARATION_MARK = 'prepare:'
