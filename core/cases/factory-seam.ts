import type { DirectedCase } from './harness.js'

export const factorySeamCases: DirectedCase[] = []
