import type { DirectedCase } from './harness.js'

export const preparePublishCases: DirectedCase[] = []
