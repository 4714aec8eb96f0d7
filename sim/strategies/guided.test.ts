import { describe, expect, it } from 'vitest'
import type { DecisionLog } from '../trace/decision-log.js'
import { Scheduler } from '../engine/scheduler.js'
import type { RunOutcome } from '../engine/outcome.js'
import { countPreemptions, defaultChoice, guidedReplay } from './guided.js'
import type { GuidedStrategy } from './guided.js'
import { random } from './random.js'
import type { Strategy } from './strategy.js'

/** Actors each taking `steps` points in a row, one random draw per actor after its first point. */
async function program(s: Scheduler, actors: readonly string[], trail: string[], steps = 3): Promise<void> {
  await Promise.all(actors.map(async (actor) => {
    for (let i = 1; i <= steps; i++) {
      await s.point(`${actor}:op@step.${i}`, actor)
      trail.push(`${actor}.${i}`)
      if (i === 1) trail.push(`${actor} draws ${s.random(3)}`)
    }
  }))
}

async function runOnce(strategy: Strategy, actors: readonly string[] = ['a1', 'a2', 'a3']): Promise<{ outcome: RunOutcome; trail: string[] }> {
  expect(strategy.beginRun()).toBe(true)
  const s = new Scheduler(strategy)
  const trail: string[] = []
  const outcome = await s.run(() => program(s, actors, trail))
  return { outcome, trail }
}

const picks = (log: DecisionLog): string[] => log.decisions.flatMap((d) => (d.kind === 'pick' ? [d.label] : []))

describe('guided replay', () => {
  it('on an unchanged program, label mode and position mode are exact replays', async () => {
    const original = await runOnce(random({ seed: 5 }))
    for (const match of ['label', 'position'] as const) {
      const guided = guidedReplay(original.outcome.decisions, { match })
      const again = await runOnce(guided)
      expect(again.outcome.decisions.decisions).toEqual(original.outcome.decisions.decisions)
      expect(again.trail).toEqual(original.trail)
      expect(guided.steps.every((s) => s.followed)).toBe(true)
      expect(again.outcome.decisions.strategy).toBe(`guided replay (${match}) of random seed=5 run=0`)
      const chained = guidedReplay(again.outcome.decisions, { match: 'label' })
      expect((await runOnce(chained)).outcome.decisions.strategy).toBe('guided replay (label) of random seed=5 run=0')
    }
  })

  it('label mode: points of a removed actor drop out and the others keep their relative order', async () => {
    const original = await runOnce(random({ seed: 8 }))
    const without = await runOnce(guidedReplay(original.outcome.decisions, { match: 'label' }), ['a1', 'a3'])
    expect(picks(without.outcome.decisions)).toEqual(picks(original.outcome.decisions).filter((l) => !l.startsWith('a2:')))
  })

  it('with nothing to follow, takes the default: the last actor continues, else first-in-first-out, and draws 0', async () => {
    const guided = guidedReplay({ v: 1, strategy: 'none', decisions: [] }, { match: 'position' })
    const run = await runOnce(guided)
    expect(picks(run.outcome.decisions)).toEqual([
      'a1:op@step.1', 'a1:op@step.2', 'a1:op@step.3', 'a2:op@step.1', 'a2:op@step.2', 'a2:op@step.3', 'a3:op@step.1', 'a3:op@step.2', 'a3:op@step.3',
    ])
    expect(run.trail).toContain('a2 draws 0')
    expect(guided.steps.every((s) => s.isDefault && !s.followed && !s.preemption)).toBe(true)
    expect(countPreemptions(guided.steps)).toBe(0)
  })

  it('position mode: upTo follows a prefix, then the default; skip turns one pick into the default one', async () => {
    const original = await runOnce(random({ seed: 3 }))
    const log = original.outcome.decisions
    const prefix = guidedReplay(log, { match: 'position', upTo: 2 })
    const cut = await runOnce(prefix)
    expect(picks(cut.outcome.decisions).slice(0, 2)).toEqual(picks(log).slice(0, 2))
    expect(prefix.steps.slice(2).every((s) => s.isDefault)).toBe(true)

    const replayed = guidedReplay(log, { match: 'position' })
    await runOnce(replayed)
    const t = replayed.steps.findIndex((s) => !s.isDefault)
    expect(t).toBeGreaterThanOrEqual(0)
    const skipped = guidedReplay(log, { match: 'position', skip: new Set([t]) })
    const run = await runOnce(skipped)
    expect(picks(run.outcome.decisions).slice(0, t)).toEqual(picks(log).slice(0, t))
    expect(skipped.steps[t]!.isDefault).toBe(true)
    expect(skipped.steps[t]!.followed).toBe(false)
  })

  it('counts a preemption only when the last actor could have continued', async () => {
    const original = await runOnce(random({ seed: 13 }))
    const guided: GuidedStrategy = guidedReplay(original.outcome.decisions)
    await runOnce(guided)
    const labels = picks(original.outcome.decisions)
    let expected = 0
    for (let i = 1; i < labels.length; i++) {
      const last = labels[i - 1]!.split(':')[0]!
      const lastStep = Number(labels[i - 1]!.split('.').pop())
      if (!labels[i]!.startsWith(`${last}:`) && lastStep < 3) expected++
    }
    expect(countPreemptions(guided.steps)).toBe(expected)
    expect(expected).toBeGreaterThan(0)
  })

  it('defaultChoice prefers the last actor, else the earliest point', () => {
    const pending = [{ label: 'a2:x', actor: 'a2', seq: 4 }, { label: 'a1:y', actor: 'a1', seq: 7 }]
    expect(defaultChoice(pending, 'a1')).toBe(1)
    expect(defaultChoice(pending, 'a3')).toBe(0)
    expect(defaultChoice(pending, undefined)).toBe(0)
  })
})
