import type { DirectedCase } from './harness.js'

export const xCancelCases: DirectedCase[] = []
