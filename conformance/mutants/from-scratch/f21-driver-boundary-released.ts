/**
 * f21 — the driver's initiator boundary returns before the driver ends.
 *
 * Breaks: the driver is started inside `withInitiator(agent, …)` but the operation does not return
 * the driver's promise (`() => { void drive() }`). The driver's continuations still read the agent as
 * initiator (the async context is inherited), but the registry counts the boundary as released at
 * once: a registry drain during shutdown or restart does not wait for a running driver, and the old
 * process's scope is disabled under it.
 * Violates: AGENT-INITIATOR-DRAIN 141 (registry restart drains the old driver before disabling the old
 * scope; §8 "AgentLoop wraps each driver's whole lifetime", "only returned-Promise boundaries are
 * tracked").
 * Realistic: fire-and-forget is how a driver is usually started, and the initiator still reads
 * correctly everywhere a test looks.
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import { mutant, scratchFactory } from './scratch.js'

class DriverBoundaryReleased extends ScratchAgent {
  protected override runDriver(drive: () => Promise<void>): void {
    this.ctx.agents.withInitiator(this, () => { void drive() }) // BUG: the boundary does not hold the driver
  }
}

export default factoryAdapter(mutant('f21'), (ctx) => scratchFactory(ctx, { agent: DriverBoundaryReleased }))
