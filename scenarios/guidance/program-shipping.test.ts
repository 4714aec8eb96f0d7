import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CorpusProgram, DrawnProgram } from './guided-draw.js'
import { ProgramShipping, ReceivedPrograms } from './program-shipping.js'
import type { ShippedDraw } from './program-shipping.js'

const program = (r: number): CorpusProgram => ({ r, bytes: new Uint8Array([r % 256, (r >> 8) % 256, 7]) })
const mutant = (parent: number, donors: number[]): DrawnProgram => ({ origin: 'mutant', parent: program(parent), donors: donors.map(program), split: [1, 2, 3] })
const bytesSent = (d: ShippedDraw): number => d.origin === 'mutant' ? [d.parent, ...d.donors].filter((p) => p.bytes !== undefined).length : 0

describe('program shipping', () => {
  it('gives every worker each draw whole, whatever the interleaving of workers and the capacity', () => {
    const draw = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 12 }), fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 3 }), fc.boolean())
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.array(draw, { maxLength: 60 }), (capacity, draws) => {
      const shipping = new ProgramShipping(capacity)
      const workers = [{}, {}, {}]
      const received = workers.map(() => new ReceivedPrograms(capacity))
      for (const [w, parent, donors, fresh] of draws) {
        const drawn: DrawnProgram = fresh ? { origin: 'fresh' } : mutant(parent, donors)
        expect(received[w]!.receive(shipping.ship(drawn, workers[w]!))).toEqual(drawn)
      }
    }))
  })

  it('sends a program a worker holds by seed, and its bytes to a worker that does not', () => {
    const shipping = new ProgramShipping()
    const [a, b] = [{}, {}]
    expect(bytesSent(shipping.ship(mutant(1, [2, 1]), a))).toBe(2)
    expect(bytesSent(shipping.ship(mutant(1, [2]), a))).toBe(0)
    expect(bytesSent(shipping.ship(mutant(1, [2]), b))).toBe(2)
    expect(shipping.ship({ origin: 'scenario' }, a)).toEqual({ origin: 'scenario' })
  })

  it('refuses a program named by seed that the worker was never sent, naming it', () => {
    expect(() => new ReceivedPrograms().receive({ origin: 'mutant', parent: { r: 5 }, donors: [], split: [1, 2, 3] })).toThrow(/seed 5 .*does not hold it/)
  })
})
