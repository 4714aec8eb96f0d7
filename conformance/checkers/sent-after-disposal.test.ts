/**
 * Sends after `dispose()` resolved, through a handle the program kept (§12 Q3), against the
 * reference, the reference with its refusal removed (the `core/agent.ts` mutant `equivalent.json`
 * lists: the send is accepted and parked in the detached session, never run), and a factory whose
 * disposed agents forward sends to whatever agent holds their id now. What a disposed agent does
 * with such a send is unspecified, so the first two are clean under the checkers and the directed
 * case; what must not happen is that the send reaches anything live, which the third does.
 */
import { describe, expect, it } from 'vitest'
import type { AgentOptions, InboxTarget, Session, UserMessage } from '../../core/contract.js'
import { ReferenceAgent } from '../../core/agent.js'
import { ReferenceFactory } from '../../core/factory/reference-factory.js'
import type { Transaction } from '../../core/factory/transaction.js'
import { isDisposedCause } from '../../core/phases.js'
import { normalizeAdapter, REFERENCE_ADAPTER, referenceAdapter } from '../adapters/adapter.js'
import type { Adapter } from '../adapters/adapter.js'
import { caseTitle, DIRECTED_CASES } from '../cases/index.js'
import { strategyFor } from '../certify/certify.js'
import { DIRECTED_PROGRAMS } from '../programs/directed-programs.js'
import { runProgram } from '../../sim/run.js'
import { checkRun } from './index.js'

/** `core/agent.ts:70` with its condition mutated to `false`: a torn-down idle agent accepts a send and parks it. */
class ParkingAgent extends ReferenceAgent {
  override send(message: UserMessage, target: InboxTarget, wakeup: boolean): void {
    const before = this.phase
    const wakingAfterAbort = wakeup && before.kind !== 'idle' && before.abort.signal.aborted
    this.inbox.append(wakingAfterAbort ? 'next-turn' : target, message)
    if (!wakeup) return
    const phase = this.phase
    if (phase.kind === 'idle') {
      if (!this.tornDown) this.startDriver()
    } else if (phase.kind === 'maintenance' || (phase.kind === 'running' && wakingAfterAbort)) {
      if (!isDisposedCause(phase.abort.signal.reason)) phase.wakeRequested = true
    }
  }
}

/** A disposed agent that hands a send on to the agent now registered under its id. */
class ForwardingAgent extends ReferenceAgent {
  override send(message: UserMessage, target: InboxTarget, wakeup: boolean): void {
    const now = this.tornDown ? this.ctx.agents.get(this.id) : undefined
    if (now !== undefined && now !== this) now.send(message, target, wakeup)
    else super.send(message, target, wakeup)
  }
}

function variant(name: string, Agent: typeof ReferenceAgent): Adapter {
  return referenceAdapter({ name, version: '0.1.0', supports: { queue: true } }, class extends ReferenceFactory {
    protected override construct(_tx: Transaction, session: Session, agentOptions: AgentOptions): ReferenceAgent {
      return new Agent(session, agentOptions, this.ctx)
    }
  })
}

const parking = variant('test:parks-sends-after-disposal', ParkingAgent)
const forwarding = variant('test:forwards-sends-after-disposal', ForwardingAgent)

const directedCase = DIRECTED_CASES.find((c) => caseTitle(c).startsWith('AGENT-TEARDOWN-TEST 111: Q3:'))!

async function runCase(adapter: Adapter): Promise<unknown> {
  const a = normalizeAdapter(adapter)
  try {
    await directedCase.run({ process: a.processFactory, supports: a.supports })
    return undefined
  } catch (error) {
    return error
  }
}

async function violations(adapter: Adapter): Promise<{ keys: string[]; outcomes: string[] }> {
  const program = DIRECTED_PROGRAMS.find((p) => p.name === 'sends-after-disposal-through-kept-handles')!.program
  const keys = new Set<string>()
  const outcomes = new Set<string>()
  for (let k = 0; k < 16; k++) {
    const strategy = strategyFor(k, 0)
    strategy.beginRun()
    const run = await runProgram(program, strategy, { process: normalizeAdapter(adapter).processFactory })
    for (const v of checkRun(program, run.trace, run.outcome)) keys.add(v.key)
    for (const e of run.trace.entries) if (e.k === 'outcome' && e.detail.startsWith('sent after disposal')) outcomes.add(e.detail.replace(/m\d+|"[^"]*"/g, '_'))
  }
  return { keys: [...keys].sort(), outcomes: [...outcomes].sort() }
}

describe('sends after dispose() resolved, through kept handles (§12 Q3)', () => {
  it('the reference refuses them; the checkers and the directed case are clean', async () => {
    const { keys, outcomes } = await violations(REFERENCE_ADAPTER)
    expect(keys).toEqual([])
    expect(outcomes).toEqual(['sent after disposal: refused (agent _ is disposed)'])
    expect(await runCase(REFERENCE_ADAPTER)).toBeUndefined()
  })

  it('an agent that accepts and parks them (the equivalent core/agent.ts:70 mutant) is clean too: the send is unspecified', async () => {
    const { keys, outcomes } = await violations(parking)
    expect(outcomes).toEqual(['sent after disposal: accepted _'])
    expect(keys).toEqual([])
    expect(await runCase(parking)).toBeUndefined()
  })

  it('an agent that forwards them to the agent now holding its id fails the directed case', async () => {
    expect(String(await runCase(forwarding))).toMatch(/the successor heard nothing of the sends/)
  })
})
