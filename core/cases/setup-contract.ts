import type { DirectedCase } from './harness.js'

export const setupContractCases: DirectedCase[] = []
