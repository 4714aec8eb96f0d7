import type { DirectedCase } from './harness.js'

export const createResumeCases: DirectedCase[] = []
