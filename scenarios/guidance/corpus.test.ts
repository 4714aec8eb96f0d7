import { describe, expect, it } from 'vitest'
import type { Program } from '../../sim/program/program.js'
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

  it('once its table of transitions is full, keeps no program for a transition it cannot hold and says since when', () => {
    const c = new Corpus(true, undefined, undefined, 4)
    c.take(0, p('first'), 1, t('a', 'b'))
    expect(c.fullSince).toBeUndefined()
    c.take(1, p('fills it'), 2, t('a', 'c', 'd'))
    expect([c.covered, c.fullSince]).toEqual([4, 3])
    c.take(2, p('past the bound'), 1, t('a', 'e'))
    expect(c.entries.map((e) => e.program.name)).toEqual(['first', 'fills it'])
    expect([c.covered, c.fullSince, c.hits(transitionHash('a')), c.hits(transitionHash('e'))]).toEqual([4, 3, 3, 0])
    expect(c.growth).toEqual([{ runs: 1, transitions: 2 }, { runs: 3, transitions: 4 }])
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

  it('past its capacity, lets the lowest-weight entry leave: the one whose transitions later runs reach most', () => {
    const c = new Corpus(true, 2)
    c.take(0, p('rare'), 1, t('y'))
    c.take(1, p('often reached'), 1, t('x'))
    for (let r = 2; r < 10; r++) c.take(r, undefined, 1, t('x'))
    c.take(10, p('newest'), 1, t('z'))
    expect(c.entries.map((e) => e.program.name)).toEqual(['rare', 'newest'])
    // The transition it owned is nobody's now: reaching it again changes no entry's weight.
    c.take(11, undefined, 1, t('x'))
    c.take(12, p('last'), 1, t('w'))
    expect(c.entries.map((e) => e.program.name)).toEqual(['newest', 'last'])
  })

  it('among equal weights lets the oldest leave, and an entry drawn as a parent weighs less', () => {
    const c = new Corpus(true, 2)
    c.take(0, p('a'), 1, t('a'))
    c.take(1, p('b'), 1, t('b'))
    c.take(2, p('c'), 1, t('c'))
    expect(c.entries.map((e) => e.program.name)).toEqual(['b', 'c'])
    const drawn = c.choose(createRng(3, 'corpus'))!.program.name!
    c.take(3, p('d'), 1, t('d'))
    expect(c.entries.map((e) => e.program.name)).toEqual(['b', 'c', 'd'].filter((n) => n !== drawn))
  })

  it('keeps its draws proportional to the weights through many takes and evictions', () => {
    // Entry k owns one transition that later runs reach k times more: weight ∝ 1 / (1 + hits).
    const c = new Corpus(true, 8)
    for (let k = 0; k < 12; k++) c.take(k, p(`e${k}`), 1, t(`n${k}`))
    for (let k = 4; k < 12; k++) for (let h = 0; h < (k - 4) * 3; h++) c.take(100, undefined, 1, t(`n${k}`))
    expect(c.entries.map((e) => e.program.name)).toEqual(['e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e11'])
    const rng = createRng(11, 'corpus')
    const counts = new Map<string, number>()
    for (let i = 0; i < 4000; i++) {
      const name = c.choose(rng)!.program.name!
      counts.set(name, (counts.get(name) ?? 0) + 1)
    }
    // e4 (reached by no later run) is drawn most, e11 least; picking lowers every weight alike over time.
    const order = [...counts].sort((a, b) => b[1] - a[1]).map(([n]) => n)
    expect(order[0]).toBe('e4')
    expect(order.at(-1)).toBe('e11')
  })

  it('refuses a capacity below one', () => {
    expect(() => new Corpus(true, 0)).toThrow(/Corpus capacity must be a positive integer, got 0/)
  })
})
