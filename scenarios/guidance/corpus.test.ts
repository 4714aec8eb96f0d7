import { describe, expect, it } from 'vitest'
import type { Program } from '../../sim/program.js'
import { createRng } from '../../sim/streams.js'
import { Corpus } from './corpus.js'
import { transitionHash } from './transition-table.js'

const t = (...names: string[]): number[] => names.map(transitionHash)
const p = (name: string): Program => ({ v: 1, name, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }] }] })

describe('Corpus', () => {
  it('keeps a program only when its runs reached a transition no earlier run reached, and records the growth', () => {
    const c = new Corpus(true)
    c.take(0, p('first'), 1, t('a', 'b'))
    c.take(1, p('same'), 1, t('a', 'b'))
    c.take(2, p('new c'), 2, t('a', 'c'))
    expect(c.entries.map((e) => [e.program.name, e.r, e.novel])).toEqual([['first', 0, t('a', 'b')], ['new c', 2, t('c')]])
    expect(c.covered).toBe(3)
    expect(c.runs).toBe(4)
    expect(c.growth).toEqual([{ runs: 1, transitions: 2 }, { runs: 4, transitions: 3 }])
    expect([c.coveredAt(0), c.coveredAt(1), c.coveredAt(3), c.coveredAt(4)]).toEqual([0, 2, 2, 3])
    expect([c.hits(transitionHash('a')), c.hits(transitionHash('c')), c.hits(transitionHash('never'))]).toEqual([3, 1, 0])
  })

  it('builds a program given as a function only when it enters the corpus', () => {
    const c = new Corpus(true)
    const built: string[] = []
    const lazy = (name: string) => (): Program => (built.push(name), p(name))
    c.take(0, lazy('first'), 1, t('a'))
    c.take(1, lazy('again'), 1, t('a'))
    c.take(2, lazy('new'), 1, t('a', 'b'))
    expect(built).toEqual(['first', 'new'])
    expect(c.entries.map((e) => e.program.name)).toEqual(['first', 'new'])
  })

  it('counts coverage without keeping programs when unguided', () => {
    const c = new Corpus(false)
    c.take(0, p('x'), 1, t('a'))
    expect(c.entries).toEqual([])
    expect(c.choose(createRng(1, 't'))).toBeUndefined()
    expect(c.covered).toBe(1)
  })

  it('draws parents deterministically, favouring rare transitions and entries picked less often', () => {
    const make = (): Corpus => {
      const c = new Corpus(true)
      c.take(0, p('common'), 1, t('common'))
      c.take(1, p('rare'), 1, t('common', 'rare'))
      for (let r = 2; r < 60; r++) c.take(r, undefined, 1, t('common'))
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
