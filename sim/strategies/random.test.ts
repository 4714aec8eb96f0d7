import { describe, expect, it } from 'vitest'
import { random } from './random.js'
import type { PendingPoint, PickContext } from './strategy.js'

const pending: PendingPoint[] = [
  { label: 'a1', actor: 'a', seq: 0 },
  { label: 'b1', actor: 'b', seq: 1 },
  { label: 'c1', actor: 'c', seq: 2 },
]
const ctx: PickContext = { step: 0, lastActor: undefined }

describe('random', () => {
  it('picks every pending point about equally often', () => {
    const strategy = random({ seed: 'uniform' })
    strategy.beginRun()
    const counts = [0, 0, 0]
    for (let i = 0; i < 30_000; i++) counts[strategy.pick(pending, ctx)]!++
    // 10_000 expected each; 400 is about 5 standard deviations.
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(400)
  })

  it('reproduces run k from the seed whatever earlier runs consumed', () => {
    const light = random({ seed: 4 })
    const heavy = random({ seed: 4 })
    light.beginRun()
    heavy.beginRun()
    light.pick(pending, ctx)
    for (let i = 0; i < 100; i++) {
      heavy.pick(pending, ctx)
      heavy.random(10)
    }
    light.endRun?.()
    heavy.endRun?.()
    light.beginRun()
    heavy.beginRun()
    const a = Array.from({ length: 20 }, () => light.pick(pending, ctx))
    const b = Array.from({ length: 20 }, () => heavy.pick(pending, ctx))
    expect(a).toEqual(b)
    expect(light.name).toBe('random seed=4 run=1')
  })

  it('draws data from a stream apart from its picks', () => {
    const plain = random({ seed: 6 })
    const drawing = random({ seed: 6 })
    plain.beginRun()
    drawing.beginRun()
    const a: number[] = []
    const b: number[] = []
    for (let i = 0; i < 20; i++) {
      a.push(plain.pick(pending, ctx))
      drawing.random(5)
      b.push(drawing.pick(pending, ctx))
    }
    expect(b).toEqual(a)
  })

  it('refuses use outside a run', () => {
    const strategy = random({ seed: 1 })
    expect(() => strategy.pick(pending, ctx)).toThrow('random: pick() called outside a run')
    strategy.beginRun()
    strategy.endRun?.()
    expect(() => strategy.random(2)).toThrow('random: random() called outside a run')
  })
})
