/**
 * Replay: follow a recorded decision log exactly, and say precisely where and
 * why it no longer fits the code.
 * @module
 */
import { describeDecision, type DecisionLog } from '../trace/decision-log.js'
import { notInRun, type PendingPoint, type Strategy } from './strategy.js'

/**
 * A recorded log does not fit the run being replayed: the code, the program or
 * the environment changed since the log was recorded.
 */
export class ReplayDivergenceError extends Error {
  override readonly name = 'ReplayDivergenceError'

  constructor(
    /** Index in `log.decisions` of the decision that did not fit. */
    readonly index: number,
    /** That decision, described (`"a1:create"`, `random(3)=1`, `time@30`), or `undefined` when the log had run out. */
    readonly expected: string | undefined,
    /** What the run did instead, e.g. `pending are ["a2:create@setup.1", "timer@30"]`. */
    readonly actual: string,
  ) {
    super(`replay diverged at decision ${index}: ${expected === undefined ? 'the log has ended' : `log expects ${expected}`} but ${actual}`)
  }
}

const pendingLabels = (pending: readonly PendingPoint[]): string => `pending are [${pending.map((p) => JSON.stringify(p.label)).join(', ')}]`

/**
 * Follow `log`: each pick proceeds with the pending point whose label is the
 * log's next pick label, each random draw returns the logged value, and each
 * time advance must be the logged one. Runs exactly once.
 *
 * @throws ReplayDivergenceError at the first decision where the run and the
 *   log disagree, including a log that ends while the run goes on and a run
 *   that ends while the log goes on.
 */
export function replay(log: DecisionLog): Strategy {
  const { decisions } = log
  let next = 0
  let begun = false
  let active = false

  const expected = (): string | undefined => {
    const d = decisions[next]
    return d === undefined ? undefined : describeDecision(d)
  }

  return {
    name: `replay of ${log.strategy}`,
    ...(log.seed === undefined ? {} : { seed: log.seed }),
    beginRun() {
      if (begun) return false
      begun = true
      active = true
      return true
    },
    pick(pending: readonly PendingPoint[]) {
      if (!active) throw notInRun('replay', 'pick')
      const d = decisions[next]
      if (d !== undefined && d.kind === 'pick') {
        for (let i = 0; i < pending.length; i++) {
          if (pending[i]!.label === d.label) {
            next++
            return i
          }
        }
      }
      throw new ReplayDivergenceError(next, expected(), pendingLabels(pending))
    },
    random(n: number) {
      if (!active) throw notInRun('replay', 'random')
      const d = decisions[next]
      if (d !== undefined && d.kind === 'random' && d.n === n) {
        next++
        return d.value
      }
      throw new ReplayDivergenceError(next, expected(), `the run draws random(${n})`)
    },
    advanceTime(at: number) {
      const d = decisions[next]
      if (d !== undefined && d.kind === 'time' && d.at === at) {
        next++
        return
      }
      throw new ReplayDivergenceError(next, expected(), `nothing is pending and the run advances time to ${at}`)
    },
    endRun() {
      active = false
      if (next < decisions.length) throw new ReplayDivergenceError(next, expected(), 'the run has ended')
    },
  }
}
