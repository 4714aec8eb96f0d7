import { describe, expect, it } from 'vitest'
import { createRng } from '../../sim/streams.js'
import { WeightTree } from './weight-tree.js'

/** The same slots as plain arrays, searched by a pass over every slot. */
class Model {
  readonly weight: (number | undefined)[]
  readonly age: number[]
  constructor(capacity: number) {
    this.weight = new Array<number | undefined>(capacity).fill(undefined)
    this.age = new Array<number>(capacity).fill(0)
  }

  /** For each used slot, the midpoint of its interval of cumulative weight. */
  midpoints(): [slot: number, x: number][] {
    const out: [number, number][] = []
    let before = 0
    this.weight.forEach((w, slot) => {
      if (w === undefined) return
      out.push([slot, before + w / 2])
      before += w
    })
    return out
  }

  lowest(): number {
    let best = -1
    this.weight.forEach((w, slot) => {
      if (w === undefined) return
      const b = best < 0 ? undefined : this.weight[best]!
      if (b === undefined || w < b || (w === b && this.age[slot]! < this.age[best]!)) best = slot
    })
    return best
  }
}

describe('WeightTree', () => {
  it('finds the slot whose interval holds x and the lowest slot, like a pass over every slot, through random updates', () => {
    for (const capacity of [1, 2, 5, 64, 100]) {
      const rng = createRng(capacity, 'weight-tree')
      const tree = new WeightTree(capacity)
      const model = new Model(capacity)
      for (let step = 0; step < 400; step++) {
        const slot = rng.int(capacity)
        if (rng.bool(0.25)) {
          tree.clear(slot)
          model.weight[slot] = undefined
        } else {
          // Few distinct weights, so ties (broken by age) happen.
          const weight = rng.pick([0.5, 1, 1.5, 2, 1 / 3])
          const age = rng.int(21)
          tree.set(slot, weight, age)
          model.weight[slot] = weight
          model.age[slot] = age
        }
        expect(tree.lowest()).toBe(model.lowest())
        const mids = model.midpoints()
        expect(tree.total).toBeCloseTo(model.weight.reduce<number>((s, w) => s + (w ?? 0), 0), 9)
        for (const [expected, x] of mids) expect(tree.find(x)).toBe(expected)
      }
    }
  })

  it('lands on the last weighted slot when rounding overshoots the total, and says -1 when empty', () => {
    const tree = new WeightTree(8)
    expect([tree.find(0), tree.lowest()]).toEqual([-1, -1])
    tree.set(2, 1, 0)
    tree.set(5, 1, 1)
    expect(tree.find(tree.total * 1.0000001)).toBe(5)
    tree.clear(5)
    expect(tree.find(5)).toBe(2)
  })

  it('refuses a weight that is not positive and finite, and a capacity below one', () => {
    const tree = new WeightTree(4)
    expect(() => tree.set(0, 0, 0)).toThrow(/weight must be positive and finite, got 0 for slot 0/)
    expect(() => tree.set(0, Number.NaN, 0)).toThrow(/got NaN/)
    expect(() => new WeightTree(0)).toThrow(/capacity must be a positive integer, got 0/)
  })
})

describe('WeightTree lowest slot, kept from the first ask on', () => {
  it('names the same slot as a tree asked after every update, whenever it is first asked', () => {
    for (const firstAsk of [0, 1, 37, 299]) {
      const rng = createRng(firstAsk, 'weight-tree-lazy')
      const lazy = new WeightTree(50)
      const eager = new WeightTree(50)
      const model = new Model(50)
      for (let step = 0; step < 300; step++) {
        const slot = rng.int(50)
        if (rng.bool(0.2)) {
          lazy.clear(slot)
          eager.clear(slot)
          model.weight[slot] = undefined
        } else {
          const weight = rng.pick([0.5, 1, 2])
          const age = rng.int(11)
          lazy.set(slot, weight, age)
          eager.set(slot, weight, age)
          model.weight[slot] = weight
          model.age[slot] = age
        }
        expect(eager.lowest()).toBe(model.lowest())
        if (step >= firstAsk) expect(lazy.lowest()).toBe(model.lowest())
        expect(lazy.find(lazy.total / 2)).toBe(eager.find(eager.total / 2))
      }
    }
  })
})
