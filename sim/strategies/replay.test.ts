import { describe, expect, it } from 'vitest'
import { formatDecisionLog, parseDecisionLog, type Decision, type DecisionLog } from '../trace/decision-log.js'
import { Scheduler } from '../engine/scheduler.js'
import type { RunOutcome } from '../engine/outcome.js'
import { pct } from './pct.js'
import { random } from './random.js'
import { replay, ReplayDivergenceError } from './replay.js'
import type { Strategy } from './strategy.js'

/** Three actors with points, random draws and timers: every kind of decision. */
async function program(s: Scheduler, trail: string[]): Promise<void> {
  await Promise.all(
    ['a1', 'a2', 'a3'].map(async (actor) => {
      for (let i = 1; i <= 3; i++) {
        await s.point(`${actor}:op@step.${i}`, actor)
        trail.push(`${actor}.${i}`)
        if (i === 2) {
          const fault = s.random(3)
          trail.push(`${actor} fault ${fault}`)
          await new Promise<void>((resolve) => setTimeout(resolve, 10 * (fault + 1)))
        }
      }
    }),
  )
}

async function runOnce(strategy: Strategy): Promise<{ outcome: RunOutcome; trail: string[] }> {
  expect(strategy.beginRun()).toBe(true)
  const s = new Scheduler(strategy)
  const trail: string[] = []
  const outcome = await s.run(() => program(s, trail))
  return { outcome, trail }
}

const edit = (log: DecisionLog, index: number, decision: Decision | undefined): DecisionLog => {
  const decisions = log.decisions.slice()
  if (decision === undefined) decisions.splice(index, 1)
  else decisions[index] = decision
  return { ...log, decisions }
}

describe('replay', () => {
  it('reproduces a recorded run exactly: same decisions, same behaviour', async () => {
    for (const strategy of [random({ seed: 11 }), pct({ seed: 12, depth: 3 })]) {
      const original = await runOnce(strategy)
      expect(original.outcome.kind).toBe('ok')
      const kinds = new Set(original.outcome.decisions.decisions.map((d) => d.kind))
      expect(kinds).toEqual(new Set(['pick', 'random', 'time']))

      // Through the file format, as a saved regression would be.
      const log = parseDecisionLog(formatDecisionLog(original.outcome.decisions))
      const replayed = await runOnce(replay(log))
      expect(replayed.outcome.decisions.decisions).toEqual(original.outcome.decisions.decisions)
      expect(replayed.trail).toEqual(original.trail)
      expect(replayed.outcome.decisions.strategy).toBe(`replay of ${original.outcome.decisions.strategy}`)
    }
  })

  it('runs once', () => {
    const strategy = replay({ v: 1, strategy: 'x', decisions: [] })
    expect(strategy.beginRun()).toBe(true)
    expect(strategy.beginRun()).toBe(false)
  })

  it('refuses an edited pick, naming the decision, the expected label and the pending labels', async () => {
    const { outcome } = await runOnce(random({ seed: 21 }))
    const log = outcome.decisions
    const index = log.decisions.findIndex((d, i) => i > 3 && d.kind === 'pick')
    const edited = edit(log, index, { kind: 'pick', label: 'a9:op@step.1' })
    const error = await runOnce(replay(edited)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ReplayDivergenceError)
    const divergence = error as ReplayDivergenceError
    expect(divergence.index).toBe(index)
    expect(divergence.message).toMatch(new RegExp(`^replay diverged at decision ${index}: log expects "a9:op@step\\.1" but pending are \\["a\\d:op@step\\.\\d"(, "a\\d:op@step\\.\\d")*\\]$`))
  })

  it('refuses a log whose random draw no longer fits', async () => {
    const { outcome } = await runOnce(random({ seed: 22 }))
    const index = outcome.decisions.decisions.findIndex((d) => d.kind === 'random')
    const edited = edit(outcome.decisions, index, { kind: 'random', n: 4, value: 1 })
    await expect(runOnce(replay(edited))).rejects.toThrow(`replay diverged at decision ${index}: log expects random(4)=1 but the run draws random(3)`)
  })

  it('refuses a log whose time advance no longer fits', async () => {
    const { outcome } = await runOnce(random({ seed: 23 }))
    const index = outcome.decisions.decisions.findIndex((d) => d.kind === 'time')
    expect(index).toBeGreaterThan(0)
    const at = (outcome.decisions.decisions[index] as { at: number }).at
    const edited = edit(outcome.decisions, index, { kind: 'time', at: at + 1 })
    await expect(runOnce(replay(edited))).rejects.toThrow(
      `replay diverged at decision ${index}: log expects time@${at + 1} but nothing is pending and the run advances time to ${at}`,
    )
  })

  it('refuses a log that ends early, and one that goes on after the run', async () => {
    const { outcome } = await runOnce(random({ seed: 24 }))
    const log = outcome.decisions
    const short = { ...log, decisions: log.decisions.slice(0, 5) }
    await expect(runOnce(replay(short))).rejects.toThrow(/^replay diverged at decision 5: the log has ended but /)
    const long = { ...log, decisions: [...log.decisions, { kind: 'pick' as const, label: 'extra' }] }
    await expect(runOnce(replay(long))).rejects.toThrow(`replay diverged at decision ${log.decisions.length}: log expects "extra" but the run has ended`)
  })

  it('refuses a log expecting a pick where the run draws a random number', async () => {
    const { outcome } = await runOnce(random({ seed: 25 }))
    const index = outcome.decisions.decisions.findIndex((d) => d.kind === 'random')
    const removed = edit(outcome.decisions, index, undefined)
    await expect(runOnce(replay(removed))).rejects.toThrow(new RegExp(`^replay diverged at decision ${index}: log expects "[^"]+" but the run draws random\\(3\\)$`))
  })
})
