import { describe, expect, it } from 'vitest'
import { campaignInterruptBudget, DEFAULT_INTERRUPT_BUDGET, KIT_INTERRUPT_BUDGET, LONG_CAMPAIGN_INTERRUPT_BUDGET, LONG_CAMPAIGN_SEEDS_PER_WORKER } from './interrupt-budget.js'

describe('the interrupt budget a campaign runs with', () => {
  it('optimizes sooner only from a long campaign on: certify and short campaigns keep the kit budget', () => {
    expect(LONG_CAMPAIGN_INTERRUPT_BUDGET).toBeLessThan(KIT_INTERRUPT_BUDGET)
    expect(LONG_CAMPAIGN_INTERRUPT_BUDGET).toBeGreaterThan(DEFAULT_INTERRUPT_BUDGET)
    expect(campaignInterruptBudget(0)).toBe(KIT_INTERRUPT_BUDGET)
    expect(campaignInterruptBudget(LONG_CAMPAIGN_SEEDS_PER_WORKER - 1)).toBe(KIT_INTERRUPT_BUDGET)
    expect(campaignInterruptBudget(LONG_CAMPAIGN_SEEDS_PER_WORKER)).toBe(LONG_CAMPAIGN_INTERRUPT_BUDGET)
    expect(campaignInterruptBudget(Number.POSITIVE_INFINITY)).toBe(LONG_CAMPAIGN_INTERRUPT_BUDGET)
  })
})
