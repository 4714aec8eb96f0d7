/**
 * Directed conformance cases: §9 properties about factory behaviour, written against the public
 * contract only and parameterised by the factory, so the conformance suite runs the same cases
 * against any implementation.
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

export * from './harness.js'

/** Every directed case, in §9 order of clause numbers. */
export const DIRECTED_CASES: readonly DirectedCase[] = [
  ...factorySeamCases, ...publicInterfaceCases, ...runtimeScopeCases, ...setupContractCases, ...createResumeCases,
  ...preparePublishCases, ...atomicCases, ...teardownCases, ...inboxCases, ...initiatorCases, ...xCancelCases, ...xInputCases,
].sort((a, b) => a.clause - b.clause)
