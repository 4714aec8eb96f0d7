/**
 * The pool's supervisor with units posted ahead (`prefetch`): a worker runs its units in order, a
 * unit's budget starts only when the one before it on that worker ended, and units waiting behind a
 * lost unit run again on the replacement worker instead of being lost with it; a stall of the
 * supervising thread is not mistaken for a livelock of a worker.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { WorkerPool } from './worker-pool.js'
import type { PoolOutcome } from './worker-pool.js'

type Unit = { readonly n: number; readonly ms?: number; readonly spin?: true }

/** An executor module: `ms` waits that long on a real timer, `spin` never returns to the event loop. */
function executor(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'dsh-pool-')), 'executor.mjs')
  writeFileSync(file, `
    export function init() { return { ran: [] } }
    export async function run(state, unit) {
      state.ran.push(unit.n)
      if (unit.spin) for (;;) {}
      if (unit.ms) await new Promise((resolve) => setTimeout(resolve, unit.ms))
      return { n: unit.n, ranBefore: state.ran.slice(0, -1) }
    }
  `)
  return pathToFileURL(file).href
}

const result = (o: PoolOutcome<{ n: number; ranBefore: number[] }>): unknown => (o.kind === 'done' ? o.result : o.kind)

describe('WorkerPool with prefetch', () => {
  it('runs a worker\'s units in order, and times each from when the one before it ended', async () => {
    const pool = new WorkerPool<Unit, { n: number; ranBefore: number[] }>({ size: 1, executor: executor(), init: null, unitTimeoutMs: 1_500, prefetch: 2 })
    try {
      // Posted together; each takes 600 ms: the third ends 1.8 s after it was posted, within its own budget.
      const outcomes = await Promise.all([1, 2, 3].map((n) => pool.run({ n, ms: 600 })))
      expect(outcomes.map(result)).toEqual([{ n: 1, ranBefore: [] }, { n: 2, ranBefore: [1] }, { n: 3, ranBefore: [1, 2] }])
      expect(pool.lost).toBe(0)
    } finally {
      await pool.close()
    }
  }, 30_000)

  it('submit calls back once per unit, in the order the worker ended them, and fails units submitted after close', async () => {
    const pool = new WorkerPool<Unit, { n: number; ranBefore: number[] }>({ size: 1, executor: executor(), init: null, unitTimeoutMs: 5_000, prefetch: 3, batch: 2 })
    const calls: string[] = []
    try {
      await new Promise<void>((resolve, reject) => {
        for (const n of [1, 2, 3, 4]) {
          pool.submit({ n }, undefined, (o) => {
            calls.push(`${n}: ${JSON.stringify(result(o))}`)
            if (calls.length === 4) resolve()
          }, reject)
        }
      })
      expect(calls).toEqual(['1: {"n":1,"ranBefore":[]}', '2: {"n":2,"ranBefore":[1]}', '3: {"n":3,"ranBefore":[1,2]}', '4: {"n":4,"ranBefore":[1,2,3]}'])
    } finally {
      await pool.close()
    }
    const failed: string[] = []
    pool.submit({ n: 5 }, undefined, () => failed.push('done'), (e) => failed.push(e.message))
    expect(failed).toEqual(['WorkerPool: run() after close()'])
  }, 30_000)

  it('holds a unit with a shorter budget than the one before it to its own budget', async () => {
    const pool = new WorkerPool<Unit, { n: number; ranBefore: number[] }>({ size: 1, executor: executor(), init: null, unitTimeoutMs: 20_000, prefetch: 1 })
    try {
      const started = performance.now()
      const outcomes = await Promise.all([pool.run({ n: 1, ms: 100 }, 20_000), pool.run({ n: 2, ms: 15_000 }, 1_000)])
      expect(outcomes.map(result)).toEqual([{ n: 1, ranBefore: [] }, 'lost'])
      expect(outcomes[1]).toMatchObject({ kind: 'lost', reason: 'timeout' })
      expect(performance.now() - started).toBeLessThan(8_000)
    } finally {
      await pool.close()
    }
  }, 30_000)

  it('runs the units waiting behind a lost unit on the replacement worker', async () => {
    const pool = new WorkerPool<Unit, { n: number; ranBefore: number[] }>({ size: 1, executor: executor(), init: null, unitTimeoutMs: 20_000, busyLimitMs: 1_000, prefetch: 1 })
    try {
      const outcomes = await Promise.all([{ n: 1 }, { n: 2, spin: true as const }, { n: 3 }, { n: 4 }].map((u) => pool.run(u)))
      expect(outcomes.map(result)).toEqual([{ n: 1, ranBefore: [] }, 'lost', { n: 3, ranBefore: [] }, { n: 4, ranBefore: [3] }])
      expect(outcomes[1]).toMatchObject({ kind: 'lost', reason: 'runaway' })
      expect(pool.lost).toBe(1)
    } finally {
      await pool.close()
    }
  }, 30_000)

  it('does not take a stall of its own thread for a livelocked worker: the heartbeat is read from shared memory, not from messages queued behind', async () => {
    // Resumed from one worker's result (this thread's poll phase), this thread computes for longer
    // than the busy limit while the other worker idles on its timer and beats; beats sent as
    // messages were read only in the next poll phase, after the supervisor's timer had run.
    for (let attempt = 0; attempt < 3; attempt++) {
      const pool = new WorkerPool<Unit, { n: number; ranBefore: number[] }>({ size: 2, executor: executor(), init: null, unitTimeoutMs: 20_000, busyLimitMs: 600 })
      try {
        const long = pool.run({ n: 2, ms: 3_500 })
        await pool.run({ n: 1, ms: 800 })
        const until = performance.now() + 1_500
        while (performance.now() < until) { /* a long synchronous stretch of the supervising thread */ }
        expect(result(await long)).toEqual({ n: 2, ranBefore: [] })
        expect(pool.lost).toBe(0)
      } finally {
        await pool.close()
      }
    }
  }, 60_000)

  it('keeps reading the heartbeat of a worker whose virtual clock replaced the global performance: a long unit that yields is not a livelock', async () => {
    // A campaign worker installs its virtual clock once (fake-timers replaces the global performance,
    // whose timeOrigin then reads 0); the heartbeat written from it looked ancient, so every unit
    // longer than the busy limit (a slow factory's shrink) was stopped as a livelock.
    const fakeTimers = pathToFileURL(createRequire(import.meta.url).resolve('@sinonjs/fake-timers')).href
    const file = join(mkdtempSync(join(tmpdir(), 'dsh-pool-')), 'virtual-clock.mjs')
    writeFileSync(file, `
      const realImmediate = setImmediate
      const realNow = performance.now.bind(performance)
      export async function init() {
        const { default: FakeTimers } = await import(${JSON.stringify(fakeTimers)})
        FakeTimers.withGlobal(globalThis).install({ now: 0 })
        return {}
      }
      export async function run(_state, unit) {
        // Busy for unit.ms of real time, but back on the event loop (the real setImmediate) every turn.
        const until = realNow() + unit.ms
        while (realNow() < until) await new Promise((resolve) => realImmediate(resolve))
        return { n: unit.n, ranBefore: [] }
      }
    `)
    const pool = new WorkerPool<Unit, { n: number; ranBefore: number[] }>({ size: 1, executor: pathToFileURL(file).href, init: null, unitTimeoutMs: 20_000, busyLimitMs: 600 })
    try {
      expect(result(await pool.run({ n: 1, ms: 2_000 }))).toEqual({ n: 1, ranBefore: [] })
      expect(pool.lost).toBe(0)
    } finally {
      await pool.close()
    }
  }, 30_000)

  it('refuses a negative prefetch and a batch below 1', () => {
    expect(() => new WorkerPool({ size: 1, executor: executor(), init: null, unitTimeoutMs: 1_000, prefetch: -1 })).toThrow(/prefetch must be an integer >= 0/)
    expect(() => new WorkerPool({ size: 1, executor: executor(), init: null, unitTimeoutMs: 1_000, batch: 0 })).toThrow(/batch must be an integer >= 1, got 0/)
    expect(() => new WorkerPool({ size: 1, executor: executor(), init: null, unitTimeoutMs: 1_000, recycleAfter: 0 })).toThrow(/recycleAfter must be an integer >= 1, got 0/)
  })
})

