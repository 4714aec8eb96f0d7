import type { DirectedCase } from './harness.js'

export const runtimeScopeCases: DirectedCase[] = []
