import { setTimeout as namedSetTimeout } from 'node:timers'
import timersDefault from 'node:timers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { realSetImmediate, VirtualClock, VIRTUAL_START } from './clock.js'

/** One real macrotask turn: enough for a real 0 ms timer's neighbours, never for a fake one. */
const realTurn = (): Promise<void> => new Promise((resolve) => realSetImmediate(resolve))

describe('VirtualClock', () => {
  const clocks: VirtualClock[] = []
  const make = (start?: number): VirtualClock => {
    const clock = start === undefined ? new VirtualClock() : new VirtualClock({ start })
    clocks.push(clock)
    return clock
  }
  afterEach(() => {
    for (const c of clocks.splice(0)) c.uninstall()
    vi.useRealTimers()
  })

  it('starts Date and performance at a fixed virtual time, not real time', () => {
    const clock = make()
    clock.install()
    expect(Date.now()).toBe(VIRTUAL_START)
    expect(new Date().getTime()).toBe(VIRTUAL_START)
    expect(performance.now()).toBe(0)
    expect(clock.now()).toBe(VIRTUAL_START)
    clock.uninstall()

    const epoch = make(1_700_000_000_000)
    epoch.install()
    expect(Date.now()).toBe(1_700_000_000_000)
  })

  it('fires a timer only when advanced, one timer per advance, in due order', async () => {
    const clock = make()
    clock.install()
    const fired: string[] = []
    setTimeout(() => fired.push('b@20'), 20)
    setTimeout(() => fired.push('a@10'), 10)
    setTimeout(() => fired.push('c@20'), 20)
    await realTurn()
    await realTurn()
    expect(fired).toEqual([])
    expect(clock.pendingTimers()).toBe(3)

    expect(clock.nextTimerAt()).toBe(10)
    clock.advanceToNext()
    expect(fired).toEqual(['a@10'])
    expect(Date.now()).toBe(10)

    expect(clock.nextTimerAt()).toBe(20)
    clock.advanceToNext()
    expect(fired).toEqual(['a@10', 'b@20'])
    clock.advanceToNext()
    expect(fired).toEqual(['a@10', 'b@20', 'c@20'])
    expect(clock.nextTimerAt()).toBeUndefined()
    expect(() => clock.advanceToNext()).toThrow('no timer is waiting')
  })

  it('reports intervals and cleared timers correctly', () => {
    const clock = make()
    clock.install()
    let ticks = 0
    const id = setInterval(() => ticks++, 5)
    const gone = setTimeout(() => ticks += 100, 1)
    clearTimeout(gone)
    expect(clock.nextTimerAt()).toBe(5)
    clock.advanceToNext()
    clock.advanceToNext()
    expect(ticks).toBe(2)
    expect(clock.nextTimerAt()).toBe(15)
    clearInterval(id)
    expect(clock.nextTimerAt()).toBeUndefined()
  })

  it('lets an exception thrown by a timer callback reach the caller of advanceToNext', () => {
    const clock = make()
    clock.install()
    setTimeout(() => {
      throw new Error('boom in timer')
    }, 1)
    expect(() => clock.advanceToNext()).toThrow('boom in timer')
  })

  it('restores the real globals on uninstall, and uninstall is idempotent', () => {
    const realSetTimeout = globalThis.setTimeout
    const RealDate = globalThis.Date
    const clock = make()
    clock.install()
    expect(globalThis.setTimeout).not.toBe(realSetTimeout)
    expect(globalThis.setImmediate).toBe(realSetImmediate)
    clock.uninstall()
    clock.uninstall()
    expect(globalThis.setTimeout).toBe(realSetTimeout)
    expect(globalThis.Date).toBe(RealDate)
    expect(clock.installed).toBe(false)
  })

  it('refuses a second install of the same clock, or of another clock', () => {
    const clock = make()
    clock.install()
    expect(() => clock.install()).toThrow('this clock is already installed')
    expect(() => make().install()).toThrow('another VirtualClock is installed')
    clock.uninstall()
    const next = make()
    next.install()
    expect(next.installed).toBe(true)
  })

  it('refuses to install over vi.useFakeTimers()', () => {
    vi.useFakeTimers()
    expect(() => make().install()).toThrow('setTimeout is already faked')
  })

  it('documents what fake-timers patches: the timers module object, but not ESM named imports of node:timers', () => {
    const clock = make()
    clock.install()
    // The default import is the CommonJS module object, which fake-timers patches.
    expect(timersDefault.setTimeout).toBe(globalThis.setTimeout)
    // ESM named bindings are not re-synced, so they stay real: code under test
    // can obtain a real timer this way, and the engine has to notice it.
    expect(namedSetTimeout).not.toBe(globalThis.setTimeout)
  })
})
