import { afterEach, describe, expect, it, vi } from 'vitest'
import { Alea } from './alea.js'
import { createRng, createStreams, rngFromSplit, type Rng } from './streams.js'

/** The generator seedrandom.alea(key) makes, as draws of unsigned 32-bit integers. */
const rngOf = (key: string): Pick<Rng, 'nextU32'> => {
  const alea = Alea.fromSeed(key)
  return { nextU32: () => alea.int32() >>> 0 }
}

const draw = (rng: Pick<Rng, 'nextU32'>, count: number): number[] => Array.from({ length: count }, () => rng.nextU32())

describe('createStreams', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('gives the same sequences for the same seed', () => {
    const a = createStreams(42)
    const b = createStreams(42)
    expect(draw(a.schedule, 20)).toEqual(draw(b.schedule, 20))
    expect(draw(a.faults, 20)).toEqual(draw(b.faults, 20))
    expect(draw(a.stream('model'), 20)).toEqual(draw(b.stream('model'), 20))
  })

  it('treats a numeric seed and its string form as the same seed', () => {
    expect(draw(createStreams(7).program, 5)).toEqual(draw(createStreams('7').program, 5))
  })

  it('keys a stream by the JSON of [seed, name], a numeric seed as its decimal string', () => {
    // createRng builds a numeric seed's key by concatenation: it must be the JSON, escapes included.
    for (const [seed, name] of [[7, 'guidance'], [-3, 'a"b\\c'], [1.5e300, 'x\u2028y'], [0, 'π']] as const) {
      const key = JSON.stringify([String(seed), name])
      expect(draw(createRng(seed, name), 4)).toEqual(draw(createRng(String(seed), name), 4))
      expect(draw(createRng(seed, name), 4)).toEqual(draw(rngOf(key), 4))
    }
  })

  it('gives different sequences for different seeds and different names', () => {
    const s = createStreams(1)
    const seqs = [s.schedule, s.program, s.faults, s.stream('other'), createStreams(2).schedule].map((r) => draw(r, 8).join(','))
    expect(new Set(seqs).size).toBe(seqs.length)
  })

  it('keeps each stream unperturbed by draws from, or creation of, other streams', () => {
    const alone = createStreams('root')
    const expected = draw(alone.schedule, 50)

    const busy = createStreams('root')
    const got: number[] = []
    for (let i = 0; i < 50; i++) {
      got.push(busy.schedule.nextU32())
      busy.faults.int(3)
      busy.stream(`new-knob-${i % 3}`).float()
    }
    expect(got).toEqual(expected)
  })

  it('returns the same advancing stream when a name is asked for twice', () => {
    const s = createStreams(3)
    const first = s.stream('x').nextU32()
    const second = s.stream('x').nextU32()
    const fresh = createStreams(3).stream('x')
    expect([first, second]).toEqual(draw(fresh, 2))
    expect(s.stream('schedule')).toBe(s.schedule)
  })

  it('pins the first draws of a known seed, so a generator change is a deliberate diff', () => {
    const s = createStreams('pinned')
    expect([s.schedule.int(1000), s.schedule.int(1000), s.program.int(1000), s.faults.int(1000)]).toMatchInlineSnapshot(`
      [
        970,
        382,
        996,
        442,
      ]
    `)
  })

  it('never calls Math.random', () => {
    vi.spyOn(Math, 'random').mockImplementation(() => {
      throw new Error('Math.random was called')
    })
    const s = createStreams('no-math-random')
    s.schedule.int(10)
    s.program.float()
    s.faults.bool(0.5)
    s.stream('z').pick([1, 2, 3])
    expect(Math.random).not.toHaveBeenCalled()
  })
})

describe('Rng', () => {
  it('int(n) stays in [0, n) and covers every value roughly uniformly', () => {
    const rng = createRng('uniform', 'test')
    const n = 6
    const counts = new Array<number>(n).fill(0)
    const total = 60_000
    let outOfRange = 0
    for (let i = 0; i < total; i++) {
      const v = rng.int(n)
      if (!(Number.isInteger(v) && v >= 0 && v < n)) outOfRange++
      else counts[v]!++
    }
    expect(outOfRange).toBe(0)
    // With 10_000 expected per bucket, a deviation of 500 is about 5 standard deviations.
    for (const c of counts) expect(Math.abs(c - total / n)).toBeLessThan(500)
  })

  it('int(n) handles the extremes 1 and 2^32', () => {
    const rng = createRng('extremes', 'test')
    expect(rng.int(1)).toBe(0)
    const v = rng.int(2 ** 32)
    expect(v).toBeGreaterThanOrEqual(0)
    expect(v).toBeLessThan(2 ** 32)
  })

  it.each([0, -1, 2.5, Number.NaN, 2 ** 32 + 1])('int(%s) throws a RangeError naming n', (n) => {
    const rng = createRng('bad', 'test')
    expect(() => rng.int(n)).toThrow(RangeError)
    expect(() => rng.int(n)).toThrow(`n=${String(n)}`)
  })

  it('float() is in [0, 1) and bool(p) honours the extremes', () => {
    const rng = createRng('float', 'test')
    for (let i = 0; i < 1000; i++) {
      const f = rng.float()
      expect(f >= 0 && f < 1).toBe(true)
      expect(rng.bool(0)).toBe(false)
      expect(rng.bool(1)).toBe(true)
    }
    expect(() => rng.bool(1.5)).toThrow('p=1.5')
  })

  it('split() gives the k-th child the same draws whatever earlier children consumed', () => {
    const a = createRng('split', 'test')
    const b = createRng('split', 'test')
    const a1 = a.split()
    draw(a1, 100) // the first child of `a` is used heavily, that of `b` not at all
    b.split()
    expect(draw(a.split(), 10)).toEqual(draw(b.split(), 10))
    expect(draw(a, 5)).toEqual(draw(b, 5))
  })

  it('splitState() draws what split() draws, and rngFromSplit() makes the same stream from it', () => {
    const a = createRng('split-state', 'test')
    const b = createRng('split-state', 'test')
    const state = a.splitState()
    expect(state.every((x) => Number.isInteger(x) && x >= 0 && x < 2 ** 32)).toBe(true)
    expect(draw(rngFromSplit(state), 10)).toEqual(draw(b.split(), 10))
    expect(draw(a, 5)).toEqual(draw(b, 5))
  })

  it('split() children differ from each other and from the parent', () => {
    const parent = createRng('split-differ', 'test')
    const seqs = [parent.split(), parent.split(), parent].map((r) => draw(r, 8).join(','))
    expect(new Set(seqs).size).toBe(3)
  })

  it('pick() returns an element and refuses an empty array', () => {
    const rng = createRng('pick', 'test')
    const items = ['a', 'b', 'c'] as const
    const seen = new Set<string>()
    for (let i = 0; i < 100; i++) seen.add(rng.pick(items))
    expect([...seen].sort()).toEqual(['a', 'b', 'c'])
    expect(() => rng.pick([])).toThrow(RangeError)
  })
})
