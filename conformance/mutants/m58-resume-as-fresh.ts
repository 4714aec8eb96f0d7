/**
 * Mutant for catalog M58 (persistence/resume): resuming an exact persisted id recreates it fresh.
 *
 * Bug: `loadPreparation` never consults the persistence: it prepares a brand-new empty session
 * with the requested id. Resume "succeeds", but the persisted history, the turn numbering and the
 * pending inbox items are gone, and the next writes conflict with the persisted record (violates
 * P-REPLAY, §3.1 R3, §9 43/44/47).
 */
import type { OwnerContext, SessionPreparation } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import { creationAbortReason, fiberDying, ReferenceFactory } from '../../core/factory/reference-factory.js'
import { referenceAdapter } from '../adapters/adapter.js'

export default referenceAdapter(
  { name: 'mutant:m58-resume-as-fresh', version: '0.1.0', reproduces: 'M58: resume of a persisted exact id creates a fresh session' },
  class extends ReferenceFactory {
    protected override async loadPreparation(ownerCtx: OwnerContext, id: string, signal: AbortSignal | undefined): Promise<SessionPreparation> {
      if (fiberDying(ownerCtx.fiber)) throw new Error(ERRORS.inactiveContext)
      if (!this.active) throw new Error(ERRORS.loopInactive)
      if (signal?.aborted) throw creationAbortReason(id, signal.reason)
      // BUG: a fresh session instead of the persisted one.
      const session = ownerCtx.sessions.prepare(id)
      return { session, [Symbol.dispose]() { /* nothing held */ } }
    }
  },
)
