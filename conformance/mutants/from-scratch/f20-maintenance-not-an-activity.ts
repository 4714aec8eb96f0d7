/**
 * f20 — a maintenance task does not replace the activity `whenIdle` waits for.
 *
 * Breaks: `runMaintenance` enters the maintenance phase but leaves the previous, settled activity in
 * place. `whenIdle()` called during the task resolves at once, and the teardown (§5.1 step 4) goes on
 * to dispose the scope and detach the agent while the task still runs.
 * Violates: AGENT-RUNTIME-SCOPE 33 (maintenance is an activity: cancel aborts it, work waits for it;
 * §7.6 "replaces `activityDone`", §7.5 "resolves when idle"; also AGENT-TEARDOWN-TEST 97's order).
 * Realistic: status stays `idle` during maintenance and no event marks it, so it is easy to treat as
 * "not an activity"; the phase change alone already latches waking input correctly.
 * @module
 */
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchAgent } from '../../../examples/from-scratch-factory/agent.js'
import { mutant, scratchFactory } from './scratch.js'

class MaintenanceNotAnActivity extends ScratchAgent {
  protected override beginActivity(): () => void {
    if (this.phase.kind === 'maintenance') return () => undefined // BUG: whenIdle does not see the task
    return super.beginActivity()
  }
}

export default factoryAdapter(mutant('f20'), (ctx) => scratchFactory(ctx, { agent: MaintenanceNotAnActivity }))
