import { describe, expect, it } from 'vitest'
import type { Context } from '../contract.js'
import { Transaction } from './transaction.js'

const tx = (): Transaction => new Transaction('s1', {} as Context, 'startup')

describe('Transaction: the fused creation abort', () => {
  it('is not aborted until abort() is called', () => {
    const t = tx()
    expect(t.controller.signal.aborted).toBe(false)
    expect(t.reason).toBeUndefined()
  })

  it('keeps the first reason and rejects `aborted` with it at once', async () => {
    const t = tx()
    const first = new Error('first')
    let seen: unknown
    t.aborted.catch((error: unknown) => { seen = error })
    t.abort(first)
    t.abort(new Error('second'))
    expect(t.controller.signal.aborted).toBe(true)
    expect(t.reason).toBe(first)
    await expect(t.aborted).rejects.toBe(first)
    // Rejected synchronously in abort(): one microtask later its handler has run.
    expect(seen).toBe(first)
  })

  it('rejects ahead of work queued after the abort, as an abort listener did', async () => {
    const t = tx()
    const order: string[] = []
    t.aborted.catch(() => order.push('aborted'))
    t.abort(new Error('x'))
    void Promise.resolve().then(() => order.push('later'))
    await Promise.resolve()
    await Promise.resolve()
    expect(order).toEqual(['aborted', 'later'])
  })

  it('aborts without a reason as AbortController does: an AbortError', async () => {
    const t = tx()
    t.abort(undefined)
    expect(t.reason).toBeInstanceOf(DOMException)
    expect((t.reason as DOMException).name).toBe('AbortError')
    await expect(t.aborted).rejects.toBe(t.reason)
  })
})
