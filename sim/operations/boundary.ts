/**
 * The `boundary` operation: operations performed inside an initiator boundary of a live agent
 * (`withInitiator`), each awaited, including unloads of the process's own registry (§8: a boundary
 * that awaits the registry's own disposal must not deadlock it, §9 137–138). Before and after each
 * awaited operation the boundary reads `currentInitiator()` through the registry it was entered in;
 * anything but its agent is marked `boundary lost …` (§9 130, 132). Reads that throw because that
 * registry was disposed meanwhile (a shutdown or restart inside) are the contract's, not a loss.
 * @module
 */
import type { Agent, AgentRegistry } from '../../core/contract.js'
import type { Operation } from '../program/program.js'
import type { OperationResult, WorldHost } from '../world/world-host.js'

/** The mark label prefix of an initiator lost inside a boundary. */
export const BOUNDARY_LOST = 'boundary lost'

/** Perform `ops` inside `withInitiator(agent)`; `perform` runs one nested operation, awaited. */
export async function runBoundary(
  world: WorldHost, session: string, ops: readonly Operation[], perform: (op: Operation, k: number) => Promise<OperationResult>,
): Promise<OperationResult> {
  const agent = world.live(session)
  if (!agent) return { status: 'info', detail: 'not live' }
  const agents = world.ctx.agents
  const generation = world.generation
  const check = (where: string): void => {
    let seen: Agent | undefined
    try {
      seen = agents.currentInitiator()
    } catch {
      return // this registry is disposed (a shutdown or restart inside the boundary)
    }
    if (seen !== agent) world.trace.mark(`${BOUNDARY_LOST} ${where}: currentInitiator() is ${seen ? `"${seen.id}"` : 'undefined'}, expected "${agent.id}"`, generation, { id: session })
  }
  const failures: string[] = []
  await withInitiator(agents, agent, async () => {
    for (const [k, op] of ops.entries()) {
      check(`before #${k} ${op.op}`)
      const result = await perform(op, k)
      if (result.status === 'fail') failures.push(`#${k} ${op.op}: ${result.detail}`)
      check(`after #${k} ${op.op}`)
    }
  })
  return failures.length > 0 ? { status: 'ok', detail: `nested failures: ${failures.join('; ')}` } : { status: 'ok', detail: '' }
}

function withInitiator(agents: AgentRegistry, agent: Agent, body: () => Promise<void>): Promise<void> {
  return agents.withInitiator(agent, body)
}
