import type { DirectedCase } from './harness.js'

export const initiatorCases: DirectedCase[] = []