describe('WorkerPool with batched ends', () => {
  type Pool = WorkerPool<Unit, { n: number; ranBefore: number[] }>

  it('delivers every end, in order, when the worker posts them several at a time', async () => {
    const pool: Pool = new WorkerPool({ size: 1, executor: executor(), init: null, unitTimeoutMs: 20_000, prefetch: 3, batch: 3 })
    try {
      const outcomes = await Promise.all([1, 2, 3, 4, 5].map((n) => pool.run({ n })))
      expect(outcomes.map(result)).toEqual([1, 2, 3, 4, 5].map((n) => ({ n, ranBefore: Array.from({ length: n - 1 }, (_, i) => i + 1) })))
    } finally {
      await pool.close()
    }
  }, 30_000)

  it('loses the unit that livelocks, not the units before it whose ends were still in the worker: those run again', async () => {
    const pool: Pool = new WorkerPool({ size: 1, executor: executor(), init: null, unitTimeoutMs: 20_000, busyLimitMs: 1_000, prefetch: 3, batch: 4 })
    try {
      const outcomes = await Promise.all([{ n: 1 }, { n: 2 }, { n: 3, spin: true as const }, { n: 4 }].map((u) => pool.run(u)))
      // 1 and 2 ended on the first worker (their ends waiting for a batch of 4), 3 spun there; the
      // replacement ran 1, 2 and 4 again from scratch.
      expect(outcomes.map(result)).toEqual([{ n: 1, ranBefore: [] }, { n: 2, ranBefore: [1] }, 'lost', { n: 4, ranBefore: [1, 2] }])
      expect(outcomes[2]).toMatchObject({ kind: 'lost', reason: 'runaway' })
      expect(pool.lost).toBe(1)
    } finally {
      await pool.close()
    }
  }, 30_000)

  it('times out the unit that hangs, not the unit before it whose end was still in the worker', async () => {
    const pool: Pool = new WorkerPool({ size: 1, executor: executor(), init: null, unitTimeoutMs: 1_500, prefetch: 2, batch: 3 })
    try {
      const outcomes = await Promise.all([{ n: 1 }, { n: 2, ms: 10_000 }, { n: 3 }].map((u) => pool.run(u)))
      expect(outcomes.map(result)).toEqual([{ n: 1, ranBefore: [] }, 'lost', { n: 3, ranBefore: [1] }])
      expect(outcomes[1]).toMatchObject({ kind: 'lost', reason: 'timeout' })
      expect(pool.lost).toBe(1)
    } finally {
      await pool.close()
    }
  }, 30_000)
})

