/**
 * f04 — a failed creation rejects before its rollback settled.
 *
 * Breaks: `rollback` starts the teardown and returns at once, so a setup that throws, a throwing
 * `commit()`, a vetoing `session/created` or `agent/created` listener, a same-id loss or an owner
 * unload rejects the public promise while the scope is still being disposed and the entries are still
 * in the registries: a caller retrying the same id at once finds it taken.
 * Violates: AGENT-TEARDOWN-TEST 95 (retry works; also AGENT-SETUP-CONTRACT 39/40, §3.5 "rows E–O reject
 * only after teardown settles").
 * Realistic: "fire the cleanup and report the error" is the usual shape of a catch block; the
 * ordering only shows when the caller acts on the rejection at once.
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchFactory } from '../../../examples/from-scratch-factory/factory.js'
import type { Lifecycle } from '../../../examples/from-scratch-factory/lifecycle.js'
import { mutant, scratchFactory } from './scratch.js'

class RollbackNotAwaited extends ScratchFactory {
  protected override rollback(lifecycle: Lifecycle): Promise<void> {
    void lifecycle.teardown() // BUG: the rejection does not wait for it
    return Promise.resolve()
  }
}

export default factoryAdapter(mutant('f04'), (ctx) => scratchFactory(ctx, { factory: RollbackNotAwaited }))
