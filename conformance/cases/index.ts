/**
 * Directed conformance cases: every §9 property as a gated test, written against the public
 * contract and run through the process port, so the conformance suite runs the same cases on the
 * kit's process with any factory and on any foreign runtime.
 */
import { atomicCases } from './atomic.js'
import { createResumeCases } from './create-resume.js'
import { factorySeamCases } from './factory-seam.js'
import type { DirectedCase } from './harness.js'
import { inboxCases } from './inbox.js'
import { initiatorCases } from './initiator.js'
import { preparePublishCases } from './prepare-publish.js'
import { publicInterfaceCases } from './public-interface.js'
import { runtimeScopeCases } from './runtime-scope.js'
import { setupContractCases } from './setup-contract.js'
import { teardownCases } from './teardown.js'
import { xCancelCases } from './x-cancel.js'
import { xInputCases } from './x-input.js'
import { registrySplitCases } from './registry-split.js'
import { sessionStoreCases } from './session-store.js'
import { inboxOpsCases } from './inbox-ops.js'
import { inboxLiveReplayCases } from './inbox-live-replay.js'
import { initiatorScopeCases } from './initiator-scope.js'
import { sessionCases } from './sessions.js'

export * from './harness.js'

/** Every directed case, in §9 order of clause numbers. */
export const DIRECTED_CASES: readonly DirectedCase[] = [
  ...factorySeamCases, ...publicInterfaceCases, ...runtimeScopeCases, ...setupContractCases, ...createResumeCases,
  ...preparePublishCases, ...atomicCases, ...teardownCases, ...inboxCases, ...initiatorCases, ...xCancelCases, ...xInputCases,
  ...registrySplitCases, ...sessionStoreCases, ...inboxOpsCases, ...inboxLiveReplayCases, ...initiatorScopeCases, ...sessionCases,
].sort((a, b) => a.clause - b.clause)
