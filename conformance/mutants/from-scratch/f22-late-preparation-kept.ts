/**
 * f22 — a resume that lost its load's race never releases the preparation that arrives later.
 *
 * Breaks: when the caller's signal, the owner's unload or the factory's unload ends a resume while
 * `persistence.prepare` is still loading, the factory rejects promptly (right) but drops the load's
 * promise: the preparation it yields later is never disposed, so whatever the persistence holds for it
 * (a lock, a file handle, a reservation of the id) leaks.
 * Violates: AGENT-CREATE-RESUME 50 (the late preparation, when it arrives, is released and publishes
 * nothing; §3.1 R3, §1.4 "disposal MUST happen after publication or rollback").
 * Realistic: the race was lost and the caller already has its rejection; a result nobody awaits is
 * easy to forget, and nothing is published either way.
 * @module
 */
import type { SessionPreparation } from 'dsh-lifecycle-kit'
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchFactory } from '../../../examples/from-scratch-factory/factory.js'
import { mutant, scratchFactory } from './scratch.js'

class LatePreparationKept extends ScratchFactory {
  protected override releaseLate(arriving: Promise<SessionPreparation>): void {
    arriving.catch(() => undefined) // BUG: R3's release is missing
  }
}

export default factoryAdapter(mutant('f22'), (ctx) => scratchFactory(ctx, { factory: LatePreparationKept }))
