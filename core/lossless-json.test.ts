import assert from 'node:assert/strict'
import { describe, it } from 'vitest'
import { NotLosslessJsonError, snapshotJson } from './lossless-json.js'

/** The error `snapshotJson(value)` throws: its path and reason. */
function rejection(value: unknown): { path: string; reason: string } {
  try {
    snapshotJson(value)
  } catch (error) {
    assert.ok(error instanceof NotLosslessJsonError)
    return { path: error.path, reason: error.reason }
  }
  assert.fail('snapshotJson accepted a value that is not lossless JSON')
}

describe('snapshotJson', () => {
  it('names the path of the first bad value: keys with dots, indices in brackets, the root as empty', () => {
    assert.deepEqual(rejection({ a: [1, { b: Number.NaN }] }), { path: '.a[1].b', reason: 'non-finite number' })
    assert.deepEqual(rejection([[0, -0]]), { path: '[0][1]', reason: '-0' })
    assert.deepEqual(rejection(undefined), { path: '', reason: 'undefined' })
    assert.deepEqual(rejection({ ok: { x: 1 }, then: { f: () => 1 } }), { path: '.then.f', reason: 'function' })
    assert.deepEqual(rejection({ a: Object.defineProperty({}, 'k', { value: 1, enumerable: false }) }), { path: '.a.k', reason: 'non-enumerable key' })
    assert.deepEqual(rejection({ a: { [Symbol('s')]: 1 } }), { path: '.a', reason: 'symbol key' })
    // eslint-disable-next-line no-sparse-arrays
    assert.deepEqual(rejection({ list: [1, , 3] }), { path: '.list', reason: 'sparse array or array with extra properties' })
    assert.equal(new NotLosslessJsonError('', 'cycle').message, 'cycle at <root>')
  })

  it('rejects a cycle at the object that closes it, and copies a shared acyclic object at each place', () => {
    const loop: Record<string, unknown> = { n: 1 }
    loop.next = { back: loop }
    assert.deepEqual(rejection({ loop }), { path: '.loop.next.back', reason: 'cycle' })
    const shared = { v: 1 }
    const copy = snapshotJson({ a: shared, b: [shared] }) as { a: object; b: object[] }
    assert.deepEqual(copy, { a: { v: 1 }, b: [{ v: 1 }] })
    assert.notEqual(copy.a, shared)
    assert.notEqual(copy.a, copy.b[0])
  })

  it('returns a deep-frozen copy whose properties are enumerable and read-only, an own "__proto__" key included', () => {
    const input = JSON.parse('{"__proto__":{"x":1},"list":[1,{"y":2}],"2":"two"}') as unknown
    const copy = snapshotJson(input) as Record<string, unknown>
    assert.equal(Object.getPrototypeOf(copy), Object.prototype)
    assert.deepEqual(Object.keys(copy), ['2', '__proto__', 'list'])
    for (const key of Object.keys(copy)) {
      const desc = Object.getOwnPropertyDescriptor(copy, key)!
      assert.deepEqual([desc.enumerable, desc.writable, desc.configurable], [true, false, false], key)
    }
    assert.ok(Object.isFrozen(copy) && Object.isFrozen(copy.list) && Object.isFrozen((copy.list as object[])[1]))
    assert.equal(JSON.stringify(copy), JSON.stringify(input))
  })

  it('reads each property once, through its getter', () => {
    let reads = 0
    const value = { get n() { reads++; return reads } }
    assert.deepEqual(snapshotJson({ value }), { value: { n: 1 } })
    assert.equal(reads, 1)
  })
})
