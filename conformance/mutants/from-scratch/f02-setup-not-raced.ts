/**
 * f02 — setup is awaited, not raced against the creation abort.
 *
 * Breaks: `awaitSetup` awaits the setup's promise itself. A caller signal, an owner unload or a
 * factory unload during a setup that never settles no longer rejects the creation: the rollback runs
 * (the owner and the factory still tear the lifecycle down) but the public promise stays pending,
 * and a factory unload, which awaits every pending create, never finishes.
 * Violates: AGENT-ATOMIC-TEST 67 (also AGENT-TEARDOWN-TEST 101/102, §3.3 "reject promptly (does not
 * wait for a never-settling setup)").
 * Realistic: `await setup(agent.ctx)` is the obvious line; the race is only needed for a setup that
 * hangs, which ordinary tests never write.
 * @module
 */
import type { AgentSetup, AgentSetupCommit } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchFactory } from '../../../examples/from-scratch-factory/factory.js'
import { mutant, scratchFactory } from './scratch.js'

class SetupNotRaced extends ScratchFactory {
  protected override async awaitSetup(result: ReturnType<AgentSetup>): Promise<void | AgentSetupCommit> {
    return await result // BUG: not raced against lifecycle.aborted
  }
}

export default factoryAdapter(mutant('f02'), (ctx) => scratchFactory(ctx, { factory: SetupNotRaced }))
