/**
 * Mutant for appendix A7 (publication): aborting the creation-only signal after the handle was
 * returned tears down the live agent.
 *
 * Bug: `begin` attaches a caller-signal listener that it does not hand to the transaction's
 * stop-listening list, and that listener also starts the teardown once the agent is published.
 * Aborting the signal after create resolved disposes the live agent (violates §3.3 last row,
 * §9 68).
 */
import type { AgentOptions, OwnerContext } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import { validateAgentOptions } from '../../core/agent.js'
import { creationAbortReason, fiberDying, ReferenceFactory } from '../../core/factory/reference-factory.js'
import { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:a7-signal-after-return-tears-down', version: '0.1.0', reproduces: 'A7: aborting the creation signal after return tears down the agent' },
  class extends ReferenceFactory {
    protected override begin(ownerCtx: OwnerContext, id: string, source: 'startup' | 'resume', options: { agentOptions?: AgentOptions; signal?: AbortSignal }): Transaction {
      validateAgentOptions(options.agentOptions)
      if (fiberDying(ownerCtx.fiber)) throw new Error(ERRORS.inactiveContext)
      if (!this.active) throw new Error(ERRORS.loopInactive)
      const signal = options.signal
      if (signal?.aborted) throw creationAbortReason(id, signal.reason)
      const tx = new Transaction(id, ownerCtx, source)
      if (signal) {
        // BUG: never removed, and it controls the live agent too.
        signal.addEventListener('abort', () => {
          if (tx.published) void this.teardown(tx, 'handle')
          else tx.abort(creationAbortReason(id, signal.reason))
        })
      }
      const onFactory = (): void => tx.abort(this.factorySignal.signal.reason)
      this.factorySignal.signal.addEventListener('abort', onFactory)
      tx.onStopListening(() => this.factorySignal.signal.removeEventListener('abort', onFactory))
      this.tracked.add(tx)
      tx.ownerEffect = ownerCtx.effect(
        () => () => (tx.ownerEffectRetired ? undefined : this.ownerUnloading(tx)),
        `agentLoop.lifecycle(${id})`,
      )
      return tx
    }
  },
)
