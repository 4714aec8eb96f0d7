/**
 * f06 — a second create of an id already being created is refused before its setup.
 *
 * Breaks: the factory keeps the ids of its pending creates and rejects another create of the same id
 * at once with `session "<id>" already exists`, instead of letting both run setup and leaving the
 * arbitration to the registries' `enter` (§3.5 row L, §4 step 3). Only one setup ever starts, and a
 * second create made while the first is pending fails even when the first then fails itself.
 * Violates: AGENT-ATOMIC-TEST 63 (two concurrent same-id creates can both enter setup).
 * Realistic: an early guard saves a wasted setup and gives the loser the right error text; the
 * contract's point that the arbitration happens at enter, not at call time, is easy to miss.
 * @module
 */
import { ERRORS } from 'dsh-lifecycle-kit'
import type { AgentHandle, CreateAgentOptions, OwnerContext } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchFactory } from '../../../examples/from-scratch-factory/factory.js'
import { mutant, scratchFactory } from './scratch.js'

class SameIdRefusedEarly extends ScratchFactory {
  readonly #creating = new Set<string>()

  override createAgent(ownerCtx: OwnerContext, options: CreateAgentOptions): Promise<AgentHandle> {
    const id = options.sessionId
    if (this.#creating.has(id)) return Promise.reject(new Error(ERRORS.sessionExists(id))) // BUG
    this.#creating.add(id)
    const created = super.createAgent(ownerCtx, options)
    const settled = (): void => { this.#creating.delete(id) }
    created.then(settled, settled)
    return created
  }
}

export default factoryAdapter(mutant('f06'), (ctx) => scratchFactory(ctx, { factory: SameIdRefusedEarly }))
