/**
 * The kit-level probes of simulated runs, each proven by a process mutant it catches and clean on
 * the reference: AGENT-INBOX-TEST 120 (a re-sent pending id is accepted: p16) and AGENT-FACTORY-SEAM
 * 5/6 (ownership queries after every event: p07), AGENT-CREATE-RESUME 45 (persisted headers: p17),
 * AGENT-INITIATOR-DRAIN 137 and AGENT-INITIATOR-API 130 (boundaries: p18, p19).
 */
import { describe, expect, it } from 'vitest'
import { normalizeAdapter } from '../adapter.js'
import { KIT_PROCESS_ADAPTER } from '../kit-process-adapter.js'
import p07 from '../mutants/process/p07-owner-owns-itself.js'
import p16 from '../mutants/process/p16-inbox-accepts-pending-id.js'
import p17 from '../mutants/process/p17-resume-drops-cwd.js'
import p18 from '../mutants/process/p18-initiator-drain-waits-on-itself.js'
import p19 from '../mutants/process/p19-initiator-global.js'
import { DIRECTED_PROGRAMS } from '../programs.js'
import { strategyFor } from '../suite.js'
import { runProgram } from '../../sim/run.js'
import type { Adapter } from '../adapter.js'
import { checkRun } from './index.js'

async function violations(adapter: Adapter, name: string): Promise<string[]> {
  const program = DIRECTED_PROGRAMS.find((p) => p.name === name)!.program
  const keys = new Set<string>()
  for (let k = 0; k < 8; k++) {
    const strategy = strategyFor(k, 0)
    strategy.beginRun()
    const run = await runProgram(program, strategy, { process: normalizeAdapter(adapter).processFactory })
    for (const v of checkRun(program, run.trace, run.outcome)) keys.add(v.key)
  }
  return [...keys].sort()
}

describe('kit-level probes in simulated runs', () => {
  it('AGENT-INBOX-TEST 120: resend-pending-ids is clean on the kit and catches a runtime that accepts a pending id (p16)', async () => {
    expect(await violations(KIT_PROCESS_ADAPTER, 'resend-pending-ids')).toEqual([])
    expect(await violations(p16, 'resend-pending-ids')).toContain('AGENT-INBOX-TEST 120')
  })

  it('AGENT-FACTORY-SEAM 5, 6: ownership-under-churn is clean on the kit and catches a registry whose root owns itself (p07)', async () => {
    expect(await violations(KIT_PROCESS_ADAPTER, 'ownership-under-churn')).toEqual([])
    expect(await violations(p07, 'ownership-under-churn')).toContain('AGENT-FACTORY-SEAM 6')
  })

  it('AGENT-CREATE-RESUME 45, 46: resume-persisted-headers is clean on the kit and catches a store that drops the persisted cwd (p17)', async () => {
    expect(await violations(KIT_PROCESS_ADAPTER, 'resume-persisted-headers')).toEqual([])
    expect(await violations(p17, 'resume-persisted-headers')).toContain('AGENT-CREATE-RESUME 45')
  })

  it('AGENT-INITIATOR-DRAIN 137, AGENT-INITIATOR-API 130: unloads-inside-boundaries is clean on the kit and catches a drain that waits on its own caller (p18) and a process-global initiator (p19)', async () => {
    expect(await violations(KIT_PROCESS_ADAPTER, 'unloads-inside-boundaries')).toEqual([])
    expect(await violations(p18, 'unloads-inside-boundaries')).toContain('AGENT-INITIATOR-DRAIN 137')
    expect(await violations(p19, 'unloads-inside-boundaries')).toContain('AGENT-INITIATOR-API 130')
  })
})
