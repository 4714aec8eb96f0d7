/**
 * f08 — an owner unload that comes after another owner started the teardown does not wait for it.
 *
 * Breaks: the owner fiber's lifecycle effect returns at once when the teardown already began (a
 * `handle.dispose()` or the factory's unload got there first), so the owner's unload resolves while
 * the agent is still converging and both registries still hold it.
 * Violates: AGENT-TEARDOWN-TEST 98 (`handle.dispose()` concurrent with owner unload: each resolves only
 * after `agent/disposed` and both ids are gone; §11 D17, §5.2).
 * Realistic: it is upstream's own behaviour (§11 D17: "its effect body returns early to avoid
 * self-wait"), the natural guard against an effect awaiting the teardown that is removing it.
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { Lifecycle } from '../../../examples/from-scratch-factory/lifecycle.js'
import { mutant, scratchFactory } from './scratch.js'

class OwnerSkipsRunningTeardown extends Lifecycle {
  #began = false

  override teardown(): Promise<void> {
    this.#began = true
    return super.teardown()
  }

  protected override ownerUnloaded(): Promise<void> | undefined {
    return this.#began ? undefined : super.ownerUnloaded() // BUG: a later owner does not join
  }
}

export default factoryAdapter(mutant('f08'), (ctx) => scratchFactory(ctx, { lifecycle: OwnerSkipsRunningTeardown }))
