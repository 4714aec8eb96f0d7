/**
 * What the mutants of this gallery share: the from-scratch example's factory
 * (`examples/from-scratch-factory/`) with one part swapped for a subclass that carries the bug.
 * The example's protected members are the seams; a mutant overrides one of them (or a public
 * method) and nothing else, so each module shows its bug and no copy of the example.
 * @module
 */
import type { AgentOptions, Context, OwnerContext, Session } from 'dsh-lifecycle-kit'
import type { Supports } from 'dsh-lifecycle-kit/conformance'
import { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import { ScratchFactory } from '../../../examples/from-scratch-factory/factory.js'
import type { InboxListener, SplicedInbox } from '../../../examples/from-scratch-factory/inbox.js'
import { Lifecycle } from '../../../examples/from-scratch-factory/lifecycle.js'
import { findScratchMutant } from './index.js'

/** The parts a mutant may replace; every part it leaves out is the example's own. */
export interface Parts {
  readonly factory?: new (ctx: Context) => ScratchFactory
  readonly lifecycle?: typeof Lifecycle
  readonly agent?: typeof ScratchAgent
  readonly inbox?: new (session: Session, listener: InboxListener) => SplicedInbox
}

/** The adapter's name and manifest for the gallery's entry `id`: the example's, under the mutant's name. */
export function mutant(id: string): { name: string; version: string; supports: Partial<Supports>; reproduces: string } {
  const { name, clause, description } = findScratchMutant(id)
  return { name: `from-scratch-${id}-${name}`, version: '0.1.0', supports: { queue: true }, reproduces: `${clause}: ${description}` }
}

/** The example's factory, built in `ctx`, with `parts` in place of its own. */
export function scratchFactory(ctx: Context, parts: Parts): ScratchFactory {
  const Agent = parts.inbox ? withInbox(parts.agent ?? ScratchAgent, parts.inbox) : parts.agent
  const Base = parts.factory ?? ScratchFactory
  class Mutant extends Base {
    protected override newLifecycle(id: string, ownerCtx: OwnerContext, source: 'startup' | 'resume', release: (done: Lifecycle) => void): Lifecycle {
      return parts.lifecycle ? new parts.lifecycle(id, ownerCtx, source, release) : super.newLifecycle(id, ownerCtx, source, release)
    }

    protected override newAgent(session: Session, options: AgentOptions): ScratchAgent {
      return Agent ? new Agent(session, options, this.ctx) : super.newAgent(session, options)
    }
  }
  return new Mutant(ctx)
}

function withInbox(Agent: typeof ScratchAgent, Inbox: NonNullable<Parts['inbox']>): typeof ScratchAgent {
  return class extends Agent {
    protected override newInbox(session: Session, listener: InboxListener): SplicedInbox {
      return new Inbox(session, listener)
    }
  }
}
