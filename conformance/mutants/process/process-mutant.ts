/**
 * Process mutants: the kit's own process (`kitProcess` over the reference factory) with one method
 * of its session store, agent registry, initiator scope, sessions or inboxes changed. Each is a
 * *process* adapter, so the suite checks it the way it checks a foreign runtime: only through the
 * process port (directed cases, programs, checkers), never through the kit's unit tests.
 * @module
 */
import type { Agent, Inbox, Session } from '../../../core/contract.js'
import { installReferenceFactory } from '../../../core/factory/reference-factory.js'
import { kitProcess } from '../../../core/process.js'
import type { ProcessFactory } from '../../../core/process.js'
import type { Root } from '../../../core/root.js'
import type { Adapter } from '../../adapters/adapter.js'

/** What a mutant may change in one booted process. */
export interface ProcessParts {
  readonly root: Root
  /** The registry instance (`ctx.agents` of every context delegates to it). */
  readonly registry: Root['registry']
  /** The session store instance (`ctx.sessions` of every context delegates to it). */
  readonly store: Root['store']
  /** The registry's initiator scope. */
  readonly initiator: Root['registry']['initiator']
  /** Called with every session the store prepares (a mutant changes its instance). */
  onSession(patch: (session: Session) => void): void
  /** Called with every agent's inbox when the agent enters the registry (a mutant changes its instance). */
  onInbox(patch: (inbox: Inbox, agent: Agent) => void): void
}

/** The capabilities the kit's process honours (a process mutant declares them like any process adapter). */
const KIT_SUPPORTS = { queue: true, scopeMinting: true, preparations: true, noPersistence: true, warnings: true, agentEvents: true, effectLabels: true, crash: true } as const

/** A process adapter: the kit's process with `mutate` applied to each booted process. */
export function processMutant(meta: { name: string; reproduces: string }, mutate: (parts: ProcessParts) => void): Adapter {
  const base = kitProcess((ctx) => installReferenceFactory(ctx))
  const boot: ProcessFactory = async (services) => {
    const handle = await base(services)
    const root = handle.root!
    const sessionPatches: ((session: Session) => void)[] = []
    const inboxPatches: ((inbox: Inbox, agent: Agent) => void)[] = []
    const prepare = root.store.prepare.bind(root.store)
    root.store.prepare = (id, options) => {
      const session = prepare(id, options)
      for (const patch of sessionPatches) patch(session)
      return session
    }
    const enter = root.registry.enter.bind(root.registry)
    root.registry.enter = (agent, owner) => {
      const detach = enter(agent, owner)
      if (agent.inbox) for (const patch of inboxPatches) patch(agent.inbox, agent)
      return detach
    }
    mutate({
      root, registry: root.registry, store: root.store, initiator: root.registry.initiator,
      onSession: (patch) => { sessionPatches.push(patch) },
      onInbox: (patch) => { inboxPatches.push(patch) },
    })
    return handle
  }
  return { name: meta.name, version: '0.1.0', reproduces: meta.reproduces, supports: KIT_SUPPORTS, process: boot }
}
