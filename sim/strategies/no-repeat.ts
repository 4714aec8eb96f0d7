/**
 * No-repeat exploration: the runs of other strategies, steered so that no schedule of one program
 * is run twice.
 *
 * Random and PCT schedules of a small program repeat: they over-sample the likeliest schedules, and
 * a program with six schedules in all gets the same ones again and again (in a quick certification,
 * about a third of the directed programs' runs repeated an earlier run's decisions exactly). This
 * strategy keeps a tree of the decisions its runs made (a pick's index among the pending points, a
 * random draw's value) and marks a subtree exhausted once every schedule in it has run. At each
 * decision it asks the run's own strategy first and takes its answer unless that leads into an
 * exhausted subtree; then it takes the nearest option after it that does not. So every run ends at
 * a schedule no earlier run made, and once the whole tree is exhausted `beginRun()` says so.
 *
 * It needs a deterministic program and code under test: the same prefix must offer the same
 * options. When a run does not (a different number of options where the tree has recorded one, or
 * a choice where an earlier run ended), the tree cannot be trusted and the strategy stops steering:
 * its later runs are the inner strategies' own.
 * @module
 */
import { notInRun, type PendingPoint, type PickContext, type Strategy } from './strategy.js'

/** Options of {@link noRepeat}. */
export interface NoRepeatOptions {
  /** The strategy of run `k` (from 0), not yet begun: its choices are the ones steered. */
  readonly strategyOf: (k: number) => Strategy
  /** Runs at most (fewer when the program has fewer schedules). */
  readonly maxRuns: number
}

/** A decision point of the tree: how many options it offered, and the subtrees tried. */
interface TrieNode {
  /** Options offered here; 0 where a run ended. */
  n: number
  /** Subtrees tried, by option. */
  readonly children: Map<number, TrieNode>
  /** Children whose subtrees are exhausted. */
  exhaustedChildren: number
  exhausted: boolean
}

const newNode = (n: number): TrieNode => ({ n, children: new Map(), exhaustedChildren: 0, exhausted: false })

/** The strategy, with which run it is on (from 0). */
export interface NoRepeatStrategy extends Strategy {
  /** The index of the current (or last) run, from 0; -1 before the first. */
  readonly run: number
  /** Whether a run did not fit the tree (the program or the code under test is not deterministic). */
  readonly diverged: boolean
}

/**
 * Run `strategyOf(0)`, `strategyOf(1)`, … each once, steering each run away from the schedules the
 * earlier runs made, until `maxRuns` runs or until every schedule of the program has run.
 */
export function noRepeat(options: NoRepeatOptions): NoRepeatStrategy {
  if (!Number.isInteger(options.maxRuns) || options.maxRuns < 1) throw new RangeError(`noRepeat: maxRuns must be an integer >= 1, got ${String(options.maxRuns)}`)
  const root = newNode(-1) // -1: its options are not known until the first decision
  let inner: Strategy | undefined
  let cursor = root
  const path: TrieNode[] = []

  /** The option to take at the cursor: the inner strategy's `wanted`, or the nearest one after it with schedules left. */
  const steer = (n: number, wanted: number): number => {
    if (strategy.diverged) return wanted
    const node = cursor
    if (node.n === -1) node.n = n
    else if (node.n !== n) {
      strategy.diverged = true
      return wanted
    }
    let choice = wanted
    let child: TrieNode | undefined
    for (let i = 0; i < n; i++) {
      const option = (wanted + i) % n
      const tried = node.children.get(option)
      if (tried?.exhausted !== true) {
        choice = option
        child = tried
        break
      }
    }
    child ??= node.children.get(choice) // (every option exhausted cannot happen at a node that is not)
    if (child === undefined) {
      child = newNode(-1)
      node.children.set(choice, child)
    }
    path.push(node)
    cursor = child
    return choice
  }

  /** Mark the schedule just run exhausted, and every ancestor all of whose subtrees now are. */
  const exhaustPath = (): void => {
    if (cursor.n > 0 || cursor.exhausted) {
      strategy.diverged = true // the run ended where an earlier one went on, or at a schedule already run
      return
    }
    cursor.n = 0
    cursor.exhausted = true
    for (let i = path.length - 1; i >= 0; i--) {
      const node = path[i]!
      node.exhaustedChildren++
      if (node.exhaustedChildren < node.n) return
      node.exhausted = true
    }
  }

  // `name` is a plain property updated per run: see NAME_IS_DATA in strategy.ts.
  const strategy = {
    name: 'no-repeat',
    seed: undefined as string | undefined,
    run: -1,
    diverged: false,
    beginRun() {
      if (strategy.run + 1 >= options.maxRuns || (root.exhausted && !strategy.diverged)) return false
      const next = options.strategyOf(strategy.run + 1)
      if (!next.beginRun()) return false
      strategy.run++
      inner = next
      strategy.name = `no-repeat ${next.name}`
      strategy.seed = next.seed
      cursor = root
      path.length = 0
      return true
    },
    pick(pending: readonly PendingPoint[], ctx: PickContext) {
      if (inner === undefined) throw notInRun('no-repeat', 'pick')
      return steer(pending.length, inner.pick(pending, ctx))
    },
    random(n: number) {
      if (inner === undefined) throw notInRun('no-repeat', 'random')
      return steer(n, inner.random(n))
    },
    advanceTime(at: number) {
      inner?.advanceTime?.(at)
    },
    endRun() {
      if (inner === undefined) return
      inner.endRun?.()
      inner = undefined
      if (!strategy.diverged) exhaustPath()
    },
  }
  return strategy
}
