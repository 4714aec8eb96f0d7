import type { DirectedCase } from './harness.js'

export const inboxCases: DirectedCase[] = []
