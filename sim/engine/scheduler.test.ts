import { readFile } from 'node:fs'
import { readFile as readFilePromise } from 'node:fs/promises'
import { setTimeout as realSetTimeout } from 'node:timers'
import { setTimeout as realSleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { dfs } from '../strategies/dfs.js'
import { random } from '../strategies/random.js'
import type { Strategy } from '../strategies/strategy.js'
import type { RunOutcome } from './outcome.js'
import { Scheduler, type RunOptions } from './scheduler.js'

/** A scheduler on a begun strategy (FIFO by default: dfs's first run always picks index 0). */
function begun(strategy: Strategy = dfs()): Scheduler {
  expect(strategy.beginRun()).toBe(true)
  return new Scheduler(strategy)
}

async function runWith(
  body: (s: Scheduler) => void | Promise<void>,
  options: RunOptions = {},
  strategy?: Strategy,
): Promise<RunOutcome> {
  const s = begun(strategy)
  return s.run(() => body(s), options)
}

const picks = (outcome: RunOutcome): string[] =>
  outcome.decisions.decisions.flatMap((d) => (d.kind === 'pick' ? [d.label] : []))

describe('Scheduler.run', () => {
  it('runs actors point by point in the order the strategy picks, and ends ok', async () => {
    const order: string[] = []
    const outcome = await runWith(async (s) => {
      await Promise.all(
        ['a', 'b'].map(async (actor) => {
          for (let i = 1; i <= 3; i++) {
            await s.point(`${actor}${i}`, actor)
            order.push(`${actor}${i}`)
          }
        }),
      )
    }, {}, random({ seed: 3 }))
    expect(outcome).toMatchObject({ kind: 'ok' })
    expect(outcome.steps).toBe(6)
    expect(picks(outcome)).toEqual(order)
    expect(outcome.decisions).toMatchObject({ v: 1, strategy: 'random seed=3 run=0', seed: '3' })
  })

  it('gives the same decisions for the same seed and strategy', async () => {
    const program = async (s: Scheduler) => {
      await Promise.all(['a', 'b', 'c'].map(async (actor) => {
        for (let i = 0; i < 4; i++) await s.point(`${actor}${i}`, actor)
        s.random(5)
      }))
    }
    const first = await runWith(program, {}, random({ seed: 'same' }))
    const second = await runWith(program, {}, random({ seed: 'same' }))
    const other = await runWith(program, {}, random({ seed: 'other' }))
    expect(second.decisions).toEqual(first.decisions)
    expect(other.decisions.decisions).not.toEqual(first.decisions.decisions)
  })

  it('labels a point whose label is already pending with #2, #3', async () => {
    const outcome = await runWith(async (s) => {
      await Promise.all([s.point('x', 'a'), s.point('x', 'b'), s.point('x', 'c')])
      await s.point('x', 'a') // no other "x" is pending any more
    })
    expect(picks(outcome)).toEqual(['x', 'x#2', 'x#3', 'x'])
  })

  it('settles through chains of real immediates queued by code under test', async () => {
    // Without the extra turns, the engine would see nothing pending after one
    // turn and end the run (as a deadlock, since the operation is open).
    const outcome = await runWith((s) => {
      const op = s.beginOp('a', 'late point')
      setImmediate(() => setImmediate(() => setImmediate(() => {
        void s.point('late', 'a').then(() => op.end())
      })))
    })
    expect(outcome).toMatchObject({ kind: 'ok' })
    expect(picks(outcome)).toEqual(['late'])
  })

  it('refuses to run twice', async () => {
    const s = begun()
    await s.run(() => {})
    await expect(s.run(() => {})).rejects.toThrow('already run')
  })

  it('refuses a second run while one is active in the process', async () => {
    const first = begun()
    const second = begun()
    let refusal: Promise<unknown> | undefined
    const outcome = await first.run(async () => {
      refusal = second.run(() => {}).catch((error: unknown) => error)
      await first.point('a', 'a')
    })
    expect(outcome).toMatchObject({ kind: 'ok' })
    expect(String(await refusal)).toContain('another VirtualClock is installed')
  })

  it('rejects on a strategy error, with the clock and listeners restored', async () => {
    const realSetTimeoutGlobal = globalThis.setTimeout
    const listeners = process.listeners('unhandledRejection').length
    const broken: Strategy = { name: 'broken', beginRun: () => true, pick: () => 7, random: () => 0 }
    const s = new Scheduler(broken)
    await expect(s.run(async () => { await s.point('a', 'a') })).rejects.toThrow('strategy "broken" picked index 7 of 1 pending points')
    expect(globalThis.setTimeout).toBe(realSetTimeoutGlobal)
    expect(process.listeners('unhandledRejection').length).toBe(listeners)
  })
})

describe('virtual time', () => {
  it('shows virtual time through Date.now() during the run, and real time after', async () => {
    const seen: number[] = []
    await runWith(async (s) => {
      seen.push(Date.now())
      await s.point('a', 'a')
      seen.push(Date.now(), performance.now())
    }, { clockStart: 1_000 })
    expect(seen).toEqual([1_000, 1_000, 0])
    expect(Date.now()).toBeGreaterThan(1_600_000_000_000)
  })

  it('fires timers only when nothing is pending, one time decision per timer', async () => {
    const events: string[] = []
    const outcome = await runWith(async (s) => {
      setTimeout(() => events.push(`timer@${Date.now()}`), 30)
      setTimeout(() => events.push(`timer@${Date.now()}`), 10)
      for (let i = 0; i < 3; i++) {
        await s.point(`a${i}`, 'a')
        events.push(`a${i}`)
      }
    })
    expect(outcome).toMatchObject({ kind: 'ok' })
    expect(events).toEqual(['a0', 'a1', 'a2', 'timer@10', 'timer@30'])
    expect(outcome.decisions.decisions.slice(3)).toEqual([{ kind: 'time', at: 10 }, { kind: 'time', at: 30 }])
    expect(outcome.steps).toBe(5)
  })

  it('lets a timer callback create new scheduling points', async () => {
    const outcome = await runWith((s) => {
      const op = s.beginOp('t', 'wait for timeout')
      setTimeout(() => void s.point('after-timeout', 't').then(() => op.end()), 50)
    })
    expect(outcome).toMatchObject({ kind: 'ok' })
    expect(outcome.decisions.decisions).toEqual([{ kind: 'time', at: 50 }, { kind: 'pick', label: 'after-timeout' }])
  })
})

describe('deadlock', () => {
  it('names the blocked operation and what it waits on, in well under a second', async () => {
    const started = performance.now()
    const outcome = await runWith(async (s) => {
      const load = s.beginOp('a1', 'resume s1')
      await s.point('a1:resume@start', 'a1')
      await s.block('persistence.load(s1)', 'a1')
      load.end()
    })
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(outcome).toMatchObject({
      kind: 'deadlock',
      steps: 1,
      // main() awaits the operation, so it is not named beside it.
      blocked: [{ actor: 'a1', op: 'resume s1', waitingOn: 'persistence.load(s1)' }],
    })
  })

  it('names main() when it hangs with no operation open', async () => {
    const outcome = await runWith(async (s) => {
      await s.point('main:start', 'main')
      await new Promise(() => {})
    })
    expect(outcome).toMatchObject({ kind: 'deadlock', blocked: [{ actor: 'main', op: 'main()', waitingOn: 'main:start' }] })
  })

  it('reports the last point an operation reached when it hangs without declaring a block', async () => {
    const outcome = await runWith((s) => {
      const op = s.beginOp('b', 'create s2')
      void (async () => {
        await s.point('b:create@setup.1', 'b')
        await s.point('b:create@setup.2', 'b')
        await new Promise(() => {}) // an await nobody will ever resolve
        op.end()
      })()
    })
    expect(outcome).toMatchObject({ kind: 'deadlock', blocked: [{ actor: 'b', op: 'create s2', waitingOn: 'b:create@setup.2' }] })
  })

  it('lets an explicit waitingOn override the last point', async () => {
    const outcome = await runWith(async (s) => {
      const op = s.beginOp('c', 'dispose')
      await s.point('c:dispose', 'c')
      op.waitingOn('whenIdle()')
      await new Promise(() => {})
    })
    expect(outcome).toMatchObject({ kind: 'deadlock', blocked: [{ actor: 'c', waitingOn: 'whenIdle()' }] })
  })

  it('is not a deadlock when a blocked operation was abandoned (ended) by its owner', async () => {
    const outcome = await runWith(async (s) => {
      const op = s.beginOp('a', 'load')
      void s.block('persistence.load', 'a')
      op.end('info') // cancelled: nobody waits for the hanging load any more
    })
    expect(outcome).toMatchObject({ kind: 'ok' })
  })

  it('refuses to end an operation twice', () => {
    const s = begun()
    const op = s.beginOp('a', 'create')
    op.end()
    expect(() => op.end('fail')).toThrow('operation "create" of actor "a" ended twice (first ok, then fail)')
  })
})

describe('livelock', () => {
  it('ends a run still picking points after the budget', async () => {
    const outcome = await runWith(async (s) => {
      for (;;) await s.point('spin', 'a')
    }, { budget: 50 })
    expect(outcome).toMatchObject({ kind: 'livelock', steps: 50, budget: 50 })
    expect(outcome.decisions.decisions).toHaveLength(50)
  })

  it('ends a run whose timers keep rescheduling themselves', async () => {
    const outcome = await runWith(() => {
      setInterval(() => {}, 10)
    }, { budget: 20 })
    expect(outcome).toMatchObject({ kind: 'livelock', steps: 20, budget: 20 })
    expect(outcome.decisions.decisions.at(-1)).toEqual({ kind: 'time', at: 200 })
  })

  it('does not count a run of exactly the budget as a livelock', async () => {
    const outcome = await runWith(async (s) => {
      for (let i = 0; i < 5; i++) await s.point(`p${i}`, 'a')
    }, { budget: 5 })
    expect(outcome).toMatchObject({ kind: 'ok' })
  })
})

describe('uncontrolled nondeterminism', () => {
  it('reports a real timer obtained from node:timers, and cancels it', async () => {
    let timer: NodeJS.Timeout | undefined
    const outcome = await runWith(async (s) => {
      await s.point('a1', 'a')
      // fake-timers patches globalThis.setTimeout but not this ESM binding.
      timer = realSetTimeout(() => {}, 60_000)
      await s.point('a2', 'a')
    })
    expect(outcome).toMatchObject({ kind: 'uncontrolled', steps: 1 })
    if (outcome.kind !== 'uncontrolled') return
    expect(outcome.seen).toMatch(/^real Timeout created at decision 1 \(.*scheduler\.test\.ts:\d+:\d+\)$/)
    // `_destroyed` is Node's own flag for a cleared or fired timer.
    expect((timer as unknown as { _destroyed: boolean })._destroyed).toBe(true)
  })

  it('reports a real timer from node:timers/promises', async () => {
    const outcome = await runWith(async (s) => {
      await s.point('a1', 'a')
      await realSleep(60_000)
    })
    expect(outcome).toMatchObject({ kind: 'uncontrolled', steps: 1 })
    if (outcome.kind === 'uncontrolled') expect(outcome.seen).toMatch(/^real Timeout created at decision 1 \(.*scheduler\.test\.ts:\d+:\d+\)$/)
  })

  it('reports real I/O', async () => {
    let read!: () => void
    const done = new Promise<void>((resolve) => (read = resolve))
    const outcome = await runWith(async (s) => {
      await s.point('a1', 'a')
      await s.point('a2', 'a')
      readFile(import.meta.filename, () => read())
    })
    // Let the read finish, so its later steps are not created during other tests' runs.
    await done
    expect(outcome).toMatchObject({ kind: 'uncontrolled', steps: 2 })
    if (outcome.kind === 'uncontrolled') expect(outcome.seen).toMatch(/^real FSREQCALLBACK created at decision 2 \(.*scheduler\.test\.ts:\d+:\d+\)$/)
  })

  it('does not blame a run for real work a previous run left in flight', async () => {
    const file = import.meta.filename
    let pending = 3
    let allDone!: () => void
    const done = new Promise<void>((resolve) => (allDone = resolve))
    const oneDone = () => {
      if (--pending === 0) allDone()
    }
    const first = await runWith(() => {
      // Three kinds of tails, each caught by a different rule of the watch:
      // a callback of real work starting more real work,
      readFile(file, () => readFile(file, oneDone))
      // Node's internals continuing a promise-based read,
      void readFilePromise(file).then(oneDone)
      // and code resumed by real work, in a context older than the next run.
      void (async () => {
        await readFilePromise(file)
        readFile(file, oneDone)
      })()
    })
    expect(first).toMatchObject({ kind: 'uncontrolled' })
    const later: RunOutcome[] = []
    let finished = false
    void done.then(() => (finished = true))
    // Runs that each take a few real turns, while the reads go on.
    while (!finished) {
      later.push(await runWith(async (s) => {
        for (let i = 0; i < 5; i++) await s.point(`p${i}`, 'a')
      }))
    }
    expect(later.length).toBeGreaterThan(0)
    expect(later.filter((o) => o.kind !== 'ok')).toEqual([])
  })

  it('does not flag virtual timers, real immediates, ticks or microtasks', async () => {
    const outcome = await runWith(async (s) => {
      setTimeout(() => {}, 5)
      await new Promise((resolve) => setImmediate(resolve))
      await s.point('a', 'a')
      process.nextTick(() => {})
      queueMicrotask(() => {})
    })
    expect(outcome).toMatchObject({ kind: 'ok' })
  })
})

describe('crash', () => {
  it('reports main throwing synchronously', async () => {
    const error = new Error('main broke')
    const outcome = await runWith(() => {
      throw error
    })
    expect(outcome).toMatchObject({ kind: 'crash', source: 'main', error, steps: 0 })
  })

  it('reports main rejecting after some steps', async () => {
    const outcome = await runWith(async (s) => {
      await s.point('a', 'a')
      throw new Error('late failure')
    })
    expect(outcome).toMatchObject({ kind: 'crash', source: 'main', steps: 1 })
    if (outcome.kind === 'crash') expect((outcome.error as Error).message).toBe('late failure')
  })

  it('reports an unhandled rejection as a crash of the run, not of the test', async () => {
    const outcome = await runWith(async (s) => {
      await s.point('a', 'a')
      void Promise.reject(new Error('nobody listens'))
      await s.point('b', 'a')
    })
    expect(outcome).toMatchObject({ kind: 'crash', source: 'unhandled-rejection', steps: 1 })
    if (outcome.kind === 'crash') expect((outcome.error as Error).message).toBe('nobody listens')
  })

  it('reports an exception thrown by a virtual timer callback', async () => {
    const outcome = await runWith(() => {
      setTimeout(() => {
        throw new Error('timer callback broke')
      }, 5)
    })
    expect(outcome).toMatchObject({ kind: 'crash', source: 'timer', steps: 1 })
  })

  it('reports an exception thrown by a real immediate callback', async () => {
    const outcome = await runWith(() => {
      setImmediate(() => {
        throw new Error('immediate broke')
      })
    })
    expect(outcome).toMatchObject({ kind: 'crash', source: 'uncaught-exception' })
  })
})

describe('Scheduler.random', () => {
  it('logs each draw among the picks, in order', async () => {
    const drawn: number[] = []
    const outcome = await runWith(async (s) => {
      await s.point('a', 'a')
      drawn.push(s.random(3))
      await s.point('b', 'a')
    }, {}, random({ seed: 9 }))
    expect(outcome.decisions.decisions).toEqual([
      { kind: 'pick', label: 'a' },
      { kind: 'random', n: 3, value: drawn[0] },
      { kind: 'pick', label: 'b' },
    ])
  })

  it('refuses a bad n and draws outside a run', () => {
    const s = begun()
    expect(() => s.random(2)).toThrow('called outside run()')
    expect(() => s.random(0)).toThrow(RangeError)
    expect(() => s.random(1.5)).toThrow('n=1.5')
  })

  it('rejects the run when the strategy fails a draw, even if code under test swallows the error', async () => {
    const failing: Strategy = {
      name: 'failing',
      beginRun: () => true,
      pick: () => 0,
      random: () => {
        throw new Error('no draws today')
      },
    }
    const s = new Scheduler(failing)
    await expect(
      s.run(() => {
        try {
          s.random(2)
        } catch {
          // code under test that swallows everything
        }
      }),
    ).rejects.toThrow('no draws today')
  })
})
