import { describe, expect, it } from 'vitest'
import { MAX_TRANSITIONS, TransitionHasher, TransitionTable, transitionHash, transitionKeys } from './transition-table.js'

describe('transition hashes and their table', () => {
  it('hashes a transition to a stable non-zero 53-bit integer, different transitions apart', () => {
    const texts = Array.from({ length: 20_000 }, (_, i) => `live|idle|-${i % 7 ? 'T' : '-'}|turn|-|- followup ${i} live|run|--|turn|-|-`)
    const hashes = texts.map(transitionHash)
    expect(new Set(hashes).size).toBe(texts.length)
    for (const h of hashes) expect(Number.isSafeInteger(h) && h > 0).toBe(true)
    expect(transitionHash('a')).toBe(transitionHash('a'))
    expect(transitionHash('')).not.toBe(0)
    // Both halves vary: the table indexes by the low 32 bits.
    expect(new Set(hashes.map((h) => h % 4294967296)).size).toBe(texts.length)
    expect(new Set(hashes.map((h) => Math.floor(h / 4294967296))).size).toBeGreaterThan(texts.length * 0.99)
  })

  it('gives the keys of a set of transitions once each, sorted', () => {
    const keys = transitionKeys(['b', 'a', 'b'])
    expect([...keys]).toEqual([transitionHash('a'), transitionHash('b')].sort((x, y) => x - y))
  })

  it('counts hits and owners per key across growth, as a Map would, one key at a time or a seed\'s keys at once', () => {
    // 16 slots to start with: 12,000 keys make it grow ten times.
    const table = new TransitionTable(MAX_TRANSITIONS, 16)
    const batched = new TransitionTable(MAX_TRANSITIONS, 16)
    const model = new Map<number, { hits: number; owner: number }>()
    const seed: number[] = []
    const flush = (): void => {
      const before = new Uint32Array(seed.length)
      const owners = new Int32Array(seed.length)
      const expected = seed.map(() => [0, 0])
      const counted = new Map<number, number>()
      seed.forEach((key, i) => {
        const n = counted.get(key) ?? batched.hits(key)
        expected[i] = [n, batched.owner(key)]
        counted.set(key, n + 1)
      })
      batched.hitAll(seed, before, owners)
      expect(seed.map((_, i) => [before[i], owners[i]])).toEqual(expected)
      seed.length = 0
    }
    let x = 7
    for (let i = 0; i < 30_000; i++) {
      x = (x * 48271) % 2147483647
      const key = transitionHash(`t${x % 12_000}`)
      const before = model.get(key)
      expect(table.hit(key)).toBe(before?.hits ?? 0)
      seed.push(key)
      model.set(key, { hits: (before?.hits ?? 0) + 1, owner: before?.owner ?? -1 })
      if (i % 3 === 0) {
        table.setOwner(key, i)
        flush()
        batched.setOwner(key, i)
        model.get(key)!.owner = i
      }
    }
    flush()
    expect(table.size).toBe(model.size)
    expect(batched.size).toBe(model.size)
    for (const [key, { hits, owner }] of model) {
      expect(table.hits(key)).toBe(hits)
      expect(table.owner(key)).toBe(owner)
      expect(batched.hits(key)).toBe(hits)
      expect(batched.owner(key)).toBe(owner)
    }
    expect(() => new TransitionTable(MAX_TRANSITIONS, 12)).toThrow(/initialSlots must be a power of two/)
    expect(table.hits(transitionHash('never'))).toBe(0)
    expect(table.owner(transitionHash('never'))).toBe(-1)
    expect(() => table.setOwner(transitionHash('never'), 1)).toThrow(/never hit/)
  })

  it('holds at most max transitions: one it does not hold counts as reached before, owned by none, and is tallied', () => {
    const table = new TransitionTable(8)
    const keys = Array.from({ length: 12 }, (_, i) => transitionHash(`t${i}`))
    for (const key of keys.slice(0, 8)) expect(table.hit(key)).toBe(0)
    table.setOwner(keys[3]!, 5)
    expect([table.size, table.full, table.untracked]).toEqual([8, true, 0])
    // Held keys go on counting; the others are not added, however often they come.
    expect(table.hit(keys[3]!)).toBe(1)
    expect(table.hit(keys[9]!)).toBe(1)
    expect(table.hit(keys[9]!)).toBe(1)
    const before = new Uint32Array(4)
    const owners = new Int32Array(4)
    table.hitAll([keys[3]!, keys[10]!, keys[0]!, keys[11]!], before, owners)
    expect([...before]).toEqual([2, 1, 1, 1])
    expect([...owners]).toEqual([5, -1, -1, -1])
    expect([table.size, table.untracked, table.hits(keys[9]!), table.owner(keys[10]!)]).toEqual([8, 4, 0, -1])
    expect(() => table.setOwner(keys[9]!, 1)).toThrow(/never hit/)
  })

  it('holds every transition below its bound, and refuses a bound that is not a power of two', () => {
    const table = new TransitionTable(1 << 13)
    for (let i = 0; i < 1 << 13; i++) expect(table.hit(transitionHash(`t${i}`))).toBe(0)
    expect([table.size, table.full, table.untracked]).toEqual([1 << 13, true, 0])
    expect(new TransitionTable().full).toBe(false)
    expect(MAX_TRANSITIONS).toBe(1 << 20)
    expect(() => new TransitionTable(3)).toThrow(/max must be a power of two >= 1, got 3/)
    expect(() => new TransitionTable(0)).toThrow(/got 0/)
  })

  it('hashes a text given in pieces as transitionHash hashes it whole, and gives the keys sorted without duplicates', () => {
    const texts: [string, string, string, string, string, string, string][] = [
      ['', '', '', '', '', '', ''], ['a', '', '', '', '', '', ''], ['-|idle|--|-|-|-', ' ', '+create', '@agent/created/1', ' ', '-|idle|--|-|-|invoked', ''],
      ['dispatch ', 'agent/status', '', '', '', '', ''], ['é', '😀', 'x', '', 'y', '', 'z'], ['a', '', '', '', '', '', ''],
    ]
    const hasher = new TransitionHasher()
    for (const pieces of texts) hasher.add(...pieces)
    expect([...hasher.keys()]).toEqual([...transitionKeys(texts.map((p) => p.join('')))])
    const many = new TransitionHasher()
    for (let i = 0; i < 500; i++) many.add(`t${i % 97}`, '', '', '', '', '', '')
    expect([...many.keys()]).toEqual([...transitionKeys(Array.from({ length: 97 }, (_, i) => `t${i}`))])
  })
})