describe('WorkerPool with recycling', () => {
  type Ran = { n: number; square: number; ranBefore: number[]; thread: number }
  type Pool = WorkerPool<Unit & { stray?: true }, Ran>

  /** Results name the thread that ran the unit; `stray` throws from a timer while the unit still waits. */
  function threadExecutor(): string {
    const file = join(mkdtempSync(join(tmpdir(), 'dsh-pool-')), 'thread-executor.mjs')
    writeFileSync(file, `
      import { threadId } from 'node:worker_threads'
      export function init() { return { ran: [] } }
      export async function run(state, unit) {
        state.ran.push(unit.n)
        if (unit.stray) {
          setTimeout(() => { throw new Error('a stray error of unit ' + unit.n) }, 0)
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        return { n: unit.n, square: unit.n * unit.n, ranBefore: state.ran.slice(0, -1), thread: threadId }
      }
    `)
    return pathToFileURL(file).href
  }
  const ran = (o: PoolOutcome<Ran>): Ran => {
    if (o.kind !== 'done') throw new Error(`unit not done: ${o.kind}`)
    return o.result
  }
  const ns = Array.from({ length: 10 }, (_, i) => i + 1)

  it('replaces a worker after recycleAfter units, with the units and their results of a pool that does not recycle', async () => {
    const plain: Pool = new WorkerPool({ size: 1, executor: threadExecutor(), init: null, unitTimeoutMs: 20_000, prefetch: 2, batch: 2 })
    const recycling: Pool = new WorkerPool({ size: 1, executor: threadExecutor(), init: null, unitTimeoutMs: 20_000, prefetch: 2, batch: 2, recycleAfter: 3 })
    try {
      const [a, b] = [await Promise.all(ns.map((n) => plain.run({ n }))), await Promise.all(ns.map((n) => recycling.run({ n })))]
      // The same units, each with the result it depends on, in order.
      expect(b.map((o) => ran(o).square)).toEqual(a.map((o) => ran(o).square))
      expect(b.map((o) => ran(o).n)).toEqual(ns)
      // One thread ran all of them without recycling; with it, a fresh thread (its state empty) every 3 units.
      expect(new Set(a.map((o) => ran(o).thread)).size).toBe(1)
      const threads = b.map((o) => ran(o).thread)
      expect(threads.map((t) => threads.indexOf(t))).toEqual([0, 0, 0, 3, 3, 3, 6, 6, 6, 9])
      expect(new Set(threads).size).toBe(4)
      expect(b.map((o) => ran(o).ranBefore)).toEqual([[], [1], [1, 2], [], [4], [4, 5], [], [7], [7, 8], []])
      expect([plain.recycled, recycling.recycled, recycling.lost]).toEqual([0, 3, 0])
    } finally {
      await Promise.all([plain.close(), recycling.close()])
    }
  }, 60_000)

  it('gives no worker of several more than recycleAfter units', async () => {
    const pool: Pool = new WorkerPool({ size: 2, executor: threadExecutor(), init: null, unitTimeoutMs: 20_000, prefetch: 7, batch: 4, recycleAfter: 4 })
    try {
      const units = Array.from({ length: 30 }, (_, i) => i + 1)
      const results = (await Promise.all(units.map((n) => pool.run({ n })))).map(ran)
      expect(results.map((r) => r.n)).toEqual(units)
      const perThread = new Map<number, number>()
      for (const r of results) perThread.set(r.thread, (perThread.get(r.thread) ?? 0) + 1)
      expect(Math.max(...perThread.values())).toBeLessThanOrEqual(4)
      expect(pool.recycled).toBeGreaterThanOrEqual(6)
      expect(pool.lost).toBe(0)
    } finally {
      await pool.close()
    }
  }, 60_000)

  it('charges a stray error to the worker\'s next unit, as without recycling, instead of dropping it with the worker', async () => {
    const outcomes = async (recycleAfter?: number): Promise<string[]> => {
      const pool: Pool = new WorkerPool({ size: 1, executor: threadExecutor(), init: null, unitTimeoutMs: 20_000, ...(recycleAfter ? { recycleAfter } : {}) })
      try {
        // Unit 3, the last of the first worker's three, leaves a stray error behind.
        const all = await Promise.all([{ n: 1 }, { n: 2 }, { n: 3, stray: true as const }, { n: 4 }, { n: 5 }].map((u) => pool.run(u)))
        return all.map((o) => (o.kind === 'lost' ? `lost: ${o.reason}` : o.kind))
      } finally {
        await pool.close()
      }
    }
    const expected = ['done', 'done', 'done', 'lost: crash', 'done']
    expect(await outcomes()).toEqual(expected)
    expect(await outcomes(3)).toEqual(expected)
  }, 60_000)
})
