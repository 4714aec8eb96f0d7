/**
 * V8 tiering for the kit's workload, set before the kit's modules run (`main.ts` imports this
 * first). A campaign's hot functions (the checkers, the trace analysis, the world's operations)
 * meet new object shapes for thousands of runs: trace entries of kinds only rare runs record.
 * Optimized early, on the shapes of the first few runs, they deoptimize at each new one and are
 * recompiled, and a checker is a large function to recompile. Waiting for 16 times V8's default
 * interrupt budget before optimizing lets their type feedback settle first; functions that stay
 * hot (an adapter's own included) are still optimized. On the 2-core VM, `certify --profile quick`
 * took about half the CPU with it; 4, 8, 16 and 32 times were tried, past 16 nothing more was
 * gained. Measured in `bench/` (RESULTS §7). A long `fuzz` campaign (thousands of seeds per worker)
 * is the exception: there its hot functions have met nearly every shape early, and a lower budget
 * (8 times, 2 times from 6,000 seeds per worker) costs less CPU (`interrupt-budget.ts`); `fuzz` sets
 * it before its workers start.
 *
 * V8 flags are the process's, so this applies to the worker threads too. The kit as a library
 * (`runCampaign`, `certify`, the vitest face) leaves the user's process as it is.
 * @module
 */
import { setFlagsFromString } from 'node:v8'
import { campaignInterruptBudget, KIT_INTERRUPT_BUDGET } from './interrupt-budget.js'

/** Whether this process tunes V8 (V8 11, and `DSH_KIT_V8_DEFAULTS` not set). */
const TUNED = process.versions.v8.startsWith('11.') && process.env.DSH_KIT_V8_DEFAULTS === undefined

/**
 * Set the budget for a campaign about to start its workers ({@link campaignInterruptBudget}); the
 * workers' isolates, made afterwards, start with it. A no-op where this module tunes nothing.
 */
export function tuneForCampaign(seedsPerWorker: number): void {
  if (TUNED) setFlagsFromString(`--interrupt-budget=${campaignInterruptBudget(seedsPerWorker)}`)
}

/**
 * The young generation's starting size, in MB per semi-space: V8's default maximum, where it starts
 * at 1 MB and grows only as survival rates ask. A run allocates about half a megabyte and keeps
 * almost none of it, so a worker scavenged about 40 times in a quick certification, most of them
 * while the young generation was still small. From the start at 16 MB: about 25 scavenges, and
 * `certify --profile quick` 0.05 s wall and 0.1 s CPU less on the 2-core VM (8 alternating pairs),
 * fuzz about 1% less CPU, for about 15 MB more peak memory per process. Flags set here reach the
 * worker threads (their heaps are made later); the main thread's heap is already made.
 */
export const KIT_MIN_SEMI_SPACE_MB = 16

// Later V8s (Node 22's 12.4) tier up by other flags: they are left as they are. DSH_KIT_V8_DEFAULTS
// (any value) keeps V8's defaults, to compare.
if (TUNED) {
  setFlagsFromString(`--interrupt-budget=${KIT_INTERRUPT_BUDGET}`)
  setFlagsFromString(`--min-semi-space-size=${KIT_MIN_SEMI_SPACE_MB}`)
}
