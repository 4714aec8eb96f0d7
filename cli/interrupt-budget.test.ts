import { describe, expect, it } from 'vitest'
import {
  campaignInterruptBudget, DEFAULT_INTERRUPT_BUDGET, KIT_INTERRUPT_BUDGET, LONG_CAMPAIGN_INTERRUPT_BUDGET, LONG_CAMPAIGN_SEEDS_PER_WORKER, LONG_CAMPAIGN_TIME_MS,
  LONGER_CAMPAIGN_INTERRUPT_BUDGET, LONGER_CAMPAIGN_SEEDS_PER_WORKER, plannedSeedsPerWorker,
} from './interrupt-budget.js'

describe('the interrupt budget a campaign runs with', () => {
  it('optimizes sooner only from a long campaign on: certify and short campaigns keep the kit budget', () => {
    expect(LONG_CAMPAIGN_INTERRUPT_BUDGET).toBeLessThan(KIT_INTERRUPT_BUDGET)
    expect(LONG_CAMPAIGN_INTERRUPT_BUDGET).toBeGreaterThan(DEFAULT_INTERRUPT_BUDGET)
    expect(campaignInterruptBudget(0)).toBe(KIT_INTERRUPT_BUDGET)
    expect(campaignInterruptBudget(LONG_CAMPAIGN_SEEDS_PER_WORKER - 1)).toBe(KIT_INTERRUPT_BUDGET)
    expect(campaignInterruptBudget(LONG_CAMPAIGN_SEEDS_PER_WORKER)).toBe(LONG_CAMPAIGN_INTERRUPT_BUDGET)
  })

  it('optimizes sooner still the longer a campaign runs, never as soon as V8 by default', () => {
    expect(LONGER_CAMPAIGN_SEEDS_PER_WORKER).toBeGreaterThan(LONG_CAMPAIGN_SEEDS_PER_WORKER)
    expect(LONGER_CAMPAIGN_INTERRUPT_BUDGET).toBeLessThan(LONG_CAMPAIGN_INTERRUPT_BUDGET)
    expect(LONGER_CAMPAIGN_INTERRUPT_BUDGET).toBeGreaterThan(DEFAULT_INTERRUPT_BUDGET)
    expect(campaignInterruptBudget(LONGER_CAMPAIGN_SEEDS_PER_WORKER - 1)).toBe(LONG_CAMPAIGN_INTERRUPT_BUDGET)
    expect(campaignInterruptBudget(LONGER_CAMPAIGN_SEEDS_PER_WORKER)).toBe(LONGER_CAMPAIGN_INTERRUPT_BUDGET)
    expect(campaignInterruptBudget(Number.POSITIVE_INFINITY)).toBe(LONGER_CAMPAIGN_INTERRUPT_BUDGET)
  })

  it('plans a fuzz campaign\'s seeds per worker from --runs, or from a long --time budget', () => {
    expect(plannedSeedsPerWorker({ runs: 6_000, workers: 2, timeMs: undefined })).toBe(3_000)
    expect(plannedSeedsPerWorker({ runs: undefined, workers: 2, timeMs: LONG_CAMPAIGN_TIME_MS })).toBe(Number.POSITIVE_INFINITY)
    expect(plannedSeedsPerWorker({ runs: undefined, workers: 2, timeMs: LONG_CAMPAIGN_TIME_MS - 1 })).toBe(0)
    expect(plannedSeedsPerWorker({ runs: undefined, workers: 1, timeMs: undefined })).toBe(0)
  })
})
