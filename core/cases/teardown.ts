import type { DirectedCase } from './harness.js'

export const teardownCases: DirectedCase[] = []
