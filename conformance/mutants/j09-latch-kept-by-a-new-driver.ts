/**
 * j09 — a latch the exiting activity held is handed to a driver a listener of its exit started.
 *
 * Breaks: at a convergence, when a listener of the exit's `idle` already started a new activity,
 * the latch is handed to it whatever it is: the reference hands it only to a maintenance (which
 * replays it at its own convergence, §7.2 step 4); here a new *driver* keeps it too. That driver
 * claims the work anyway, but if its turn then fails, is blocked or aborted, the driver's exit
 * replays the stale latch and runs the work left behind without any wake. Violates X-INPUT 163 (an
 * aborted or failed turn ends the driver; remaining work parks until the next wake, §7.4), or
 * X-CANCEL 147 after an aborted turn. Found as three surviving mutants of `core/agent.ts`
 * (`replayLatch`, `phase.kind === 'maintenance'` → `true`) in `npm run mutation` at 3f796f4: no
 * checker judged a driver started with pending work and no waking send since its last turn began.
 * Realistic: "keep the wake request alive for whatever runs next".
 * @module
 */
import type { AgentOptions, Session } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { isDisposedCause } from '../../core/phases.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { referenceAdapter } from '../adapters/adapter.js'

class BuggyAgent extends ReferenceAgent {
  protected override replayLatch(wakeRequested: boolean): void {
    const phase = this.phase
    // BUG: a running phase keeps the latch as a maintenance does.
    if (wakeRequested && phase.kind === 'running' && this.inbox.hasPending && !this.tornDown && !isDisposedCause(phase.abort.signal.reason)) {
      phase.wakeRequested = true
      return
    }
    super.replayLatch(wakeRequested)
  }
}

export default referenceAdapter(
  { name: 'mutant:j09-latch-kept-by-a-new-driver', version: '0.1.0', reproduces: 'j09: a new driver keeps the latch of the activity it followed, and its failed turn replays it' },
  class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new BuggyAgent(session, agentOptions, this.ctx)
    }
  },
)
