import type { DirectedCase } from './harness.js'

export const xInputCases: DirectedCase[] = []
