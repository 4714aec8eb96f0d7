import type { DirectedCase } from './harness.js'

export const publicInterfaceCases: DirectedCase[] = []
