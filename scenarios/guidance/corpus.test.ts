import { describe, expect, it } from 'vitest'
import type { Program } from '../../sim/program.js'
import { createRng } from '../../sim/streams.js'
import { Corpus } from './corpus.js'

const p = (name: string): Program => ({ v: 1, name, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }] }] })

describe('Corpus', () => {
  it('keeps a program only when its runs reached a transition no earlier run reached, and records the growth', () => {
    const c = new Corpus(true)
    c.take(0, p('first'), 1, ['a', 'b'])
    c.take(1, p('same'), 1, ['a', 'b'])
    c.take(2, p('new c'), 2, ['a', 'c'])
    expect(c.entries.map((e) => [e.program.name, e.r, e.novel])).toEqual([['first', 0, ['a', 'b']], ['new c', 2, ['c']]])
    expect(c.covered).toBe(3)
    expect(c.runs).toBe(4)
    expect(c.growth).toEqual([{ runs: 1, transitions: 2 }, { runs: 4, transitions: 3 }])
    expect([c.coveredAt(0), c.coveredAt(1), c.coveredAt(3), c.coveredAt(4)]).toEqual([0, 2, 2, 3])
    expect(c.hits.get('a')).toBe(3)
  })

  it('counts coverage without keeping programs when unguided', () => {
    const c = new Corpus(false)
    c.take(0, p('x'), 1, ['a'])
    expect(c.entries).toEqual([])
    expect(c.choose(createRng(1, 't'))).toBeUndefined()
    expect(c.covered).toBe(1)
  })

  it('draws parents deterministically, favouring rare transitions and entries picked less often', () => {
    const make = (): Corpus => {
      const c = new Corpus(true)
      c.take(0, p('common'), 1, ['common'])
      c.take(1, p('rare'), 1, ['common', 'rare'])
      for (let r = 2; r < 60; r++) c.take(r, undefined, 1, ['common'])
      return c
    }
    const draws = (c: Corpus): string[] => {
      const rng = createRng(7, 'corpus')
      return Array.from({ length: 200 }, () => c.choose(rng)!.program.name!)
    }
    const a = draws(make())
    expect(draws(make())).toEqual(a)
    // 'common' was reached by 60 runs and 'rare' by one: the rare entry is drawn far more often,
    // but its weight falls as it is picked, so the common one is drawn too.
    const rare = a.filter((n) => n === 'rare').length
    expect(rare).toBeGreaterThan(150)
    expect(rare).toBeLessThan(200)
  })
})
