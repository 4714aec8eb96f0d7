/**
 * Mutant A15 (teardown, spec-derived from §12 Q4): a teardown requested from inside an append
 * observer rejects.
 *
 * Bug: a teardown requested from inside a `session/event` observer while work is pending cannot
 * clear the inbox at once (the clear would reenter the append); it defers the clear and completes
 * every step — and then reports the first clear's failure to its callers: `handle.dispose()`
 * rejects with `session append cannot reenter …` although the agent is fully torn down (violates
 * §12 Q4, §1.6, §9 112: a requested teardown resolves). Only a teardown from inside an append
 * observer with work pending reaches it.
 */
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction, TeardownTrigger } from '../../core/factory/transaction.js'
import type { ReferenceAgent } from '../../core/agent.js'
import { referenceAdapter } from '../adapters/adapter.js'

/** The failure of each teardown's first clear. */
const failures = new WeakMap<Transaction, unknown>()

export default referenceAdapter(
  { name: 'mutant:a15-teardown-rethrows-deferred-clear', version: '0.1.0', reproduces: 'A15: a teardown requested from inside an append observer rejects with the deferred clear\'s failure' },
  class extends ReferenceFactory {
    protected override cancelForTeardown(tx: Transaction, agent: ReferenceAgent, keepInbox: boolean): void {
      try {
        super.cancelForTeardown(tx, agent, keepInbox)
      } catch (error) {
        failures.set(tx, error)
        throw error
      }
    }

    protected override release(tx: Transaction, trigger: TeardownTrigger): void {
      super.release(tx, trigger)
      // BUG: every step ran, yet the teardown reports the deferred clear's first failure.
      if (failures.has(tx)) throw failures.get(tx)
    }
  },
)
