/**
 * A CPU-heavy factory for the workers benchmark (`workers.ts`): the from-scratch example factory,
 * each `createAgent` first computing for about 3 ms (a fixed number of multiply-xor rounds; the
 * result is kept, so the work is not optimized away, and nothing it computes reaches the run). Its
 * runs cost the worker threads far more than the thread that feeds them, as a real agent loop's
 * would, so it shows how a campaign scales with its workers when the code under test is the cost.
 *
 *     npm run build && npx dsh-kit fuzz --adapter dist/bench/heavy-factory.js --runs 2000 --workers 2
 * @module
 */
import type { AgentHandle, CreateAgentOptions, OwnerContext } from '../core/contract.js'
import { factoryAdapter } from '../conformance/adapters/adapter.js'
import { ScratchFactory } from '../examples/from-scratch-factory/factory.js'

/** Rounds of one create's computation: about 3 ms of one core of the 2-core VM the benchmarks ran on. */
export const ROUNDS_PER_CREATE = 2_600_000

let kept = 0

/** `rounds` multiply-xor rounds (FNV-style), folded into {@link kept}. */
export function compute(rounds: number): number {
  let h = 0x811c9dc5 | 0
  for (let i = 0; i < rounds; i++) h = Math.imul(h ^ i, 16_777_619)
  kept ^= h
  return kept
}

/** The example factory, each create computing first. */
class HeavyFactory extends ScratchFactory {
  override createAgent(ownerCtx: OwnerContext, options: CreateAgentOptions): Promise<AgentHandle> {
    compute(ROUNDS_PER_CREATE)
    return super.createAgent(ownerCtx, options)
  }
}

export default factoryAdapter(
  { name: 'heavy from-scratch-factory', version: '0.1.0', supports: { queue: true } },
  (pluginCtx) => new HeavyFactory(pluginCtx),
)
